import numpy as np
from attnkit.heads import PARAMS, init_heads, make_task, neighbour_share, train_two_heads, two_heads_loss_and_grads

x, t = make_task()                            # (64, 6, 10), (64, 6, 8)
print("任务：", x.shape, "->", t.shape)  # [zh]
print("task:", x.shape, "->", t.shape)  # [en]

heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
_, grads, _ = two_heads_loss_and_grads(heads, x, t)
print("起点相同，梯度也相同：", all(np.array_equal(grads[0][p], grads[1][p]) for p in PARAMS))  # [zh]
print("same start, same gradients:", all(np.array_equal(grads[0][p], grads[1][p]) for p in PARAMS))  # [en]

starts = {"same": "完全相同", "nudged": "差百万分之一", "random": "各自随机"}  # [zh]
starts = {"same": "same", "nudged": "nudged", "random": "random"}          # [en]
print("起点          损失@0   损失@800  差@0      差@800    每个头（看左, 看右）")  # [zh]
print("start    loss@0   loss@800  gap@0     gap@800   (left, right) per head")  # [en]
for start, label in starts.items():
    run = train_two_heads(start)              # 800 步普通梯度下降 [zh]
    run = train_two_heads(start)              # 800 steps of plain gradient descent [en]
    share = neighbour_share(run.weights).round(2)
    pad = " " * (12 - 2 * len(label))         # 一个汉字占两格 [zh]
    pad = " " * (7 - len(label))              # [en]
    print(f"{label}{pad} {run.loss[0]:8.4f} {run.loss[-1]:9.5f}  {run.head_gap[0]:.1e}  {run.head_gap[-1]:.1e}",
          share.tolist())
