import numpy as np
from attnkit.position import order_demo

d = order_demo()                              # W_Q, W_K, W_V 随机；d_model = 8 [zh]
d = order_demo()                              # random W_Q, W_K, W_V; d_model = 8 [en]
print("猫 追 狗 -> 行的顺序（猫, 追, 狗）")  # [zh]
print("狗 追 猫 -> 行的顺序是第一句的", d.perm + 1)  # [zh]
print("没有位置：输出是同样的几行，只是换了顺序：", d.same_rows)  # [zh]
print("两句里“猫”的输出：", d.out_a[0, :3].round(3), d.out_b[2, :3].round(3))  # [zh]
print("加上正弦位置编码后，还只是换了顺序吗？", d.same_rows_with_position,  # [zh]
      f"（最大差别 {d.gap_with_position:.3f}）")  # [zh]
print("cat chased dog -> row order (cat, chased, dog)")  # [en]
print("dog chased cat -> row order", d.perm + 1, "of the first sentence")  # [en]
print("no positions:   outputs are the same rows, reordered:", d.same_rows)  # [en]
print("cat's output, both sentences:", d.out_a[0, :3].round(3), d.out_b[2, :3].round(3))  # [en]
print("with sinusoidal positions added: reordered rows?", d.same_rows_with_position,  # [en]
      f"(largest difference {d.gap_with_position:.3f})")  # [en]
