import numpy as np
from attnkit import toy

# 只开一轮注意力，矩阵随便取：试三组随机矩阵。 [zh]
# ONE round of attention, with any matrices at all: try three random sets. [en]
keys, words = ["cat-ball-hungry", "cat-ball-fun"], ("它", "小猫", "球")           # [zh]
keys, words = ["animal-street-tired", "animal-street-wide"], ("it", "animal", "street")  # [en]
pronoun, a, b = words
clues = [toy.run(key).tokens[-1] for key in keys]          # 饿了 / 好玩 [zh]
clues = [toy.run(key).tokens[-1] for key in keys]          # tired / wide [en]
rng = np.random.default_rng(0)
d = len(toy.FEATURES)
for trial in range(1, 4):
    w_q, w_k, w_v = rng.normal(size=(d, 2)), rng.normal(size=(d, 2)), rng.normal(size=(d, d))
    ratios = []
    for key in keys:
        r = toy.run(key)
        step = toy.attention_step(r.x, w_q, w_k, w_v)          # 在词向量上只开一轮 [zh]
        step = toy.attention_step(r.x, w_q, w_k, w_v)          # one round on the embeddings [en]
        i, ia, ib = r.index(pronoun), r.index(a), r.index(b)
        ratios.append(step.weights[i, ia] / step.weights[i, ib])
    print(f"随机矩阵 {trial}：权重({a}) / 权重({b}) = {ratios[0]:.4f}（{clues[0]}），{ratios[1]:.4f}（{clues[1]}）")  # [zh]
    print(f"random matrices {trial}: weight({a}) / weight({b}) = {ratios[0]:.4f} ({clues[0]}), {ratios[1]:.4f} ({clues[1]})")  # [en]

# 第 2 轮的矩阵直接用在词向量上（跳过第 1 轮）：代词身上还没有任何要求。 [zh]
# The toy's round-2 matrices straight on the embeddings (no round 1): the pronoun carries no need yet. [en]
r = toy.run(keys[0])
skip = toy.attention_step(r.x, *toy.STEPS[2])
i = r.index(pronoun)
print(f"跳过第 1 轮：q[{pronoun}] =", skip.q[i], f" {pronoun} 的权重 =", skip.weights[i].round(3))  # [zh]
print(f"round 2 without round 1: q[{pronoun}] =", skip.q[i], f" weights of {pronoun} =", skip.weights[i].round(3))  # [en]
