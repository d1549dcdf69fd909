from attnkit.block import FEATURE_NAMES, layer_norm, residual, story, story_table

# Steps 4 and 5: residual + layer norm, the FFN, residual + layer norm again.
s = story("zh")
she = s.index("她")
names = FEATURE_NAMES["en"]
features = [names.index(f) for f in ("person", "female", "male", "pronoun", "hungry", "eater")]
cols = [names[f] for f in features]
rows = [s.x[she], s.attn[she], residual(s.x, s.attn)[she], s.h[she], s.ffn[she], s.y[she]]
stages = ["x", "attn", "x+attn", "h=LN", "ffn", "y=LN"]
print("她, stage by stage (6 of the 12 columns):")
print(story_table([r[features] for r in rows], stages, cols))
print("\nh row: mean %.3f, std %.3f" % (s.h[she].mean(), s.h[she].std()))
print("FFN unit 'eater' = relu(person + pronoun + hungry - 2.5), per token:")
for token, v in zip(s.tokens, s.hidden[:, 0]):
    print(f"  {token}: {v:.3f}")
print("fires on:", s.eaters(), "| in English:", story("en").eaters())
assert (layer_norm(residual(s.h, s.ffn)) == s.y).all()
