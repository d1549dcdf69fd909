import numpy as np
from attnkit.heads import PARAMS, init_heads, make_task, neighbour_share, train_two_heads, two_heads_loss_and_grads

x, t = make_task()                            # (64, 6, 10) tokens, (64, 6, 8) targets
print("task:", x.shape, "->", t.shape)

heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
_, grads, _ = two_heads_loss_and_grads(heads, x, t)
print("same start, same gradients:", all(np.array_equal(grads[0][p], grads[1][p]) for p in PARAMS))

print("start    loss@0   loss@800  gap@0     gap@800   (left, right) per head")
for start in ("same", "nudged", "random"):
    run = train_two_heads(start)              # 800 steps of plain gradient descent
    share = neighbour_share(run.weights).round(2)
    print(f"{start:7s} {run.loss[0]:8.4f} {run.loss[-1]:9.5f}  {run.head_gap[0]:.1e}  {run.head_gap[-1]:.1e}",
          share.tolist())
