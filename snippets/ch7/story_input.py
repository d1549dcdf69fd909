from attnkit.block import FEATURE_NAMES, STORY, story

# Step 1: tokens, then embedding + position for each of them.
for lang in ("zh", "en"):
    s = story(lang)
    print(STORY[lang])
    print(len(s.tokens), "tokens:", " | ".join(s.tokens))

s = story("zh")
names = FEATURE_NAMES["en"]
print("\nE: the name cards, first 8 columns of x")
print(" " * 6 + "".join(f"{c:>8}" for c in names))
for token, row in zip(s.tokens, s.e[:, :8]):             # (n, 8)
    print(token + " " * (6 - 2 * len(token)) + "".join(f"{v:>8.0f}" for v in row))
print("\nPE: the seat numbers, last 4 columns of x")
print(" " * 10 + "".join(f"{c:>10}" for c in ("sin p", "cos p", "sin p/100", "cos p/100")))
for p, (token, row) in enumerate(zip(s.tokens, s.pe[:, 8:])):  # (n, 4)
    print(f"{p:>2} " + token + " " * (6 - 2 * len(token)) + "".join(f"{v:>10.2f}" for v in row))
print("\nx = E + PE:", s.x.shape)                          # (n, d_model) = (10, 12)
