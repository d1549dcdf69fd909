import numpy as np
from attnkit.basics import relu

x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0])     # (5,)
print("x      ：", x)  # [zh]
print("x      :", x)  # [en]
print("relu(x)：", relu(x))                    # (5,) 负数变成 0 [zh]
print("relu(x):", relu(x))                     # (5,) negatives -> 0 [en]
