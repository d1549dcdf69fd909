from attnkit.block import HEAD_NAMES, story

# Step 3: three heads read the same sentence; each row of weights sums to 1.
for lang, words in (("zh", ("她", "递", "小红")), ("en", ("she", "handed", "mary"))):
    s = story(lang)
    for h, name in enumerate(HEAD_NAMES["en"]):
        tops = []
        for token in words:
            row = s.row(token, h)       # (n,)
            best = "all evenly" if row.max() - row.min() < 1e-12 else s.top(token, h)
            tops.append(f"{token} -> {best} {row.max():.3f}")
        print(f"head {h} ({name}): " + ", ".join(tops))
    print("row sums:", s.weights.sum(axis=-1).min().round(6), "to", s.weights.sum(axis=-1).max().round(6))
    print()
print("weights shape (n_heads, n, n):", s.weights.shape)
print("output of the three heads, W_O applied:", s.attn.shape)  # (n, d_model)
