import numpy as np
from attnkit import toy
from attnkit.text import pad

lang, tokens = "zh", ["它", "饿了", "小猫"]          # [zh]
lang, tokens = "en", ["it", "tired", "animal"]      # [en]
x = toy.embed(tokens, lang)                    # (3, d_model=10)
print("特征：", toy.FEATURE_NAMES[lang])  # [zh]
print("features:", toy.FEATURE_NAMES[lang])  # [en]
for t, row in zip(tokens, x):
    print(" ", pad(f"x[{t}]", 10), "=", row.astype(int))

print("\nW_Q1（只列非零行）\n" + toy.matrix_table(toy.W_Q1, toy.SLOT_NAMES[lang][1], lang))  # [zh]
print("\nW_K1（只列非零行）\n" + toy.matrix_table(toy.W_K1, toy.SLOT_NAMES[lang][1], lang))  # [zh]
print("\nW_Q1 (non-zero rows)\n" + toy.matrix_table(toy.W_Q1, toy.SLOT_NAMES[lang][1], lang))  # [en]
print("\nW_K1 (non-zero rows)\n" + toy.matrix_table(toy.W_K1, toy.SLOT_NAMES[lang][1], lang))  # [en]

q = x @ toy.W_Q1                              # (3, 10) @ (10, 2) -> (3, 2)
k = x @ toy.W_K1                              # (3, 10) @ (10, 2) -> (3, 2)
v = x @ toy.W_V1                              # (3, 10) @ (10, 10) -> (3, 10)
print()
for t, qi, ki, vi in zip(tokens, q, k, v):
    print(pad(f"{t}：", 8), f"q = {qi}  k = {ki}  v = {vi.astype(int)}")  # [zh]
    print(pad(f"{t}:", 8), f"q = {qi}  k = {ki}  v = {vi.astype(int)}")  # [en]
