"""Figures of chapter 4: multi-head attention and positional encoding."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from .. import heads as hd
from .. import position as ps
from ..core import sinusoidal_positional_encoding
from ..toy_heads import HEAD_NAMES, TOUR_SENTENCES, attend_heads
from ._style import ACCENT, BLUE, GRID, MUTED, TEAL, matrix_image, tr, weights_map
from . import figure

START_COLOURS = {"same": ACCENT, "nudged": TEAL, "random": BLUE}


def start_label(lang, start):
    return {"same": tr(lang, "完全相同的起点", "identical start"),
            "nudged": tr(lang, "相差百万分之一", "nudged by one millionth"),
            "random": tr(lang, "各自随机", "independent random")}[start]


def _weights_map(ax, w, rows, cols, title, *, fontsize=8.5, numbers=True, frame=None):
    """A heatmap of attention weights with percentages in the cells, a title and an optional framed row."""
    n_c = w.shape[1]
    weights_map(ax, w, rows, cols, fontsize=fontsize, numbers=numbers)
    if frame is not None:
        ax.add_patch(Rectangle((-0.5, frame - 0.5), n_c, 1, fill=False, edgecolor=ACCENT, lw=2))
    ax.set_title(title, fontsize=fontsize + 1.5)


@figure("ch4-head-maps")
def head_maps(lang: str):
    """Four toy heads on one sentence: four different tables."""
    r = attend_heads(TOUR_SENTENCES["cat-ball-hungry"].text[lang], lang)
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 9.4))
    for h, ax in enumerate(axes.flat):
        _weights_map(ax, r.weights[h], r.tokens, r.tokens, f"{h + 1}. {HEAD_NAMES[lang][h]}")
    fig.supxlabel(tr(lang, "被看的词（键）；格中数字为百分比", "looked at (key); numbers are percentages"),
                  fontsize=10, color=MUTED)
    fig.supylabel(tr(lang, "正在看的词（查询）", "looking (query)"), fontsize=10, color=MUTED)
    fig.tight_layout(h_pad=1.5, w_pad=1.5)
    return fig


@figure("ch4-heads-diverge")
def heads_diverge(lang: str):
    """Loss and the gap between the two heads, for three starts, under plain gradient descent."""
    runs = {s: hd.train_two_heads(s) for s in hd.STARTS}
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.6, 7.8))
    for s, run in runs.items():
        steps = np.arange(len(run.loss))
        ax1.plot(steps, run.loss, color=START_COLOURS[s], lw=2, label=start_label(lang, s))
        gap = np.where(run.head_gap > 0, run.head_gap, np.nan)
        ax2.plot(steps, gap, color=START_COLOURS[s], lw=2, label=start_label(lang, s))
    ax1.set_yscale("log")
    ax1.set_xlabel(tr(lang, "梯度下降步数", "gradient-descent steps"))
    ax1.set_title(tr(lang, "损失（对数坐标）", "loss (log scale)"), loc="left")
    ax1.legend(frameon=False, fontsize=10.5)
    ax2.set_yscale("log")
    ax2.set_xlabel(tr(lang, "梯度下降步数", "gradient-descent steps"))
    ax2.set_title(tr(lang, "两个头权重的最大差（对数坐标）", "largest gap between the heads' weights (log)"), loc="left")
    ax2.text(0.42, 0.1, tr(lang, "完全相同的起点：差一直是 0，画不上对数轴",
                            "identical start: the gap stays exactly 0,\nwhich a log axis cannot show"),
             transform=ax2.transAxes, color=ACCENT, fontsize=9.5)
    for ax in (ax1, ax2):
        ax.grid(True, color=GRID, lw=0.6)
    fig.tight_layout(h_pad=2.0)
    return fig


@figure("ch4-heads-after")
def heads_after(lang: str):
    """After training: each head's weights on one sentence, identical start against random start."""
    n = hd.TASK["n"]
    labels = [str(p) for p in range(n)]
    fig, axes = plt.subplots(2, 2, figsize=(7.6, 7.6))
    for row, start in enumerate(("same", "random")):
        run = hd.train_two_heads(start)
        share = hd.neighbour_share(run.weights)                 # (2, 2) left, right
        for h in range(2):
            title = tr(lang, f"{start_label(lang, start)}·头 {h + 1}\n左邻 {share[h, 0]:.0%}，右邻 {share[h, 1]:.0%}",
                       f"{start_label(lang, start)} · head {h + 1}\nleft {share[h, 0]:.0%}, right {share[h, 1]:.0%}")
            _weights_map(axes[row, h], run.weights[h], labels, labels, title, fontsize=9)
    fig.supxlabel(tr(lang, "被看的位置（环形：0 的左邻是 5）", "position looked at (a ring: 0's left neighbour is 5)"),
                  fontsize=10, color=MUTED)
    fig.supylabel(tr(lang, "正在看的位置", "position looking"), fontsize=10, color=MUTED)
    fig.tight_layout(h_pad=1.2)
    return fig


