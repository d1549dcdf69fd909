import numpy as np

from attnkit import causal_mask
from attnkit.mla import (init_mla, mha_cache_numbers, mla_attention,
                         mla_attention_absorbed, mla_latent)
from attnkit.text import sci

# 一层小小的 MLA：8 个头，潜向量只有 6 个数宽 [zh]
# one small MLA layer: 8 heads, a latent only 6 numbers wide [en]
w = init_mla(d_model=32, n_heads=8, kv_lora_rank=6, qk_nope_head_dim=4,
             qk_rope_head_dim=2, v_head_dim=4, q_lora_rank=12, seed=0)
x = np.random.default_rng(1).normal(size=(7, 32))                  # (n=7, d_model=32)

# 缓存里存的东西：每个词元一个潜向量，外加一个所有头共用的 RoPE 键 [zh]
# what the cache holds: a latent per token, plus one RoPE key shared by every head [en]
c, k_rope = mla_latent(x, w)                                        # (7, 6), (7, 2)
print("潜向量 c：", c.shape, " 共享的 RoPE 键：", k_rope.shape)       # [zh]
print("latent c:", c.shape, "  shared RoPE key:", k_rope.shape)     # [en]

# 常规算法：把潜向量展开成每个头的键和值 [zh]
# the plain way: expand the latent into every head's keys and values [en]
plain, _ = mla_attention(x, w, causal_mask(7))
# 吸收算法：直接对潜向量算注意力，从不展开 [zh]
# the absorbed way: attend to the latent itself, never expanding it [en]
absorbed, _ = mla_attention_absorbed(x, w, causal_mask(7))
print("两种算法的最大差距：", sci(np.abs(plain - absorbed).max(), 1))      # [zh]
print("largest gap between the two ways:", sci(np.abs(plain - absorbed).max(), 1))  # [en]

per_token = c.shape[-1] + k_rope.shape[-1]                          # d_c + d_rope
# 展开的话：8 个头，各有一个键（6 个数）和一个值（4 个数） [zh]
# expanded: 8 heads, each with a key of 6 numbers and a value of 4 [en]
expanded = mha_cache_numbers(8, 4 + 2, 4)
print(f"每个词元每层缓存 {per_token} 个数；展开成每个头的键和值要 {expanded} 个")   # [zh]
print(f"cached per token per layer: {per_token}; every head's keys and values: {expanded}")  # [en]
