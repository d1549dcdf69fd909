from attnkit import causal_mask, scaled_dot_product_attention
from attnkit.text import pad, width
from attnkit.toy import run

r = run("cat-ball-hungry", steps=1)          # [zh]
word = "它"                                   # [zh]
r = run("animal-street-tired", steps=1)      # [en]
word = "it"                                  # [en]
step = r.steps[0]                            # 玩具模型的第 1 轮 [zh]
step = r.steps[0]                            # the toy's round 1 [en]
n = len(r.tokens)
mask = causal_mask(n)                        # (n, n)
print(mask.astype(int))

_, w_all = scaled_dot_product_attention(step.q, step.k, step.v)              # (n, n)
_, w_past = scaled_dot_product_attention(step.q, step.k, step.v, mask=mask)  # (n, n)
i = r.index(word)
print()
rows = {"看整句": w_all[i], "只看前面": w_past[i]}           # “它”的一行权重 [zh]
rows = {"sees all": w_all[i], "earlier only": w_past[i]}   # the row of "it" [en]
cell = max(6, max(width(t) for t in r.tokens) + 1)
print(pad("", 14) + "".join(pad(t, cell, ">") for t in r.tokens))
for name, w in rows.items():                                 # w: (n,)
    print(pad(name, 14) + "".join(pad(f"{x:.2f}", cell, ">") for x in w))
