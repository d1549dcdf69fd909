from attnkit import tinygpt
from attnkit.text import pad

params, _ = tinygpt.trained(**tinygpt.BOOK)
tokens, _ = tinygpt.held_out(**tinygpt.BOOK)
half = tinygpt.BOOK["half"]                         # 6
prompt = tokens[0, :half]                           # 一条新序列的前半句 [zh]
prompt = tokens[0, :half]                           # the first half of a new sequence [en]
label = 22                                          # 标签列的显示宽度 [zh]
label = 22                                          # width of the label column [en]
print(pad("开头：", label), tinygpt.spell(prompt))                                # [zh]
print(pad("贪心（T = 0）：", label), tinygpt.spell(tinygpt.generate(params, prompt, half)))   # [zh]
print(pad("prompt:", label), tinygpt.spell(prompt))                                # [en]
print(pad("greedy (T = 0):", label), tinygpt.spell(tinygpt.generate(params, prompt, half)))   # [en]
for temperature in (1.0, 3.0, 10.0):
    for seed in (0, 1):
        out = tinygpt.generate(params, prompt, half, temperature=temperature, seed=seed)
        right = int((out[half:] == prompt).sum())       # 抄对了几个 [zh]
        right = int((out[half:] == prompt).sum())       # letters copied right [en]
        print(pad(f"T = {temperature:4}，随机种子 {seed}：", label), tinygpt.spell(out), f"对 {right}/{half}")   # [zh]
        print(pad(f"T = {temperature:4}, seed {seed}:", label), tinygpt.spell(out), f"{right}/{half} right")     # [en]
