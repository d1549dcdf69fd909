from attnkit import copy_results, tinygpt, training
from attnkit.copytask import spell
from attnkit.text import pad

params, _ = training.trained(**training.BOOK)
tokens, _ = copy_results.held_out(**training.BOOK)
half = training.BOOK["half"]                        # 6
prompt = tokens[0, :half]                           # 一条新序列的前半句 [zh]
prompt = tokens[0, :half]                           # the first half of a new sequence [en]
label = 22                                          # 标签列的显示宽度 [zh]
label = 22                                          # width of the label column [en]
print(pad("开头：", label), spell(prompt))                                        # [zh]
print(pad("贪心（T = 0）：", label), spell(tinygpt.generate(params, prompt, half)))        # [zh]
print(pad("prompt:", label), spell(prompt))                                        # [en]
print(pad("greedy (T = 0):", label), spell(tinygpt.generate(params, prompt, half)))        # [en]
for temperature in (1.0, 3.0, 10.0):
    for seed in (0, 1):
        out = tinygpt.generate(params, prompt, half, temperature=temperature, seed=seed)
        right = int((out[half:] == prompt).sum())       # 抄对了几个 [zh]
        right = int((out[half:] == prompt).sum())       # letters copied right [en]
        print(pad(f"T = {temperature:4}，随机种子 {seed}：", label), spell(out), f"对 {right}/{half}")   # [zh]
        print(pad(f"T = {temperature:4}, seed {seed}:", label), spell(out), f"{right}/{half} right")     # [en]
