import numpy as np

a = np.array([3.0, 4.0])
b = np.array([1.0, 2.0])

dot = a @ b                                      # 3*1 + 4*2
len_a, len_b = np.linalg.norm(a), np.linalg.norm(b)
cos = dot / (len_a * len_b)
print("a . b =", dot)
print("|a| =", len_a.round(3), " |b| =", len_b.round(3))
print("cos(a, b) =", cos.round(4), " angle =", np.degrees(np.arccos(cos)).round(2), "degrees")

for scale in [2, 10]:                            # make b longer, same direction
    c = scale * b
    print(f"b x {scale}: dot = {a @ c:.1f}, cosine = {a @ c / (len_a * np.linalg.norm(c)):.4f}")
print("a . [4, -3] =", a @ np.array([4.0, -3.0]), "(perpendicular)")
print("a . [-3, -4] =", a @ np.array([-3.0, -4.0]), "(opposite)")
