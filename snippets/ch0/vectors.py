import numpy as np
from attnkit.basics import dot
from attnkit.text import pad

# 每个词三个数：有没有生命、个头大小、能不能吃（负数表示“相反”）；每行一个词 [zh]
# three numbers per word: alive, size, edible (negative means "the opposite"); one row per word [en]
names = ["猫", "狗", "苹果"]  # [zh]
names = ["cat", "dog", "apple"]  # [en]
words = np.array([[1.0, -0.5, -1.0],           # (3,)
                  [1.0, 0.5, -1.0],            # (3,)
                  [-1.0, -0.8, 1.0]])          # (3,)  -> (3, 3)
for name, v in zip(names, words):
    print(pad(f"{name}：", 8), v)  # [zh]
    print(pad(f"{name}:", 8), v)  # [en]

print()
for i, j in [(0, 1), (0, 2)]:
    a, b = words[i], words[j]                  # (3,) 和 (3,) [zh]
    a, b = words[i], words[j]                  # (3,) and (3,) [en]
    pairs = " + ".join(f"({x:g})×({y:g})" for x, y in zip(a, b))
    print(f"{names[i]} · {names[j]} = {pairs} = {dot(a, b):g}")
print("用 @ 算这两个点积：", words[0] @ words[1], words[0] @ words[2])  # [zh]
print("a @ b:", words[0] @ words[1], words[0] @ words[2])  # [en]
