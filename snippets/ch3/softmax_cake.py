import numpy as np
from attnkit import softmax
from attnkit.text import pad

scores = np.array([5.0, 2.0, 0.0])        # (3,) 每位朋友一个分数 [zh]
scores = np.array([5.0, 2.0, 0.0])        # (3,) one score per friend [en]

e = np.exp(scores)                         # (3,) 先取 e 的分数次方 [zh]
total = e.sum()                            # ()   再加起来 [zh]
weights = e / total                        # (3,) 最后看各占总数的多少 [zh]
e = np.exp(scores)                         # (3,) first, e to the power of each score [en]
total = e.sum()                            # ()   then add them up [en]
weights = e / total                        # (3,) last, each one's share of the total [en]

print(pad("e^s", 16), "=", e.round(3))
print(pad("总和", 16), "=", total.round(3))                                   # [zh]
print(pad("权重", 16), "=", weights.round(4))                                 # [zh]
print(pad("softmax", 16), "=", softmax(scores).round(4), "（attnkit 算出的一样）")  # [zh]
print(pad("权重之和", 16), "=", weights.sum())                                # [zh]
print(pad("第 1 / 第 2", 16), "=", (weights[0] / weights[1]).round(3), "= e^3 =", np.exp(3).round(3))  # [zh]
print(pad("直接按分数比例分", 16), "=", (scores / scores.sum()).round(4), "（对照）")  # [zh]
print(pad("sum", 16), "=", total.round(3))  # [en]
print(pad("weights", 16), "=", weights.round(4))  # [en]
print(pad("softmax", 16), "=", softmax(scores).round(4), "(attnkit gives the same)")  # [en]
print(pad("sum of weights", 16), "=", weights.sum())  # [en]
print(pad("ratio 1st/2nd", 16), "=", (weights[0] / weights[1]).round(3), "= e^3 =", np.exp(3).round(3))  # [en]
print(pad("divide by sum", 16), "=", (scores / scores.sum()).round(4), "(for comparison)")  # [en]
