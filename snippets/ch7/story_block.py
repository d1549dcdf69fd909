from attnkit.layers import layer_norm, residual
from attnkit.story import FEATURE_NAMES, FEATURES, story, story_table

# 第 4、5 幕：残差 + 层归一化，前馈网络，再残差 + 层归一化。 [zh]
# Steps 4 and 5: residual + layer norm, the FFN, residual + layer norm again. [en]
lang, she = "zh", "她"   # [zh]
lang, she = "en", "she"  # [en]
s = story(lang)
i = s.index(she)
features = [FEATURES.index(f) for f in ("person", "female", "male", "pronoun", "hungry", "eater")]
cols = [FEATURE_NAMES[lang][f] for f in features]
rows = [s.x[i], s.attn[i], residual(s.x, s.attn)[i], s.h[i], s.ffn[i], s.y[i]]
stages = ["输入 x", "注意力", "x + 注意力", "h = 层归一化", "前馈网络", "y = 层归一化"]   # [zh]
stages = ["x", "attn", "x+attn", "h=LN", "ffn", "y=LN"]                                # [en]
print(f"{she}，一个阶段一个阶段地看（12 列里的 6 列）：")  # [zh]
print(f"{she}, stage by stage (6 of the 12 columns):")  # [en]
print(story_table([r[features] for r in rows], stages, cols))
print(f"\nh 这一行：均值 {s.h[i].mean():.3f}，标准差 {s.h[i].std():.3f}")  # [zh]
print("前馈网络的单元“吃的人” = relu(人 + 代词 + 饿 - 2.5)，逐个词元：")  # [zh]
print(f"\nh row: mean {s.h[i].mean():.3f}, std {s.h[i].std():.3f}")  # [en]
print("FFN unit 'eater' = relu(person + pronoun + hungry - 2.5), per token:")  # [en]
for token, v in zip(s.tokens, s.hidden[:, 0]):
    print(f"  {token}：{v:.3f}")  # [zh]
    print(f"  {token}: {v:.3f}")  # [en]
print("点亮的词元：", s.eaters())  # [zh]
print("fires on:", s.eaters())    # [en]
assert (layer_norm(residual(s.h, s.ffn)) == s.y).all()
