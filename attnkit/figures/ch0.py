"""Figures of chapter 0: the dot product as a signed projection, a loss curve walked downhill, ReLU."""

from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt

from ..basics import dot, fit_line, line_loss, line_loss_slope, relu
from ._style import ACCENT, BLUE, GRID, INK, MUTED, TEAL, tr
from . import figure

DOT_A = np.array([3.0, 1.0])                                  # the fixed arrow a
DOT_BS = (np.array([2.0, 2.0]), np.array([-1.0, 3.0]), np.array([-2.5, -1.5]))   # b: same way, across, opposite
KG, PAID = [1.0, 2.0, 3.0], [4.1, 7.9, 12.2]                  # the apple data of listings ch0/slope and ch0/training
FIT = dict(w0=0.0, lr=0.05, steps=30)


@figure("ch0-dot-signs")
def dot_signs(lang: str):
    """Three pairs of arrows a, b; the shadow of b on a's line is a · b / |a|: positive, zero, negative.

    Drawn 4.8 inches wide with 10 pt text and more, so a 375 px phone shows it without zooming
    (labels of 9.5 CSS px or more; tests/test_figure_text.py INLINE)."""
    fig, axes = plt.subplots(1, 3, figsize=(4.8, 2.75))
    unit = DOT_A / np.linalg.norm(DOT_A)                      # (2,) direction of a
    words = (tr(lang, "同向：正", "same way:\npositive"), tr(lang, "垂直：零", "at right\nangles: zero"),
             tr(lang, "反向：负", "opposite:\nnegative"))
    for ax, b, word in zip(axes, DOT_BS, words):
        shadow = (b @ unit) * unit                            # (2,) projection of b on a's line
        ax.axline((0, 0), DOT_A, color=GRID, lw=1, zorder=0)
        ax.annotate("", DOT_A, (0, 0), arrowprops=dict(arrowstyle="-|>", color=BLUE, lw=1.8))
        ax.annotate("", b, (0, 0), arrowprops=dict(arrowstyle="-|>", color=TEAL, lw=1.8))
        ax.plot([b[0], shadow[0]], [b[1], shadow[1]], color=MUTED, lw=1, ls=":")
        ax.plot([0, shadow[0]], [0, shadow[1]], color=ACCENT, lw=4, alpha=0.6, solid_capstyle="butt")
        ax.text(*(DOT_A * 1.06), "a", color=BLUE, fontsize=12, ha="left", va="bottom")
        ax.text(*(b * 1.12), "b", color=TEAL, fontsize=12, ha="center", va="center")
        ax.set_title(f"{word}\na · b = {dot(DOT_A, b):g}", fontsize=10.5, fontweight="normal", color=INK)
        ax.set_xlim(-3.4, 3.8)
        ax.set_ylim(-2.4, 3.6)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
    fig.suptitle(tr(lang, "橙色：b 落在 a 方向上的影子；\n影子朝 a 的方向为正，背着 a 为负",
                    "orange: the shadow b casts on a's line;\nalong a it counts positive, against a negative"),
                 fontsize=10, color=MUTED, y=0.02, va="bottom")
    fig.tight_layout(rect=(0, 0.15, 1, 1), w_pad=0.4)
    return fig


@figure("ch0-loss-slope")
def loss_slope(lang: str):
    """The apple loss as a function of w, the slope at w = 5, and gradient descent's first steps."""
    w = np.linspace(0.0, 6.5, 200)                            # (200,)
    loss = np.array([line_loss(v, KG, PAID) for v in w])      # (200,)
    fit = fit_line(KG, PAID, **FIT)                           # w, loss: (31,)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.plot(w, loss, color=INK, lw=2)
    w_at = 5.0
    slope = line_loss_slope(w_at, KG, PAID)
    near = np.linspace(w_at - 0.8, w_at + 0.8, 2)
    ax.plot(near, line_loss(w_at, KG, PAID) + slope * (near - w_at), color=BLUE, lw=2, ls="--")
    ax.annotate(tr(lang, f"w = 5 处的斜率：{slope:g}\n往右损失上升，所以往左走", f"slope at w = 5: {slope:g}\nthe loss rises to the right,\nso step left"),
                (w_at, line_loss(w_at, KG, PAID)), xytext=(4.3, 40), color=BLUE, fontsize=11.5,
                arrowprops=dict(arrowstyle="-", color=BLUE, lw=0.8))
    steps = fit.w[:6]
    ax.plot(steps, fit.loss[:6], "o", color=ACCENT, ms=7, zorder=3)
    for k, (a, b) in enumerate(zip(steps[:-1], steps[1:])):
        ax.annotate("", (b, fit.loss[k + 1]), (a, fit.loss[k]),
                    arrowprops=dict(arrowstyle="->", color=ACCENT, lw=1.3, shrinkA=5, shrinkB=5))
    ax.text(0.25, 2, tr(lang, "梯度下降的前 5 步", "the first 5 steps\nof gradient descent"),
            color=ACCENT, fontsize=11.5)                  # below-left of the curve, under the grid line at 10
    ax.set_xlabel(tr(lang, "参数 w（每公斤多少钱）", "parameter w (price per kg)"), fontsize=12)
    ax.set_ylabel(tr(lang, "损失（平均平方误差）", "loss (mean squared error)"), fontsize=12)
    ax.set_ylim(0, 80)
    ax.grid(color=GRID, lw=0.6)
    fig.tight_layout()
    return fig


@figure("ch0-relu")
def relu_curve(lang: str):
    """ReLU(x) = max(0, x): flat at 0 for negative inputs, the identity for positive ones."""
    x = np.linspace(-3.0, 3.0, 121)                           # (121,)
    fig, ax = plt.subplots(figsize=(4.8, 3.2))
    ax.plot(x, relu(x), color=ACCENT, lw=2.6)
    ax.axhline(0, color=GRID, lw=1, zorder=0)
    ax.axvline(0, color=GRID, lw=1, zorder=0)
    ax.set_xlabel(tr(lang, "输入 x", "input x"), fontsize=12)
    ax.set_ylabel("ReLU(x)", fontsize=12)
    ax.text(-2.9, 0.35, tr(lang, "负数一律变成 0", "every negative becomes 0"), color=MUTED, fontsize=11.5)
    ax.text(0.3, 2.3, tr(lang, "正数原样通过", "positives pass\nunchanged"), color=MUTED, fontsize=11.5)   # left of the line
    ax.set_xlim(-3, 3)
    ax.set_ylim(-0.4, 3.1)
    fig.tight_layout()
    return fig
