import numpy as np
from attnkit import softmax
from attnkit.sinks import softmax_with_sink

dull = np.array([0.1, -0.2, 0.0, 0.2])          # (4,) 没有一个键特别合适 [zh]
dull = np.array([0.1, -0.2, 0.0, 0.2])          # (4,) no key fits well [en]
sharp = np.array([0.1, -0.2, 4.0, 0.2])         # (4,) 第 3 个键很合适 [zh]
sharp = np.array([0.1, -0.2, 4.0, 0.2])         # (4,) key 3 fits well [en]
sink = 2.0                                      # 这个头的汇 logit（训练学出来的一个数） [zh]
sink = 2.0                                      # this head's sink logit (one learned number) [en]

cases = [("平淡", dull), ("尖锐", sharp)]  # [zh]
cases = [("dull ", dull), ("sharp", sharp)]  # [en]
for name, scores in cases:
    plain = softmax(scores)                     # (4,) 合计 1 [zh]
    plain = softmax(scores)                     # (4,) sums to 1 [en]
    w = softmax_with_sink(scores, sink)         # (4,) 合计小于 1 [zh]
    w = softmax_with_sink(scores, sink)         # (4,) sums to less than 1 [en]
    print(f"{name}  普通 softmax {plain.round(3)}  合计 {plain.sum():.3f}")  # [zh]
    print(f"{name}  带汇 softmax {w.round(3)}  合计 {w.sum():.3f}")  # [zh]
    print(f"{name}  plain softmax {plain.round(3)}  sum {plain.sum():.3f}")  # [en]
    print(f"{name}  with the sink {w.round(3)}  sum {w.sum():.3f}")  # [en]
