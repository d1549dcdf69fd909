import numpy as np

from attnkit import induction
from attnkit.copytask import spell

tokens, targets, repeated = induction.held_out()
for k in range(3):
    seq = np.append(tokens[k], targets[k, -1])                # 全部 n_ctx + 1 个词元 [zh]
    seq = np.append(tokens[k], targets[k, -1])                # all n_ctx + 1 tokens [en]
    guess = induction.induction_rule(tokens[k])               # 第 i 个位置对第 i+1 个词元的猜测 [zh]
    guess = induction.induction_rule(tokens[k])               # position i's guess for token i+1 [en]
    scored = "".join("^" if r else " " for r in repeated[k])
    print("序列    ", spell(seq))                             # [zh]
    print("规则猜测", " " + spell(guess))                     # [zh]
    print("计分位置", " " + scored)                           # [zh]
    print("sequence ", spell(seq))                            # [en]
    print("rule says", " " + spell(guess))                    # [en]
    print("scored   ", " " + scored)                          # [en]
