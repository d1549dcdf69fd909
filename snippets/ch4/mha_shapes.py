import numpy as np
from attnkit import merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads

n, d_model, h = 4, 512, 8                     # 4 tokens, the paper's sizes
d_head = d_model // h                         # 64 columns per head
rng = np.random.default_rng(0)
x = rng.normal(size=(n, d_model))
w_q, w_k, w_v, w_o = rng.normal(0, d_model**-0.5, size=(4, d_model, d_model))

q, k, v = x @ w_q, x @ w_k, x @ w_v           # (4, 512) @ (512, 512) -> (4, 512)
print("1 project   Q, K, V:", q.shape)
q_h, k_h, v_h = (split_heads(a, h) for a in (q, k, v))
print("2 split     per head:", q_h.shape, "= (heads, n, d_head)")
heads, weights = scaled_dot_product_attention(q_h, k_h, v_h)
print("3 attend    weights:", weights.shape, " outputs:", heads.shape)
concat = merge_heads(heads)                   # (8, 4, 64) -> (4, 512)
print("4 concat    ", concat.shape)
out = concat @ w_o                            # (4, 512) @ (512, 512) -> (4, 512)
print("5 W_O       ", out.shape)

same, _ = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=h)
print("same as multi_head_attention:", np.allclose(out, same))
print("head 1 uses columns 0..63 of Q:", np.array_equal(q_h[0], q[:, :d_head]))
row = weights[:, 0].round(2)                  # token 1's weights in every head
print("token 1 looks differently in each head (first 3 heads):")
print(row[:3])
