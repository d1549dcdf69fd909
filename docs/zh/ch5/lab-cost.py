# %% [markdown]
# # 实验笔记本：计时 RNN 和注意力
#
# 这些数字是构建这个网站的那台机器、在构建的那一刻测出来的，每次都不一样。
# <p class="screen-only"><a href="lab-cost.ipynb" download>下载 <code>lab-cost.ipynb</code></a> 在你自己的电脑上跑，数字会变，但趋势应当一样。</p>
#
# 背景见 [5.1 节](../parallel/) 和 [5.3 节](../matrix/)。
#
# 每个时间都是同一段计算跑 7 次里最快的一次：机器上别的程序只会让一次运行变慢，不会让它变快，所以最快的那次最接近这段计算本身的开销。
# 7 次是轮着跑的（每个长度各跑一次，再来一轮），机器忙的那一会儿摊到每个长度上，不会全落在某一个长度上。

# %%
import numpy as np
from attnkit.cost import score_macs, time_rnn_and_attention, time_scores
from attnkit.text import row

ns = [16, 64, 256, 1024]
rnn_s, att_s = time_rnn_and_attention(ns, d=32)
cols = [6, 16, 18]
print(row(['n', 'RNN（毫秒）', '注意力（毫秒）'], cols))
for n, r, a in zip(ns, rnn_s, att_s):
    print(row([n, f"{1e3 * r:.3f}", f"{1e3 * a:.3f}"], cols))

# %% [markdown]
# ## n×n 权重矩阵：时间和内存
#
# 内存是实际分配的数组大小，乘加次数是数出来的（算分数一次、按份额混合一次，各 n×n×64 次）：n 翻倍，两者都正好变成 4 倍。
# 时间就不一定了：n 小时，每次调用的固定开销占得多；n 大时，缓存和内存的快慢也掺了进来。
# 所以下面不预先说时间“跟着 n² 走”，而是把每次翻倍时间乘了几印出来（“×”那一列），再和计算量的 4 倍比一比。
# 某个倍数离 4 很远，多半是那一刻机器在忙别的事（这个网站构建时，中英两本笔记本是同时跑的），或者数学库换了一种算法；在你自己的电脑上多跑几遍，看哪些倍数站得住。

# %%
ns2 = [256, 512, 1024, 2048]
seconds, nbytes = time_scores(ns2)
macs = np.array([score_macs(n) for n in ns2])
cols2 = [6, 14, 8, 14, 8]
print(row(['n', '时间（毫秒）', '×', '内存（MiB）', '×'], cols2))
for i, (n, sec, b) in enumerate(zip(ns2, seconds, nbytes)):
    times = "" if i == 0 else f"{sec / seconds[i - 1]:.2g}"
    grows = "" if i == 0 else f"{b / nbytes[i - 1]:.1f}"
    print(row([n, f"{1e3 * sec:.2f}", times, f"{b / 2**20:.2f}", grows], cols2))
steps = "、".join(f"{r:.2g}" for r in seconds[1:] / seconds[:-1])
print(f"n 每翻一倍：乘加次数乘 {macs[1] / macs[0]:.0f}，内存乘 {nbytes[1] / nbytes[0]:.0f}，这台机器上的时间依次乘 {steps}。")

# %% alt=["左图：读一句话的时间，RNN 和注意力随句长 n 的变化（双对数坐标）；右图：算出 n×n 权重矩阵的时间随 n 的变化。"]
import io

import matplotlib.pyplot as plt
from IPython.display import SVG, display
from attnkit.figures._style import ACCENT, BLUE, STYLE

with plt.rc_context(STYLE):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax1.loglog(ns, 1e3 * rnn_s, "o-", color=ACCENT, label="RNN")
    ax1.loglog(ns, 1e3 * att_s, "o-", color=BLUE, label="注意力")
    ax1.set_xlabel("句长 n")
    ax1.set_ylabel("毫秒")
    ax1.legend(frameon=False)
    ax1.set_title("读完一句话", loc="left")
    ax2.loglog(ns2, 1e3 * seconds, "o-", color=BLUE)
    ax2.set_xticks(ns2, [str(n) for n in ns2])   # 每个量过的 n 标一个刻度（免得次刻度的标签挤在一起）
    ax2.set_xticks([], minor=True)
    ax2.set_xlabel("句长 n")
    ax2.set_ylabel("毫秒")
    ax2.set_title("算出 n×n 权重", loc="left")
    fig.tight_layout()
    svg = io.BytesIO()
    fig.savefig(svg, format="svg")   # 存成 SVG，和书里的图一样的样式
    plt.close(fig)
display(SVG(svg.getvalue()))
