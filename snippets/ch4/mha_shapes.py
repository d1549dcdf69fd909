import numpy as np
from attnkit import merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads

n, d_model, h = 4, 512, 8                     # 4 个词元，论文里的尺寸 [zh]
d_head = d_model // h                         # 每个头 64 列 [zh]
n, d_model, h = 4, 512, 8                     # 4 tokens, the paper's sizes [en]
d_head = d_model // h                         # 64 columns per head [en]
rng = np.random.default_rng(0)
x = rng.normal(size=(n, d_model))
w_q, w_k, w_v, w_o = rng.normal(0, d_model**-0.5, size=(4, d_model, d_model))

q, k, v = x @ w_q, x @ w_k, x @ w_v           # (4, 512) @ (512, 512) -> (4, 512)
print("1 投影      Q、K、V：", q.shape)  # [zh]
print("1 project   Q, K, V:", q.shape)  # [en]
q_h, k_h, v_h = (split_heads(a, h) for a in (q, k, v))
print("2 拆分      每个头：", q_h.shape, "=（头数, n, d_head）")  # [zh]
print("2 split     per head:", q_h.shape, "= (heads, n, d_head)")  # [en]
heads, weights = scaled_dot_product_attention(q_h, k_h, v_h)
print("3 注意力    权重：", weights.shape, " 输出：", heads.shape)  # [zh]
print("3 attend    weights:", weights.shape, " outputs:", heads.shape)  # [en]
concat = merge_heads(heads)                   # (8, 4, 64) -> (4, 512)
print("4 拼接      ", concat.shape)  # [zh]
print("4 concat    ", concat.shape)  # [en]
out = concat @ w_o                            # (4, 512) @ (512, 512) -> (4, 512)
print("5 W_O       ", out.shape)

same, _ = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=h)
print("和 multi_head_attention 一样：", np.allclose(out, same))  # [zh]
print("头 1 用的是 Q 的第 1 到 64 列：", np.array_equal(q_h[0], q[:, :d_head]))  # [zh]
print("same as multi_head_attention:", np.allclose(out, same))  # [en]
print("head 1 uses columns 1 to 64 of Q:", np.array_equal(q_h[0], q[:, :d_head]))  # [en]
row = weights[:, 0].round(2)                  # (h, n)
print("词元 1 在每个头里看的地方都不一样（前 3 个头）：")  # [zh]
print("token 1 looks differently in each head (first 3 heads):")  # [en]
print(row[:3])
