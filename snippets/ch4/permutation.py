import numpy as np
from attnkit.position import order_demo

d = order_demo()                              # random W_Q, W_K, W_V; d_model = 8
print("cat chased dog -> row order (cat, chased, dog)")
print("dog chased cat -> row order", d.perm, "of the first sentence")
print("no positions:   outputs are the same rows, reordered:", d.same_rows)
print("cat's output, both sentences:", d.out_a[0, :3].round(3), d.out_b[2, :3].round(3))
print("with sinusoidal positions added: reordered rows?", d.same_rows_with_position,
      f"(largest difference {d.gap_with_position:.3f})")
