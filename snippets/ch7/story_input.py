from attnkit.story import FEATURE_NAMES, STORY, story, story_table

# 第 1 幕：先切成词元，再给每个词元加上词向量和位置编码。 [zh]
# Step 1: tokens, then embedding + position for each of them. [en]
lang = "zh"  # [zh]
lang = "en"  # [en]
s = story(lang)
print(STORY[lang])
print(len(s.tokens), "个词元：", " | ".join(s.tokens))  # [zh]
print(len(s.tokens), "tokens:", " | ".join(s.tokens))  # [en]

names = FEATURE_NAMES[lang]
print("\nE：名片，x 的前 8 列")  # [zh]
print("\nE: the name tags, first 8 columns of x")   # [en]
print(story_table(s.e[:, :8], s.tokens, names, digits=0))           # (n, 8)
print("\nPE：座位号，x 的后 4 列")  # [zh]
print("\nPE: the seat numbers, last 4 columns of x")  # [en]
seats = [f"{p} {token}" for p, token in enumerate(s.tokens)]         # p = 0, 1, 2, ...
print(story_table(s.pe[:, 8:], seats, ["sin p", "cos p", "sin p/100", "cos p/100"]))  # (n, 4)
print("\nx = E + PE：", s.x.shape)                         # (n, d_model) = (10, 12) [zh]
print("\nx = E + PE:", s.x.shape)                          # (n, d_model) = (10, 12) [en]
