import numpy as np
from attnkit.heads import source_loss, source_loss_descent, source_loss_optimum

# L(a, b) = (a - 3)^2 + (b - 5)^2 + c * (a - b)^2;  gradient = 0 is a 2x2 linear system
for c in (0.0, 0.5, -0.25):
    a, b = source_loss_optimum(c)             # np.linalg.solve
    path = source_loss_descent(c, start=(0, 0), lr=0.1, steps=200)
    print(f"c = {c:+.2f}: minimum a = {a:.4f}, b = {b:.4f}, gap b - a = {b - a:.4f};"
          f" gradient descent ends at {path[-1].round(4)}")

print("loss at (3, 5) with c = 0.5:", source_loss(3, 5, 0.5))
print("loss at (3.5, 4.5):         ", source_loss(3.5, 4.5, 0.5))
