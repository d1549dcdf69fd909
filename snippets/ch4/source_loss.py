import numpy as np
from attnkit.heads import source_loss, source_loss_descent, source_loss_optimum
from attnkit.text import pad

# L(a, b) = (a - 3)^2 + (b - 5)^2 + c * (a - b)^2；梯度 = 0 是一个 2x2 线性方程组  # [zh]
# L(a, b) = (a - 3)^2 + (b - 5)^2 + c * (a - b)^2;  gradient = 0 is a 2x2 linear system  # [en]
for c in (0.0, 0.5, -0.25):
    a, b = source_loss_optimum(c)             # np.linalg.solve
    path = source_loss_descent(c, start=(0, 0), lr=0.1, steps=200)
    print(f"c = {c:+.2f}：最小值在 a = {a:.4f}，b = {b:.4f}，差 b - a = {b - a:.4f}；"  # [zh]
          f"梯度下降停在 {path[-1].round(4)}")  # [zh]
    print(f"c = {c:+.2f}: minimum a = {a:.4f}, b = {b:.4f}, gap b - a = {b - a:.4f};"  # [en]
          f" gradient descent ends at {path[-1].round(4)}")  # [en]

print(pad("c = 0.5 时 (3, 5) 处的损失：", 30), source_loss(3, 5, 0.5))  # [zh]
print(pad("loss at (3, 5) with c = 0.5:", 30), source_loss(3, 5, 0.5))  # [en]
print(pad("(3.5, 4.5) 处的损失：", 30), source_loss(3.5, 4.5, 0.5))  # [zh]
print(pad("loss at (3.5, 4.5):", 30), source_loss(3.5, 4.5, 0.5))  # [en]
