from attnkit import toy

keys, pronoun = ["cat-ball-hungry", "cat-ball-fun"], "它"                # [zh]
keys, pronoun = ["animal-street-tired", "animal-street-wide"], "it"      # [en]
for key in keys:
    r = toy.run(key)
    step1 = r.steps[0]
    clue = r.tokens[-1]                            # 饿了 / 好玩：最后一个词 [zh]
    clue = r.tokens[-1]                            # tired / wide, the last word [en]
    i, j = r.index(pronoun), r.index(clue)
    print(f"{clue}：k = {step1.k[j]}   v = {step1.v[j].astype(int)}")  # [zh]
    print(f"{clue}: k = {step1.k[j]}   v = {step1.v[j].astype(int)}")  # [en]
    print(f"  {pronoun} 给 {clue} 的权重 {step1.weights[i, j]:.3f}")  # [zh]
    print(f"  {pronoun} 的输出（各词的 v 按权重相加）=", step1.out[i].round(3))   # (n,) @ (n, 10) -> (10,) [zh]
    print(f"  {pronoun} gives {clue} weight {step1.weights[i, j]:.3f}")  # [en]
    print(f"  {pronoun} out = weights @ v =", step1.out[i].round(3))   # (n,) @ (n, 10) -> (10,) [en]
print("特征：", toy.FEATURE_NAMES["zh"])      # [zh]
print("features:", toy.FEATURE_NAMES["en"])  # [en]
