import numpy as np
from attnkit.rope import EXAMPLE_Q, EXAMPLE_K
from attnkit.rope import offset_spread, rope, rope_score_table
from attnkit.text import sci

q = np.array(EXAMPLE_Q)                  # (8,) 一个查询，4 对数 [zh]
q = np.array(EXAMPLE_Q)                  # (8,) one query, 4 pairs [en]
k = np.array(EXAMPLE_K)                  # (8,) 一个键 [zh]
k = np.array(EXAMPLE_K)                  # (8,) one key [en]


def score(i, j):
    # q 放在位置 i、k 放在位置 j，各自转过之后的点积 [zh]
    # q turned for position i, k for position j, then their dot product [en]
    q_i = rope(q[None], positions=[i])[0]   # (8,)
    k_j = rope(k[None], positions=[j])[0]   # (8,)
    return q_i @ k_j


for i, j in [(5, 2), (12, 9), (30, 27), (1000, 997)]:
    print(f"i = {i:4d}, j = {j:4d}, i - j = {i - j}：分数 {score(i, j):.6f}")  # [zh]
    print(f"i = {i:4d}, j = {j:4d}, i - j = {i - j}: score {score(i, j):.6f}")  # [en]
print(f"i =    5, j =    4, i - j = 1：分数 {score(5, 4):.6f}")  # [zh]
print(f"i =    5, j =    4, i - j = 1: score {score(5, 4):.6f}")  # [en]

table = rope_score_table(q, k, 64)       # (64, 64)，table[i, j] = score(i, j) [zh]
table = rope_score_table(q, k, 64)       # (64, 64), table[i, j] = score(i, j) [en]
print("同一条对角线上最大的差：", sci(offset_spread(table), 1))  # [zh]
print("largest gap along any diagonal:", sci(offset_spread(table), 1))  # [en]
