from attnkit import toy

# 代词在两轮之后的注意力权重，四句话各算一遍。 [zh]
# The pronoun's attention weights after the toy model's two rounds, for four sentences. [en]
keys = ["cat-ball-hungry", "cat-ball-fun", "animal-street-tired", "animal-street-wide"]  # [zh]
keys = ["kitten-ball-hungry", "kitten-ball-shiny", "animal-street-tired", "animal-street-wide"]  # [en]
for key in keys:
    example = toy.SENTENCES[key]
    r = toy.attend(example.text, example.lang)     # r.weights: (n, n)
    row = r.row(example.focus)                      # (n,)
    print(example.text)
    print("  " + "  ".join(f"{t} {w:.0%}" for t, w in zip(r.tokens, row)))
    print(f"  -> {example.focus} 看得最多的是：{r.top(example.focus)}")  # [zh]
    print(f"  -> {example.focus} looks most at: {r.top(example.focus)}")  # [en]
