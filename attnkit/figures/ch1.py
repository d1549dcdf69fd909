"""Figures of chapter 1: how an RNN reads, and what attention changed."""

from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..rnn import decay_curves, pairwise_connections, path_length, sequential_steps
from ._style import ACCENT, BLUE, GRID, INK, MUTED, TEAL, tr
from . import figure

# The short sentence of the chain-vs-all figure: "Tom studied in Paris, so he ..."
TOKENS = {
    "zh": ["小明", "在", "巴黎", "留学", "所以", "他"],
    "en": ["Tom", "studied", "in", "Paris", "so", "he"],
}
DECAY_SCALES = (0.5, 1.0, 1.5, 3.0)   # w_scale of the RNNs in the decay figure: three fade, one explodes
DECAY_N = 40                     # tokens read
DECAY_TRIALS = 20                # random RNNs per scale
TOKEN_SIZE = {"zh": 13, "en": 11.5}


def _box(ax, x, y, text, colour, *, w=1.04, h=0.46, fill="white", fontsize=12.5):
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02,rounding_size=0.08",
                                fc=fill, ec=colour, lw=1.4, zorder=3))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, color=INK, zorder=4)


def _arrow(ax, a, b, colour, lw=1.3, shrink=14):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=11, color=colour, lw=lw,
                                 shrinkA=shrink, shrinkB=shrink, zorder=2))


@figure("ch1-chain-vs-all")
def chain_vs_all(lang: str):
    """Top: an RNN passes the sentence along a chain. Bottom: attention links every pair directly."""
    tokens = TOKENS[lang]
    n = len(tokens)
    hops_rnn = path_length(0, n - 1, "rnn")                   # first token -> last token
    hops_att = path_length(0, n - 1, "attention")
    xs = np.arange(n) * 1.25                                   # (n,) the same word positions in both rows
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.4, 6.6), gridspec_kw={"height_ratios": [1, 1.1]})

    # --- top: the chain -------------------------------------------------------------
    for i, (x, word) in enumerate(zip(xs, tokens)):
        _box(ax1, x, 0, word, ACCENT if i in (0, n - 1) else MUTED, fontsize=TOKEN_SIZE[lang])
        ax1.add_patch(plt.Circle((x, 1.1), 0.27, fc="white", ec=BLUE, lw=1.4, zorder=3))
        ax1.text(x, 1.1, f"$h_{i + 1}$", ha="center", va="center", fontsize=12, color=INK, zorder=4)
        _arrow(ax1, (x, 0.23), (x, 0.83), ACCENT if i == 0 else MUTED, shrink=1)
        if i:
            _arrow(ax1, (xs[i - 1] + 0.27, 1.1), (x - 0.27, 1.1), ACCENT, lw=2.0, shrink=1)
    ax1.text(xs.mean(), 1.95,
             tr(lang, f"{tokens[0]} → {tokens[-1]}：经过 {hops_rnn} 次传递\n"
                      f"{n} 个词要走 {sequential_steps(n, 'rnn')} 步，后一步等前一步",
                f"{tokens[0]} → {tokens[-1]}: {hops_rnn} hand-offs\n"
                f"{n} words take {sequential_steps(n, 'rnn')} steps, each waiting for the last"),
             ha="center", va="center", fontsize=12, color=ACCENT, linespacing=1.45)
    ax1.set_title(tr(lang, "RNN：传话游戏", "RNN: the telephone game"), color=INK, loc="left", fontsize=13.5)
    ax1.set_ylim(-0.4, 2.4)

    # --- bottom: every pair linked directly (arcs above the same row of words) -------
    for i in range(n):
        for j in range(i + 1, n):
            direct = (i, j) == (0, n - 1)
            centre, radius = (xs[i] + xs[j]) / 2, (xs[j] - xs[i]) / 2
            theta = np.linspace(0, np.pi, 60)
            ax2.plot(centre + radius * np.cos(theta), 0.21 + 0.62 * radius * np.sin(theta),
                     color=ACCENT if direct else BLUE, alpha=1 if direct else 0.45,
                     lw=2.4 if direct else 1.1, zorder=2 if direct else 1)
    for i, (x, word) in enumerate(zip(xs, tokens)):
        _box(ax2, x, 0, word, ACCENT if i in (0, n - 1) else BLUE, fontsize=TOKEN_SIZE[lang])
    ax2.text(xs.mean(), 2.75,
             tr(lang, f"{tokens[0]} → {tokens[-1]}：{hops_att} 步直达\n"
                      f"{n}×{n} = {pairwise_connections(n, 'attention')} 个得分，{sequential_steps(n, 'attention')} 轮同时算完",
                f"{tokens[0]} → {tokens[-1]}: {hops_att} direct step\n"
                f"{n}×{n} = {pairwise_connections(n, 'attention')} scores, all in {sequential_steps(n, 'attention')} round"),
             ha="center", va="center", fontsize=12, color=ACCENT, linespacing=1.45)
    ax2.set_title(tr(lang, "注意力：全员电话会议", "Attention: the conference call"), color=INK, loc="left", fontsize=13.5)
    ax2.set_ylim(-0.4, 3.2)

    for ax in (ax1, ax2):
        ax.set_xlim(xs[0] - 0.6, xs[-1] + 0.6)
        ax.set_aspect("equal")
        ax.axis("off")
    fig.tight_layout(h_pad=0.5)
    return fig


