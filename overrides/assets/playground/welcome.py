import numpy as np
from attnkit import scaled_dot_product_attention

tokens = ["the", "cat", "sat"]
x = np.array([[1.0, 0.0, 1.0, 0.0],    # (n, d) = (3, 4)
              [0.0, 2.0, 0.0, 2.0],
              [1.0, 1.0, 1.0, 1.0]])

# q = k = v = x: each token looks at all three
out, weights = scaled_dot_product_attention(x, x, x)
print("weights, each row sums to 1:")
print(weights.round(3))                # (n, n)
print("output:")
print(out.round(3))                    # (n, d)

show(weights, tokens)                  # draw a heatmap