@figure("ch4-source-loss")
def source_loss(lang: str):
    """The source course's loss, its minimum, and the minimum of a term that really pushes apart."""
    a, b = np.meshgrid(np.linspace(0, 7, 200), np.linspace(0, 7, 200))
    fig, axes = plt.subplots(1, 2, figsize=(10.0, 4.8))
    for ax, c, title in ((axes[0], 0.5, tr(lang, "常见讲法：+0.5·(a−b)²", "the common explanation: +0.5·(a−b)²")),
                         (axes[1], -0.25, tr(lang, "真正推开：−0.25·(a−b)²", "really pushing apart: −0.25·(a−b)²"))):
        ax.contour(a, b, hd.source_loss(a, b, c), levels=14, colors=GRID, linewidths=0.9)
        path = hd.source_loss_descent(c, steps=60)
        ax.plot(path[:, 0], path[:, 1], color=BLUE, lw=1.6, marker="o", ms=2.5,
                label=tr(lang, "梯度下降的路径（从 (0, 0) 出发）", "gradient descent from (0, 0)"))
        a_c, b_c = hd.source_loss_optimum(c)
        a_0, b_0 = hd.source_loss_optimum(0.0)
        ax.plot([a_0], [b_0], "s", color=MUTED, ms=8, label=tr(lang, f"没有第三项：({a_0:g}, {b_0:g})",
                                                                 f"without the third term: ({a_0:g}, {b_0:g})"))
        ax.plot([a_c], [b_c], "*", color=ACCENT, ms=15, label=tr(lang, f"最低点：({a_c:g}, {b_c:g})，差 {b_c - a_c:g}",
                                                                   f"minimum: ({a_c:g}, {b_c:g}), gap {b_c - a_c:g}"))
        ax.plot([0, 7], [0, 7], color=MUTED, lw=0.8, ls="--")
        ax.text(5.2, 5.6, "a = b", color=MUTED, fontsize=9, rotation=45)
        ax.set_xlabel("a")
        ax.set_ylabel("b")
        ax.set_aspect("equal")
        ax.set_title(title, loc="left")
        ax.legend(frameon=True, framealpha=0.9, fontsize=8.5, loc="lower right")
    fig.tight_layout(w_pad=2)
    return fig


