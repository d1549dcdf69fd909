import numpy as np
from attnkit.rnn import (first_token_change, first_token_influence,
                         influence_on_last, init_rnn, random_tokens,
                         rnn_forward, tanh_slopes)
from attnkit.text import pad, row, sci

n, d_in, d_h = 40, 8, 16           # 40 个词元，每个 8 个数；记忆 16 个数 [zh]
n, d_in, d_h = 40, 8, 16           # 40 tokens of 8 numbers; memory 16 [en]
w_x, w_h, b = init_rnn(d_in, d_h, w_scale=1.0, seed=0)
                                   # (8, 16), (16, 16), (16,)
x = random_tokens(n, d_in, seed=1)             # (40, 8)

h = rnn_forward(x, w_x, w_h, b)                # (40, 16)
print("x:", x.shape, " h:", h.shape)

g = first_token_influence(x, w_x, w_h, b)      # (40,) ||dh_t/dx_1||
other = random_tokens(1, d_in, seed=99)[0]     # (8,) 换一个第 1 个词 [zh]
other = random_tokens(1, d_in, seed=99)[0]     # (8,) another first word [en]
moved = first_token_change(x, other, w_x, w_h, b)  # (40,) ||h_t'-h_t||

cols = [3, 16, 30]
print(row(["t", "||dh_t/dx_1||", "换掉第 1 个词后 h_t 的变化"], cols))  # [zh]
print(row(["t", "||dh_t/dx_1||", "swap word 1: change of h_t"], cols))  # [en]
for t in [1, 2, 5, 10, 20, 30, 40]:
    print(row([t, sci(g[t - 1]), sci(moved[t - 1])], cols))  # [zh]
    print(row([t, f"{g[t - 1]:.2e}", f"{moved[t - 1]:.2e}"], cols))  # [en]

last = influence_on_last(x, w_x, w_h, b)       # (40,) ||dh_40/dx_s||
print(f"到第 40 个词：最新的词 {sci(last[-1])}，第 1 个词 {sci(last[0])}")  # [zh]
print(f"at word 40: newest word {last[-1]:.2e}  word 1 {last[0]:.2e}")  # [en]

slope = tanh_slopes(x, w_x, w_h, b)            # (40, 16) 1 - h_t^2
shrink = (g[-1] / g[0]) ** (1 / (n - 1))       # 每步的几何平均 [zh]
shrink = (g[-1] / g[0]) ** (1 / (n - 1))       # geometric mean per step [en]
stretch = np.linalg.norm(w_h, 2)               # 最大奇异值 [zh]
stretch = np.linalg.norm(w_h, 2)               # largest singular value [en]
print(pad("||w_h||（一步最多拉长几倍）：", 30), f"{stretch:.2f}")  # [zh]
print(pad("tanh 的平均斜率 1 - h^2：", 30), f"{slope.mean():.2f}")  # [zh]
print(pad("每步平均缩小到：", 30), f"{shrink:.2f}")  # [zh]
print(f"||w_h|| (most one step can stretch): {stretch:.2f}")  # [en]
print(f"average tanh slope 1 - h^2:          {slope.mean():.2f}")  # [en]
print(f"average shrink per step:             {shrink:.2f}")  # [en]
