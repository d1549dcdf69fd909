import numpy as np
from attnkit import scaled_dot_product_attention

tokens = ["小猫", "坐", "下"]           # [zh]
tokens = ["the", "cat", "sat"]        # [en]
x = np.array([[1.0, 0.0, 1.0, 0.0],    # (n, d) = (3, 4)
              [0.0, 2.0, 0.0, 2.0],
              [1.0, 1.0, 1.0, 1.0]])

# q = k = v = x：每个词元都看全部三个词元 [zh]
# q = k = v = x: each token looks at all three [en]
out, weights = scaled_dot_product_attention(x, x, x)
print("权重，每行加起来是 1：")  # [zh]
print("weights, each row sums to 1:")  # [en]
print(weights.round(3))                # (n, n)
print("输出：")  # [zh]
print("output:")  # [en]
print(out.round(3))                    # (n, d)

show(weights, tokens)                  # 画一张热力图 [zh]
show(weights, tokens)                  # draw a heatmap [en]
