from attnkit import causal_mask, scaled_dot_product_attention
from attnkit.toy import run

r = run("cat-ball-hungry", steps=1)          # [zh]
word = "它"                                   # [zh]
r = run("animal-street-tired", steps=1)      # [en]
word = "it"                                  # [en]
step = r.steps[0]                            # 玩具模型的第一步 [zh]
step = r.steps[0]                            # the toy's first step [en]
n = len(r.tokens)
mask = causal_mask(n)                        # (n, n)
print(mask.astype(int))

_, w_all = scaled_dot_product_attention(step.q, step.k, step.v)              # (n, n)
_, w_past = scaled_dot_product_attention(step.q, step.k, step.v, mask=mask)  # (n, n)
i = r.index(word)
print()
print("   ".join(r.tokens))
print("看整句：  ", w_all[i].round(2))        # [zh]
print("只看前面：", w_past[i].round(2))       # [zh]
print("sees all:     ", w_all[i].round(2))   # [en]
print("earlier only: ", w_past[i].round(2))  # [en]
