from attnkit.story import HEAD_NAMES, story
from attnkit.core import spread_evenly

# 第 3 幕：三个头读同一句话；每一行权重加起来都是 1。 [zh]
# Step 3: three heads read the same sentence; each row of weights sums to 1. [en]
lang, words = "zh", ("她", "递", "小红")          # [zh]
lang, words = "en", ("she", "handed", "mary")     # [en]
s = story(lang)
for h, name in enumerate(HEAD_NAMES[lang]):
    tops = []
    for token in words:
        row = s.row(token, h)       # (n,)
        # 没有哪个词拿到平均份额的两倍：均匀分散 [zh]
        # no word gets twice an even share: spread evenly [en]
        if spread_evenly(row):
            tops.append(f"{token} -> 均匀分散（每个 {row.max():.3f}）")  # [zh]
            tops.append(f"{token} -> spread evenly ({row.max():.3f} each)")  # [en]
        else:
            tops.append(f"{token} -> {s.top(token, h)} {row.max():.3f}")
    print(f"头 {h + 1}（{name}）：" + "，".join(tops))  # [zh]
    print(f"head {h + 1} ({name}): " + ", ".join(tops))  # [en]
sums = s.weights.sum(axis=-1)       # (n_heads, n)
print("每行之和：", sums.min().round(6), "到", sums.max().round(6))  # [zh]
print("权重的形状 (头数, n, n)：", s.weights.shape)  # [zh]
print("三个头的输出，乘上 W_O 之后：", s.attn.shape)  # (n, d_model) [zh]
print("row sums:", sums.min().round(6), "to", sums.max().round(6))  # [en]
print("weights shape (n_heads, n, n):", s.weights.shape)  # [en]
print("output of the three heads, W_O applied:", s.attn.shape)  # (n, d_model) [en]