@figure("ch1-rnn-decay")
def rnn_decay(lang: str):
    """Measured ||dh_t/dx_1|| of random tiny RNNs, for four weight scales (median and middle 80%):
    at the small scales word 1 fades (vanishing), at scale 3 it grows (exploding)."""
    t = np.arange(1, DECAY_N + 1)
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ax.axhline(1.0, color=MUTED, lw=0.9, ls="--", zorder=1)
    for scale, colour in zip(DECAY_SCALES, (BLUE, TEAL, ACCENT, INK)):
        curves = decay_curves(DECAY_N, w_scale=scale, n_trials=DECAY_TRIALS)   # (trials, n)
        low, mid, high = np.percentile(curves, [10, 50, 90], axis=0)           # (n,) each
        ax.fill_between(t, low, high, color=colour, alpha=0.15, lw=0)
        ax.plot(t, mid, color=colour, lw=2.4, label=tr(lang, f"权重尺度 {scale:g}", f"weight scale {scale:g}"))
        mantissa, exponent = f"{mid[-1]:.0e}".split("e")
        ax.annotate(rf"${mantissa}\times10^{{{int(exponent)}}}$", (t[-1], mid[-1]), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=11.5, color=colour)
    ax.set_yscale("log")
    ax.set_xlim(1, DECAY_N + 9)
    ax.set_xticks([1, 10, 20, 30, 40])
    ax.set_xlabel(tr(lang, "已经读了几个词（t）", "words read so far (t)"), fontsize=12.5)
    ax.set_ylabel(tr(lang, r"第 1 个词的影响  $\Vert\partial h_t / \partial x_1\Vert$",
                     r"influence of word 1  $\Vert\partial h_t / \partial x_1\Vert$"), fontsize=12.5)
    ax.tick_params(labelsize=11.5)
    ax.grid(axis="y", color=GRID, lw=0.6, which="major")
    ax.legend(frameon=False, loc="lower left", fontsize=12)
    ax.set_title(tr(lang, f"实测：每种尺度 {DECAY_TRIALS} 个随机小 RNN\n线：中位数　阴影：中间 80%",
                    f"Measured: {DECAY_TRIALS} random tiny RNNs per scale\nline: median   band: middle 80%"),
                 fontsize=12.5, fontweight="normal", color=INK, linespacing=1.4)
    fig.tight_layout()
    return fig
