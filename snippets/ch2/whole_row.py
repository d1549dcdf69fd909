import numpy as np
from attnkit import toy

r = toy.attend("小猫追着球跑，因为它饿了", "zh")
print("tokens:", r.tokens)
print("in :", r.x.shape, " out:", r.x_next.shape)   # (n, d_model) in, (n, d_model) out

# One word at a time (a loop) gives exactly what all words at once (one matrix product) give.
step = r.steps[1]
one_by_one = np.stack([step.weights[i] @ step.v for i in range(len(r.tokens))])  # n x ((n,) @ (n, d))
print("loop == all at once:", np.allclose(one_by_one, step.weights @ step.v))

# Each output has seen the whole row: change only the LAST word, and the FIRST word's output moves.
other = toy.attend("小猫追着球跑，因为它很好玩", "zh")
first_a, first_b = r.x_next[0], other.x_next[0]     # (d_model,) the output of 小猫 in each sentence
print("小猫 out (饿了)  :", first_a.round(2))
print("小猫 out (很好玩):", first_b.round(2))
print("changed:", not np.allclose(first_a, first_b))
