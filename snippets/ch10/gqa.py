import numpy as np

from attnkit import causal_mask, multi_head_attention
from attnkit.grouped import grouped_query_attention, repeat_kv
from attnkit.text import sci

rng = np.random.default_rng(0)
n, d_model, n_heads, d_head = 5, 16, 4, 4
x = rng.normal(size=(n, d_model))                                   # (n, d_model)
w_q, w_o = rng.normal(size=(2, d_model, n_heads * d_head))          # 2 × (16, 16)

# 每个查询头读哪个键/值头：h // (n_heads / n_kv_heads) [zh]
# which key/value head each query head reads: h // (n_heads / n_kv_heads) [en]
for n_kv in (4, 2, 1):
    # 第 g 个键/值头里放的就是数 g：看每个查询头拿到哪一个 [zh]
    # key/value head g holds the number g: see which one each query head gets [en]
    kv = np.arange(n_kv, dtype=float).reshape(n_kv, 1, 1)           # (n_kv, 1, 1)
    read = repeat_kv(kv, n_heads // n_kv).ravel().astype(int)       # (n_heads,)
    print(f"n_kv_heads = {n_kv}：查询头 1-4 读键/值头 {(read + 1).tolist()}")  # [zh]
    print(f"n_kv_heads = {n_kv}: query heads 1-4 read kv heads {(read + 1).tolist()}")  # [en]

# n_kv_heads = n_heads：和第 4 章的多头注意力是同一个东西 [zh]
# n_kv_heads = n_heads: the very multi-head attention of chapter 4 [en]
w_k, w_v = rng.normal(size=(2, d_model, n_heads * d_head))          # 2 × (16, 16)
gqa, _ = grouped_query_attention(x, w_q, w_k, w_v, w_o, n_heads, 4, causal_mask(n))
mha, _ = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal_mask(n))
print("GQA(n_kv_heads = 4) 和 MHA 的最大差距：", sci(np.abs(gqa - mha).max(), 1))    # [zh]
print("largest gap, GQA(n_kv_heads = 4) - MHA:", sci(np.abs(gqa - mha).max(), 1))  # [en]

# 每层每个词元缓存几个数：2 × n_kv_heads × d_head [zh]
# numbers cached per token per layer: 2 x n_kv_heads x d_head [en]
for n_kv in (4, 2, 1):
    print(f"n_kv_heads = {n_kv}：每个词元每层 {2 * n_kv * d_head} 个数")   # [zh]
    print(f"n_kv_heads = {n_kv}: {2 * n_kv * d_head} numbers a token in each layer")  # [en]
