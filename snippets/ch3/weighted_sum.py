from attnkit import toy

for key in ["cat-ball-hungry", "cat-ball-fun"]:
    r = toy.attend(toy.SENTENCES[key].text, "zh")
    step1 = r.steps[0]
    clue = r.tokens[-1]                            # 饿了 / 好玩, the last word
    i, j = r.index("它"), r.index(clue)
    print(f"{clue}: k = {step1.k[j]}   v = {step1.v[j].astype(int)}")
    print(f"  它 gives {clue} weight {step1.weights[i, j]:.3f}")
    print(f"  它 out = weights @ v =", step1.out[i].round(3))   # (n,) @ (n, 10) -> (10,)
print("features:", toy.FEATURES)
