import numpy as np

from attnkit.story import D_HEAD, story, story_weights
from attnkit.text import pad

# 第 2 幕：“她”在头 1（“她是谁”）里给每个词打的分。 [zh]
# Step 2: how "she" scores every word in head 1, "who is she?". [en]
lang, she = "zh", "她"   # [zh]
lang, she = "en", "she"  # [en]
s = story(lang)
i = s.index(she)
q = s.q[0, i]                       # (d_head,) 头 1 里她的查询 [zh]
q = s.q[0, i]                       # (d_head,) her query in head 1 [en]
scores = s.k[0] @ q                 # (n, d_head) @ (d_head,) -> (n,)
scaled = scores / np.sqrt(D_HEAD)   # (n,)
weights = np.exp(scaled) / np.exp(scaled).sum()
assert np.allclose(weights, s.weights[0, i])  # = multi_head_attention
print(f"{she}：查询 {q}")  # [zh]
header = ["词元", "q·k", "除以 √4", "权重"]  # [zh]
print(f"{she}: query {q}")  # [en]
header = ["token", "q.k", "/sqrt(4)", "weight"]  # [en]
cols = [9, 6, 10, 8]
print("".join(pad(h, c, ">") for h, c in zip(header, cols)))
for token, sc, sd, w in zip(s.tokens, scores, scaled, weights):
    row = [token, f"{sc:.1f}", f"{sd:.2f}", f"{w:.3f}"]
    print("".join(pad(v, c, ">") for v, c in zip(row, cols)))
print()
print("提问力度（W_Q 里的一个数）：", story_weights()["w_q"].max())  # [zh]
print("strength of a query (an entry of W_Q):", story_weights()["w_q"].max())  # [en]
