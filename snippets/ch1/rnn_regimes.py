import numpy as np
from attnkit.rnn import (clip_by_norm, decay_curves, first_token_jacobians,
                         init_rnn, random_tokens)
from attnkit.text import pad, row, sci

# 每种权重尺度 20 个随机小 RNN，取中位数 [zh]
# 20 random tiny RNNs per weight scale; take the median [en]
cols = [5, 13, 13, 13, 16]
print(row(["尺度", "t=1", "t=10", "t=40", "平均每步乘以"], cols))  # [zh]
print(row(["scale", "t=1", "t=10", "t=40", "x per step"], cols))  # [en]
for scale in [0.5, 1.0, 3.0]:
    g = np.median(decay_curves(40, w_scale=scale), axis=0)  # (40,) ||dh_t/dx_1||
    per_step = (g[-1] / g[0]) ** (1 / 39)           # 每步乘以几：39 步的几何平均 [zh]
    per_step = (g[-1] / g[0]) ** (1 / 39)           # geometric mean per step [en]
    print(row([f"{scale:.1f}", sci(g[0]), sci(g[9]), sci(g[39]), f"{per_step:.2f}"], cols))  # [zh]
    print(row([f"{scale:.1f}", f"{g[0]:.2e}", f"{g[9]:.2e}", f"{g[39]:.2e}", f"{per_step:.2f}"], cols))  # [en]

# 尺度 3：误差信号传回第 1 个词时被放得很大 [zh]
# scale 3: the error signal reaching word 1 is blown up [en]
w = init_rnn(8, 16, w_scale=3.0, seed=0)       # (8, 16), (16, 16), (16,)
x = random_tokens(40, 8, seed=1)               # (40, 8)
jac = first_token_jacobians(x, *w)             # (40, 16, 8) dh_t/dx_1
grad = jac[-1].T @ np.ones(16)                 # (8, 16) @ (16,) -> (8,)
clipped = clip_by_norm(grad, 1.0)              # (8,) 长度最多为 1 [zh]
clipped = clip_by_norm(grad, 1.0)              # (8,) length at most 1 [en]
cos = grad @ clipped / (np.linalg.norm(grad) * np.linalg.norm(clipped))
before = "裁剪前长度："  # [zh]
before = "length before clipping:"  # [en]
after = "裁剪后长度："  # [zh]
after = "length after clipping:"  # [en]
same = "方向（余弦）："  # [zh]
same = "direction (cosine):"  # [en]
print()
print(pad(before, 24), f"{np.linalg.norm(grad):.2f}")
print(pad(after, 24), f"{np.linalg.norm(clipped):.2f}")
print(pad(same, 24), f"{cos:.3f}")
