import numpy as np
from attnkit import toy

tokens = ["它", "饿了", "小猫"]
x = toy.embed(tokens, "zh")                    # (3, d_model=10): one row per word
print("features:", toy.FEATURES)
for t, row in zip(tokens, x):
    print(f"  x[{t}] =", row.astype(int))

print("\nW_Q1 (non-zero rows)\n" + toy.matrix_table(toy.W_Q1, toy.STEP_SLOTS[1]))
print("\nW_K1 (non-zero rows)\n" + toy.matrix_table(toy.W_K1, toy.STEP_SLOTS[1]))

q = x @ toy.W_Q1                              # (3, 10) @ (10, 2) -> (3, 2)
k = x @ toy.W_K1                              # (3, 10) @ (10, 2) -> (3, 2)
v = x @ toy.W_V1                              # (3, 10) @ (10, 10) -> (3, 10)
for t, qi, ki, vi in zip(tokens, q, k, v):
    print(f"{t}: q = {qi}  k = {ki}  v = {vi.astype(int)}")
