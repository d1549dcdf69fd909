import numpy as np
from attnkit import softmax

scores = np.array([5.0, 2.0, 0.0])        # (3,) one score per friend

e = np.exp(scores)                         # (3,) step 1: e to the power of each score
total = e.sum()                            # ()   step 2: add them up
weights = e / total                        # (3,) step 3: each share of the total

print("e^s     =", e.round(3))
print("sum     =", total.round(3))
print("weights =", weights.round(4))
print("softmax =", softmax(scores).round(4), "(attnkit gives the same)")
print("sum of weights =", weights.sum())
print("ratio 1st/2nd  =", (weights[0] / weights[1]).round(3), "= e^3 =", np.exp(3).round(3))
print("divide by sum  =", (scores / scores.sum()).round(4), "(for comparison)")
