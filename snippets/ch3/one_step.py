import numpy as np
from attnkit import toy

# ONE attention step, with any matrices at all: try three random sets.
rng = np.random.default_rng(0)
d = len(toy.FEATURES)
for trial in range(3):
    w_q, w_k, w_v = rng.normal(size=(d, 2)), rng.normal(size=(d, 2)), rng.normal(size=(d, d))
    ratios = []
    for key in ["cat-ball-hungry", "cat-ball-fun"]:
        r = toy.run(key)
        step = toy.attention_step(r.x, w_q, w_k, w_v)          # one step on the embeddings
        i, cat, ball = r.index("它"), r.index("小猫"), r.index("球")
        ratios.append(step.weights[i, cat] / step.weights[i, ball])
    print(f"random matrices {trial}: weight(小猫) / weight(球) = {ratios[0]:.4f} (饿了), {ratios[1]:.4f} (很好玩)")

# The toy's step-2 matrices straight on the embeddings (no step 1): 它 carries no need yet.
r = toy.run("cat-ball-hungry")
skip = toy.attention_step(r.x, *toy.STEPS[2])
i = r.index("它")
print("step 2 without step 1: q[它] =", skip.q[i], " weights of 它 =", skip.weights[i].round(3))
