from attnkit.block import HEAD_NAMES, story

# Step 3: three heads read the same sentence; each row of weights sums to 1.
s = story("zh")
for h, name in enumerate(HEAD_NAMES["en"]):
    print(f"head {h} ({name})")
    for token in ("她", "递", "小红"):
        row = s.row(token, h)           # (n,)
        best = s.top(token, h)
        print(f"  {token}: top {best} {row.max():.3f}   sum {row.sum():.3f}")
print("\nweights shape (n_heads, n, n):", s.weights.shape)
print("output of the three heads, W_O applied:", s.attn.shape)  # (n, d_model)
