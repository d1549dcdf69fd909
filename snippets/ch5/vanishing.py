import numpy as np
from attnkit.cost import attention_influence_on_last, init_attention
from attnkit.rnn import influence_on_last, init_rnn, random_tokens
from attnkit.text import pad, sci

n, d = 40, 8
x = random_tokens(n, d, seed=1)                           # (40, 8)
rnn = influence_on_last(x, *init_rnn(d, d, seed=0))       # (40,) ||dh_n / dx_s||
att = attention_influence_on_last(x, *init_attention(d, seed=0))   # (40,) ||d out_n / dx_s||

header = ["词元", "距离", "RNN", "注意力"]             # [zh]
header = ["token", "distance", "RNN", "attention"]    # [en]
cols = [6, 10, 11, 11]
print("".join(pad(h, c, ">") for h, c in zip(header, cols)))
for s in (39, 38, 35, 30, 20, 10, 0):
    row = [s + 1, n - 1 - s, sci(rnn[s], 1), sci(att[s], 1)]
    print("".join(pad(v, c, ">") for v, c in zip(row, cols)))
print("RNN：词元 1 / 词元 40 =", sci(rnn[0] / rnn[-1], 1))  # [zh]
print("注意力：词元 1 / 词元 40 =", sci(att[0] / att[-1], 1))  # [zh]
print("RNN: token 1 / token 40 =", sci(rnn[0] / rnn[-1], 1))  # [en]
print("attention: token 1 / token 40 =", sci(att[0] / att[-1], 1))  # [en]
