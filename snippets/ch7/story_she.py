import numpy as np

from attnkit.block import D_HEAD, story, story_weights

# Step 2: how 她 (she) scores every word in head 0, "who is she?".
for lang, she in (("zh", "她"), ("en", "she")):
    s = story(lang)
    i = s.index(she)
    q = s.q[0, i]                       # (d_head,)    her query in head 0
    scores = s.k[0] @ q                 # (n, d_head) @ (d_head,) -> (n,)
    scaled = scores / np.sqrt(D_HEAD)   # (n,)
    weights = np.exp(scaled) / np.exp(scaled).sum()
    assert np.allclose(weights, s.weights[0, i])  # = multi_head_attention
    print(f"{she}: query {q}")
    print(f"{'token':>9} {'q.k':>5} {'/sqrt(4)':>9} {'weight':>7}")
    for token, sc, sd, w in zip(s.tokens, scores, scaled, weights):
        pad = 9 - (2 * len(token) if lang == "zh" else len(token))
        print(" " * pad + token, f"{sc:5.1f} {sd:9.2f} {w:7.3f}")
    print()
print("strength of a query (an entry of W_Q):", story_weights()["w_q"].max())
