import numpy as np
from attnkit import sinusoidal_positional_encoding
from attnkit.position import rope_scores, shift_error, shift_matrix
from attnkit.text import pad, sci

d_model = 16
pe = sinusoidal_positional_encoding(100, d_model)         # (100, 16)
m3 = shift_matrix(3, d_model)                             # (16, 16)，每对列一个 2x2 旋转  # [zh]
m3 = shift_matrix(3, d_model)                             # (16, 16), one 2x2 rotation per pair  # [en]
print("PE[10] @ M_3 等于 PE[13]：", np.allclose(pe[10] @ m3, pe[13]))  # [zh]
print("PE[70] @ M_3 等于 PE[73]：", np.allclose(pe[70] @ m3, pe[73]))  # [zh]
print("PE[10] @ M_3 == PE[13]:", np.allclose(pe[10] @ m3, pe[13]))  # [en]
print("PE[70] @ M_3 == PE[73]:", np.allclose(pe[70] @ m3, pe[73]))  # [en]
for k in (1, 3, 25):
    print(f"k = {k:2d}：所有 p 中的最大误差 {sci(shift_error(k, d_model, 75), 1)}")  # [zh]
    print(f"k = {k:2d}: largest error over all p: {shift_error(k, d_model, 75):.1e}")  # [en]
print("M_3 左上角的 2x2 块（旋转 3 弧度）：")  # [zh]
print("first 2x2 block of M_3 (a rotation by 3 rad):")  # [en]
print(m3[:2, :2].round(3))
print("M_3 是正交矩阵（M M^T = I）：", np.allclose(m3 @ m3.T, np.eye(d_model)))  # [zh]
print("M_3 is orthogonal (M M^T = I):", np.allclose(m3 @ m3.T, np.eye(d_model)))  # [en]

q = np.array([1.0, 2.0, 0.5, -1.0])
k = np.array([0.3, -0.7, 2.0, 1.0])
print(pad("RoPE 分数，q 在位置 3、k 在位置 1：", 38), round(rope_scores(q, k, 3, 1), 6))  # [zh]
print(pad("RoPE score, q at 3 and k at 1:", 32), round(rope_scores(q, k, 3, 1), 6))  # [en]
print(pad("RoPE 分数，q 在位置 50、k 在位置 48：", 38), round(rope_scores(q, k, 50, 48), 6))  # [zh]
print(pad("RoPE score, q at 50 and k at 48:", 32), round(rope_scores(q, k, 50, 48), 6))  # [en]
