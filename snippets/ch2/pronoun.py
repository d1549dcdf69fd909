from attnkit import toy

# The pronoun's attention weights after the toy model's two steps, for four sentences.
for key in ["cat-ball-hungry", "cat-ball-fun", "animal-street-tired", "animal-street-wide"]:
    example = toy.SENTENCES[key]
    r = toy.attend(example.text, example.lang)     # r.weights: (n, n), one row per token
    row = r.row(example.focus)                      # (n,) where the pronoun looks
    print(example.text)
    print("  " + "  ".join(f"{t} {w:.0%}" for t, w in zip(r.tokens, row)))
    print(f"  -> {example.focus} looks most at: {r.top(example.focus)}")
