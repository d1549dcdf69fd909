"""Figures of chapter 2: self-attention as intuition. Every weight comes from attnkit.toy."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, Rectangle

from .. import toy
from ._style import ACCENT, BLUE, GRID, INK, MUTED, tr, weights_map
from . import figure

# The pronoun pair each language reads: the tour's 小猫 pair in Chinese, Alammar's pair in English.
PAIRS = {"zh": ("cat-ball-hungry", "cat-ball-fun"), "en": ("animal-street-tired", "animal-street-wide")}


def pronoun_pair(lang: str):
    """The two example sentences of ``lang``'s pronoun pair and their toy results."""
    examples = [toy.SENTENCES[key] for key in PAIRS[lang]]
    return [(e, toy.attend(e.text, e.lang)) for e in examples]


def _heatmap(ax, r, focus, title):
    w = r.weights                                            # (n, n) step-2 weights
    n = len(r.tokens)
    weights_map(ax, w, r.tokens, r.tokens, fontsize=9, rotate=60 if r.lang == "en" else 0)
    i = r.index(focus)
    ax.add_patch(Rectangle((-0.5, i - 0.5), n, 1, fill=False, edgecolor=ACCENT, lw=2))
    ax.set_title(title, fontsize=11)


@figure("ch2-pronoun-heatmap")
def pronoun_heatmap(lang: str):
    """Step-2 attention weights of the toy model for the pronoun pair, the pronoun's row framed."""
    pair = pronoun_pair(lang)
    size = 4.6 if lang == "zh" else 5.4
    fig, axes = plt.subplots(1, 2, figsize=(2 * size + 0.6, size))
    for ax, (example, r) in zip(axes, pair):
        _heatmap(ax, r, example.focus, example.text)
        ax.set_xlabel(tr(lang, "被看的词（键）", "looked at (key)"), fontsize=9, color=MUTED)
    axes[0].set_ylabel(tr(lang, "正在看的词（查询）", "looking (query)"), fontsize=9, color=MUTED)
    fig.tight_layout(w_pad=2.0)
    return fig


@figure("ch2-two-steps")
def two_steps(lang: str):
    """Where the pronoun looks in step 1 (the clue) and step 2 (the referent), for both sentences."""
    pair = pronoun_pair(lang)
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 6.2))
    steps = [tr(lang, "第 1 轮：找线索", "round 1: find the clue"),
             tr(lang, "第 2 轮：找指代对象", "round 2: find the referent")]
    for col, (example, r) in enumerate(pair):
        for row in (0, 1):
            ax = axes[row, col]
            w = r.row(example.focus, step=row + 1)            # (n,)
            colours = [ACCENT if v == w.max() else BLUE for v in w]
            ax.barh(range(len(w)), w, color=colours, height=0.65)
            ax.set_yticks(range(len(w)), r.tokens, fontsize=9)
            ax.invert_yaxis()
            ax.set_xlim(0, 1.15)
            ax.set_xticks([])
            ax.spines["bottom"].set_visible(False)
            for y, v in enumerate(w):
                ax.text(v + 0.02, y, f"{v:.0%}", va="center", fontsize=8, color=INK if v == w.max() else MUTED)
            if row == 0:
                ax.set_title(example.text, fontsize=10.5)
            if col == 0:
                ax.set_ylabel(steps[row], fontsize=11, color=INK, fontweight="bold")
    fig.suptitle(tr(lang, "“它”把注意力分给了谁", "where “it” puts its attention"), fontsize=12, color=MUTED)
    fig.tight_layout(h_pad=2.0, w_pad=2.0)
    return fig


def _positions(tokens):
    """x positions that leave room for each token's width (a CJK character counts double)."""
    widths = [max(2, sum(2 if ord(c) > 0x2E80 else 1 for c in t)) + 1.6 for t in tokens]
    edges = np.concatenate([[0.0], np.cumsum(widths)])
    return (edges[:-1] + edges[1:]) / 2, edges[-1]


@figure("ch2-whole-page")
def whole_page(lang: str):
    """Word-by-word chain (left) against every word wired to every word, weighted (right)."""
    example, r = pronoun_pair(lang)[0]
    tokens, n = r.tokens, len(r.tokens)
    w = r.weights                                            # (n, n) step-2 weights
    xs, total = _positions(tokens)
    fig, axes = plt.subplots(1, 2, figsize=(11.6, 3.0))
    for ax in axes:
        ax.set_xlim(-0.5, total + 0.5)
        ax.set_ylim(-3.0, 12.0)
        ax.axis("off")
        for j, t in enumerate(tokens):
            ax.text(xs[j], 0, t, ha="center", va="center", fontsize=9,
                    bbox=dict(boxstyle="round,pad=0.3", fc="white", ec=GRID))
    left, right = axes
    for j in range(n - 1):
        left.add_patch(FancyArrowPatch((xs[j], 0.9), (xs[j + 1], 0.9), connectionstyle="arc3,rad=-0.5",
                                       arrowstyle="-|>", mutation_scale=9, color=MUTED, lw=1.2))
    left.set_title(tr(lang, "逐词默读：信息一站一站往后传", "word by word: passed along, one hand-off at a time"), fontsize=11)
    focus = r.index(example.focus)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            colour, alpha = (ACCENT, 1.0) if i == focus else (BLUE, 0.55)
            lw = 4.0 * w[i, j]
            if lw < 0.05:
                continue
            rad = -0.35 if j > i else 0.35
            right.add_patch(FancyArrowPatch((xs[i], 0.9), (xs[j], 0.9), connectionstyle=f"arc3,rad={rad}",
                                            arrowstyle="-", lw=lw, color=colour, alpha=alpha))
    right.set_title(tr(lang, "整页扫读：每个词直接连到每个词", "the whole page: every word wired to every word"), fontsize=11)
    right.text(total / 2, -2.4, tr(lang, f"线越粗，权重越大；橙色是“{example.focus}”的连线",
                                      f'thicker line = more weight; orange = the lines of "{example.focus}"'),
               ha="center", fontsize=8.5, color=MUTED)
    fig.tight_layout(w_pad=1.0)
    return fig
