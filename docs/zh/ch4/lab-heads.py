# %% [markdown]
# # 实验笔记本：两个头怎样分道扬镳
#
# 这本笔记本和 [4.1 节](../multi-head/) 的实验是同一个，只是每一步都摊开给你改。
# 它在每次构建网站时重新运行一遍。
# <p class="screen-only">可以<a href="lab-heads.ipynb" download>下载 <code>lab-heads.ipynb</code></a>，装好 attnkit 之后在本地 Jupyter 里打开。</p>
#
# 任务：一句 6 个词的话围成一圈，每个词要写出左邻和右邻是什么词。
# 模型：两个注意力头，输出相加，用最朴素的梯度下降训练。

# %%
import numpy as np
from attnkit.heads import PARAMS, STARTS, init_heads, make_task, neighbour_share, train_two_heads, two_heads_loss_and_grads

x, t = make_task()
print("输入", x.shape, "目标", t.shape)

# %% [markdown]
# ## 同样的起点，同样的梯度
#
# 把两个头初始化成一模一样，算一次梯度，逐位比较。

# %%
heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
loss, grads, _ = two_heads_loss_and_grads(heads, x, t)
for p in PARAMS:
    print(p, "两个头的梯度逐位相等：", np.array_equal(grads[0][p], grads[1][p]))

# %% [markdown]
# ## 三种起点各训练 800 步
#
# 改一改 `steps`、`lr` 或者 `seed`，看看结论会不会变。

# %%
from attnkit.text import pad, sci

names = {"same": "完全相同", "nudged": "差百万分之一", "random": "各自随机"}
runs = {start: train_two_heads(start, steps=800, lr=5.0, seed=3) for start in STARTS}
for start, run in runs.items():
    print(f"{pad(names[start], 14)}损失 {run.loss[0]:.4f} -> {run.loss[-1]:.5f}   两头之差 {sci(run.head_gap[0], 1)} -> {sci(run.head_gap[-1], 1)}")
    print(pad("", 14) + "每个头看（左邻, 右邻）：", neighbour_share(run.weights).round(2).tolist())

# %% [markdown]
# ## 画出来
#
# 下面两张图就是 4.1 节的图，由 attnkit 的同一个函数画出。

# %% alt=["上图：三种起点的损失曲线（对数坐标）；下图：两个头权重之差随训练的变化。", "四张 6×6 热力图：相同起点训练出的两个头一模一样，随机起点训练出的两个头一个看右邻、一个看左邻。"]
from IPython.display import SVG, display
from attnkit.figures import render_svg

display(SVG(render_svg("ch4-heads-diverge", "zh")))
display(SVG(render_svg("ch4-heads-after", "zh")))

# %% [markdown]
# ## 换几个随机种子
#
# 各自随机的起点，是不是每次都能分工？

# %%
for seed in range(4):
    run = train_two_heads("random", seed=seed)
    print(f"种子 {seed}：最终损失 {run.loss[-1]:.5f}，（左邻, 右邻）", neighbour_share(run.weights).round(2).tolist())
