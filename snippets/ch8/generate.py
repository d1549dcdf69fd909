from attnkit import tinygpt

params, _ = tinygpt.trained(**tinygpt.BOOK)
tokens, _ = tinygpt.held_out(**tinygpt.BOOK)
prompt = tokens[0, :6]                              # 一条新序列的前半句 [zh]
prompt = tokens[0, :6]                              # the first half of a new sequence [en]
print("开头：          ", tinygpt.spell(prompt))                                # [zh]
print("贪心（T = 0）： ", tinygpt.spell(tinygpt.generate(params, prompt, 5)))   # [zh]
print("prompt:         ", tinygpt.spell(prompt))                                # [en]
print("greedy (T = 0): ", tinygpt.spell(tinygpt.generate(params, prompt, 5)))   # [en]
for temperature in (1.0, 3.0, 10.0):
    for seed in (0, 1):
        out = tinygpt.generate(params, prompt, 5, temperature=temperature, seed=seed)
        print(f"T = {temperature:4}，种子 {seed}：  ", tinygpt.spell(out))     # [zh]
        print(f"T = {temperature:4}, seed {seed}: ", tinygpt.spell(out))      # [en]
