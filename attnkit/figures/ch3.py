"""Figures of chapter 3: Q, K, V and the four steps."""

from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt

from ..core import softmax
from ._style import ACCENT, BLUE, GRID, INK, MUTED, tr
from . import figure

SCORES = np.array([5.0, 2.0, 0.0])  # the three scores of the cake example, (3,)


@figure("ch3-softmax-amplify")
def softmax_amplify(lang: str):
    """Raw scores [5, 2, 0]; shares by dividing by the sum; shares by softmax."""
    names = [tr(lang, "小明", "Amy"), tr(lang, "小红", "Ben"), tr(lang, "小刚", "Cal")]
    linear = SCORES / SCORES.sum()          # (3,) plain proportion
    weights = softmax(SCORES)                # (3,) e^s / sum(e^s)

    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.2), sharey=False)
    panels = [
        (SCORES, tr(lang, "① 原始得分", "① raw scores"), "{:g}", MUTED),
        (linear, tr(lang, "② 直接按比例分", "② divide by the sum"), "{:.1%}", BLUE),
        (weights, tr(lang, "③ softmax 分", "③ softmax"), "{:.1%}", ACCENT),
    ]
    for ax, (values, title, fmt, colour) in zip(axes, panels):
        bars = ax.bar(names, values, color=colour, width=0.6)
        ax.set_title(title, color=INK)
        ax.set_ylim(0, values.max() * 1.22)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        ax.axhline(0, color=GRID, lw=1)
        for bar, value in zip(bars, values):
            ax.annotate(fmt.format(value), (bar.get_x() + bar.get_width() / 2, value),
                        xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=10)
    ratio = weights[0] / weights[1]
    axes[2].annotate(
        tr(lang, f"{names[0]} ÷ {names[1]} = {ratio:.1f} 倍\n= e³（分差 3）", f"{names[0]} ÷ {names[1]} = {ratio:.1f}×\n= e³ (a gap of 3)"),
        xy=(1, weights[1]), xytext=(1.35, weights[0] * 0.62), fontsize=9.5, color=INK,
        arrowprops=dict(arrowstyle="->", color=MUTED),
    )
    fig.tight_layout(w_pad=2.5)
    return fig
