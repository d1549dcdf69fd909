import numpy as np

a = np.array([3.0, 4.0])
b = np.array([1.0, 2.0])

dot = a @ b                                      # 3*1 + 4*2
len_a, len_b = np.linalg.norm(a), np.linalg.norm(b)
cos = dot / (len_a * len_b)
print("a . b =", dot)
print("|a| =", len_a.round(3), " |b| =", len_b.round(3))
print("余弦 =", cos.round(4), " 夹角 =", np.degrees(np.arccos(cos)).round(2), "度")  # [zh]
print("cos(a, b) =", cos.round(4), " angle =", np.degrees(np.arccos(cos)).round(2), "degrees")  # [en]

# 把 b 拉长，方向不变 [zh]
# make b longer, same direction [en]
for scale in [2, 10]:
    c = scale * b
    print(f"b x {scale}：点积 = {a @ c:.1f}，余弦 = {a @ c / (len_a * np.linalg.norm(c)):.4f}")  # [zh]
    print(f"b x {scale}: dot = {a @ c:.1f}, cosine = {a @ c / (len_a * np.linalg.norm(c)):.4f}")  # [en]
print("a . [4, -3] =", a @ np.array([4.0, -3.0]), "（垂直）")  # [zh]
print("a . [-3, -4] =", a @ np.array([-3.0, -4.0]), "（相反）")  # [zh]
print("a . [4, -3] =", a @ np.array([4.0, -3.0]), "(perpendicular)")  # [en]
print("a . [-3, -4] =", a @ np.array([-3.0, -4.0]), "(opposite)")  # [en]
