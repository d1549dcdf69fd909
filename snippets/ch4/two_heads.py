import numpy as np
from attnkit.heads import PARAMS, init_heads, make_task, neighbour_share, train_two_heads, two_heads_loss_and_grads
from attnkit.text import pad, row, sci

x, t = make_task()                            # (64, 6, 10), (64, 6, 8)
print("任务：", x.shape, "->", t.shape)  # [zh]
print("task:", x.shape, "->", t.shape)  # [en]

heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
_, grads, _ = two_heads_loss_and_grads(heads, x, t)
print("起点相同，梯度也相同：", all(np.array_equal(grads[0][p], grads[1][p]) for p in PARAMS))  # [zh]
print("same start, same gradients:", all(np.array_equal(grads[0][p], grads[1][p]) for p in PARAMS))  # [en]

starts = {"same": "完全相同", "nudged": "差百万分之一", "random": "各自随机"}  # [zh]
starts = {"same": "same", "nudged": "nudged", "random": "random"}          # [en]
cols = [14, 9, 10, 11, 11]
print(pad(row(["起点", "损失@0", "损失@800", "差@0", "差@800"], cols, "<"), sum(cols)), "每个头（看左，看右）")  # [zh]
print(pad(row(["start", "loss@0", "loss@800", "gap@0", "gap@800"], cols, "<"), sum(cols)), "(left, right) per head")  # [en]
for start, label in starts.items():
    run = train_two_heads(start)              # 800 步普通梯度下降 [zh]
    run = train_two_heads(start)              # 800 steps of plain gradient descent [en]
    share = neighbour_share(run.weights).round(2)
    gaps = [sci(run.head_gap[0], 1), sci(run.head_gap[-1], 1)]            # [zh]
    gaps = [f"{run.head_gap[0]:.1e}", f"{run.head_gap[-1]:.1e}"]          # [en]
    print(pad(row([label, f"{run.loss[0]:.4f}", f"{run.loss[-1]:.5f}", *gaps], cols, "<"), sum(cols)),
          share.tolist())
