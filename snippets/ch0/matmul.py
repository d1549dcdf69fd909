import numpy as np
from attnkit.basics import matmul_by_dots

# 三个词，每行一个 [zh]
# three words, one per row [en]
words = np.array([[1.0, -0.5, -1.0],           # (3, 3)
                  [1.0, 0.5, -1.0],
                  [-1.0, -0.8, 1.0]])
# 两个“问题”，每个是一列：像动物吗？是个头大的活物吗？ [zh]
# two "questions", one column each: animal-like? a big living thing? [en]
w = np.array([[1.0, 0.5],                      # (3, 2)
              [0.0, 1.0],
              [-1.0, 0.0]])

out = words @ w                                # (3, 3) @ (3, 2) -> (3, 2)
print("词：", words.shape, " w：", w.shape, " 结果：", out.shape)  # [zh]
print("words:", words.shape, " w:", w.shape, " out:", out.shape)  # [en]
print(out)
# 每一格都是一个点积：第 i 行的词 · 第 j 列的问题 [zh]
# every cell is one dot product: word in row i · question in column j [en]
print(np.allclose(out, matmul_by_dots(words, w)))
print(out[2, 1], words[2] @ w[:, 1])
