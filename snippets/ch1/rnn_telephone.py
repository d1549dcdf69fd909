import numpy as np
from attnkit.rnn import (first_token_change, first_token_influence, influence_on_last,
                         init_rnn, random_tokens, rnn_forward, tanh_slopes)

n, d_in, d_h = 40, 8, 16                       # 40 tokens, 8 numbers per token, 16 of memory
w_x, w_h, b = init_rnn(d_in, d_h, w_scale=1.0, seed=0)   # (8, 16), (16, 16), (16,)
x = random_tokens(n, d_in, seed=1)             # (40, 8) one row per token, read left to right

h = rnn_forward(x, w_x, w_h, b)                # (40, 16) h[t] = tanh(x[t] @ w_x + h[t-1] @ w_h + b)
print("x:", x.shape, " h:", h.shape)

g = first_token_influence(x, w_x, w_h, b)      # (40,) ||dh_t/dx_1||, exact chain rule
other = random_tokens(1, d_in, seed=99)[0]     # (8,) a different first word
moved = first_token_change(x, other, w_x, w_h, b)   # (40,) ||h_t(new) - h_t(old)||

print(" t   ||dh_t/dx_1||   swap word 1: ||change of h_t||")
for t in [1, 2, 5, 10, 20, 30, 40]:
    print(f"{t:2d}   {g[t - 1]:12.2e}   {moved[t - 1]:12.2e}")

last = influence_on_last(x, w_x, w_h, b)       # (40,) ||dh_40/dx_s|| for every word s
print("at word 40: newest word", f"{last[-1]:.2e}", " word 1", f"{last[0]:.2e}")

print("||w_h|| (largest stretch of one step):", f"{np.linalg.norm(w_h, 2):.2f}")
print("average tanh slope 1 - h^2:           ", f"{tanh_slopes(x, w_x, w_h, b).mean():.2f}")
print("average shrink per step:              ", f"{(g[-1] / g[0]) ** (1 / (n - 1)):.2f}")
