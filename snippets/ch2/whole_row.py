import numpy as np
from attnkit import toy

hungry, other_end = "cat-ball-hungry", "cat-ball-fun"          # [zh]
hungry, other_end = "kitten-ball-hungry", "kitten-ball-shiny"  # [en]
r = toy.run(hungry)
print("词元：", r.tokens)                                  # [zh]
print("输入：", r.x.shape, " 输出：", r.x_next.shape)      # [zh]
print("tokens:", r.tokens)                                # [en]
print("in :", r.x.shape, " out:", r.x_next.shape)         # [en]

# 一次一个词（循环）和所有词一起（一次矩阵乘法）结果完全相同。 [zh]
# One word at a time (a loop) gives exactly what all words at once (one matrix product) give. [en]
step = r.steps[1]
one_by_one = np.stack([step.weights[i] @ step.v for i in range(len(r.tokens))])  # n x ((n,) @ (n, d))
print("循环 == 一次算完：", np.allclose(one_by_one, step.weights @ step.v))  # [zh]
print("loop == all at once:", np.allclose(one_by_one, step.weights @ step.v))  # [en]

# 每个输出都看过整行：只改句末，句首名词的输出也会变。 [zh]
# Each output has seen the whole row: change only the LAST word, and an EARLY word's output moves. [en]
other = toy.run(other_end)
first = "小猫"                                        # [zh]
first = "kitten"                                      # [en]
first_a = r.x_next[r.index(first)]                    # (d_model,)
first_b = other.x_next[other.index(first)]            # (d_model,)
print(f"{first} 的输出（{r.tokens[-1]}）：", first_a.round(2))        # [zh]
print(f"{first} 的输出（{other.tokens[-1]}）：", first_b.round(2))    # [zh]
print("变了：", not np.allclose(first_a, first_b))                    # [zh]
print(f"{first} out ({r.tokens[-1]}):", first_a.round(2))            # [en]
print(f"{first} out ({other.tokens[-1]}): ", first_b.round(2))       # [en]
print("changed:", not np.allclose(first_a, first_b))                  # [en]