@figure("ch4-pe-heatmap")
def pe_heatmap(lang: str):
    """The sinusoidal encoding of 50 positions in 64 dimensions, and four of its columns as curves."""
    n, d = 50, 64
    pe = sinusoidal_positional_encoding(n, d)                     # (n, d)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.6, 8.6), gridspec_kw={"height_ratios": [1.2, 1]})
    image = matrix_image(ax1, pe, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    ax1.set_xlabel(tr(lang, "维度（左快右慢；偶数列 sin，奇数列 cos）", "dimension (fast on the left; even sin, odd cos)"))
    ax1.set_ylabel(tr(lang, "位置", "position"))
    ax1.set_title(tr(lang, "每一行是一个位置的编码", "each row is one position's code"), loc="left")
    fig.colorbar(image, ax=ax1, shrink=0.85)
    for j, colour in zip((0, 1, 10, 30), (ACCENT, BLUE, TEAL, MUTED)):
        fn = "sin" if j % 2 == 0 else "cos"
        period = 2 * np.pi / ps.frequencies(d)[j // 2]
        ax2.plot(range(n), pe[:, j], color=colour, lw=1.8,
                 label=tr(lang, f"第 {j} 维（{fn}，周期 {period:.0f}）", f"dim {j} ({fn}, period {period:.0f})"))
    ax2.axhline(0, color=GRID, lw=1)
    ax2.set_xlabel(tr(lang, "位置", "position"))
    ax2.set_ylim(-1.15, 1.9)
    ax2.legend(frameon=False, fontsize=9.5, ncol=2, loc="upper center")
    ax2.set_title(tr(lang, "同一维度沿位置看：一条波", "one dimension along the positions: a wave"), loc="left")
    fig.tight_layout(h_pad=2.0)
    return fig


@figure("ch4-pe-offset")
def pe_offset(lang: str):
    """Counting positions against sinusoids, and PE[p]·PE[q] depending only on p − q."""
    n, d = 40, 16
    count = ps.counting_encoding(n)[:, 0]
    pe = sinusoidal_positional_encoding(n, d)
    sim = ps.pe_similarity(n, d)                                  # (n, n)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.6, 9.0), gridspec_kw={"height_ratios": [1, 1.25]})
    ax1.plot(range(n), count, color=ACCENT, lw=2, label=tr(lang, "直接数数：1, 2, 3, …", "counting: 1, 2, 3, …"))
    ax1.plot(range(n), np.linalg.norm(pe, axis=1), color=BLUE, lw=2,
             label=tr(lang, f"正弦编码的长度（{d} 维）", f"length of the sinusoidal code ({d} dims)"))
    ax1.axhspan(-1, 1, color=GRID, alpha=0.5, lw=0)
    ax1.text(n - 1, -1.6, tr(lang, "灰带：词向量各分量的常见范围", "grey band: typical range of a word vector's entries"),
             ha="right", va="top", fontsize=9, color=MUTED)
    ax1.set_ylim(-5, n + 2)
    ax1.set_xlabel(tr(lang, "位置", "position"))
    ax1.legend(frameon=False, fontsize=9.5, loc="upper left")
    ax1.set_title(tr(lang, "数数会越数越大，正弦编码不会", "counting keeps growing; sinusoids stay put"), loc="left")
    image = matrix_image(ax2, sim, cmap="Blues")
    fig.colorbar(image, ax=ax2, shrink=0.85)
    ax2.set_xlabel(tr(lang, "位置 q", "position q"))
    ax2.set_ylabel(tr(lang, "位置 p", "position p"))
    ax2.set_title(tr(lang, "PE[p]·PE[q]：只看相隔多远", "PE[p]·PE[q] depends only on the offset"), loc="left")
    fig.tight_layout(h_pad=2.0)
    return fig


ORDER_PAIRS = {
    "zh": (["小猫", "追着", "小狗", "跑"], ["小狗", "追着", "小猫", "跑"]),
    "en": (["the", "cat", "chased", "the", "dog"], ["the", "dog", "chased", "the", "cat"]),
}


@figure("ch4-order-heads")
def order_heads(lang: str):
    """Section 4.3: two heads, two word orders; the verb's row is framed."""
    verb = "追着" if lang == "zh" else "chased"
    fig, axes = plt.subplots(2, 2, figsize=(8.6, 8.4))
    for row, tokens in enumerate(ORDER_PAIRS[lang]):
        r = ps.order_heads(tokens, lang)
        sentence = ("" if lang == "zh" else " ").join(tokens)
        for h in range(2):
            _weights_map(axes[row, h], r.weights[h], tokens, tokens,
                         f"{sentence}\n{ps.ORDER_HEAD_NAMES[lang][h]}", fontsize=9.5, frame=tokens.index(verb))
    fig.supxlabel(tr(lang, "被看的词（键）", "looked at (key)"), fontsize=10, color=MUTED)
    fig.supylabel(tr(lang, "正在看的词（查询）", "looking (query)"), fontsize=10, color=MUTED)
    fig.tight_layout(h_pad=1.5)
    return fig
