from attnkit import tinygpt

params, _ = tinygpt.trained(**tinygpt.BOOK)
tokens, _ = tinygpt.held_out(**tinygpt.BOOK)
prompt = tokens[0, :6]                              # the first half of a new sequence
print("prompt:        ", tinygpt.spell(prompt))
print("greedy (T = 0):", tinygpt.spell(tinygpt.generate(params, prompt, 5)))
for temperature in (1.0, 3.0, 10.0):
    for seed in (0, 1):
        out = tinygpt.generate(params, prompt, 5, temperature=temperature, seed=seed)
        print(f"T = {temperature:4}, seed {seed}:", tinygpt.spell(out))
