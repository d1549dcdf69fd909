"""Figures of the one-page tour: the static (printed) form of each interactive widget.

Every weight comes from attnkit.toy / attnkit.toy_heads, every encoding from
attnkit.sinusoidal_positional_encoding.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from ..core import scaled_dot_product_attention, sinusoidal_positional_encoding
from ..toy import FEATURE_NAMES, attend
from ..toy_heads import HEAD_NAMES, TOUR_SENTENCES, attend_heads, tour_sentence
from ._style import ACCENT, BLUE, GRID, INK, MUTED, TEAL, matrix_image, tr, weights_map
from . import figure

# The example sentence the "your own sentence" widget starts with.
OWN_SENTENCE = {"zh": "小狗追着球跑，因为它饿了。", "en": "The dog chased the ball because it was hungry."}


def _arcs(ax, tokens, weights, focus, title):
    """Two columns of the same tokens; lines from the focus word, thicker for more weight."""
    n = len(tokens)
    for j, w in enumerate(weights):
        ax.plot([0, 1], [focus, j], color=ACCENT, lw=0.4 + 9 * w, alpha=0.25 + 0.75 * w,
                solid_capstyle="round")
    for j, token in enumerate(tokens):
        ax.text(-0.05, j, token, ha="right", va="center", fontsize=10,
                color=ACCENT if j == focus else INK, fontweight="bold" if j == focus else "normal")
        ax.text(1.05, j, token, ha="left", va="center", fontsize=10, color=INK)
        ax.text(1.62, j, f"{weights[j]:.1%}", ha="right", va="center", fontsize=9,
                color=INK if weights[j] >= 0.2 else MUTED)
    ax.set_xlim(-0.75, 1.65)
    ax.set_ylim(n - 0.4, -0.8)
    ax.axis("off")
    ax.set_title(title, fontsize=10.5, color=INK)


def _pair(lang, ids):
    fig, axes = plt.subplots(1, len(ids), figsize=(4.8 * len(ids), 0.42 * 11 + 0.6))
    for ax, sid in zip(np.atleast_1d(axes), ids):
        r, i, step = tour_sentence(sid, lang)
        _arcs(ax, r.tokens, r.row(r.tokens[i], step), i, TOUR_SENTENCES[sid].text[lang])
    fig.tight_layout(w_pad=1.5)
    return fig


@figure("tour-it-pair")
def it_pair(lang: str):
    """Where 它 / it looks (round 2) in the 'fun' (en: 'shiny') and the 'hungry' sentence."""
    return _pair(lang, ["cat-ball-fun", "cat-ball-hungry"])


@figure("tour-apple-scenes")
def apple_scenes(lang: str):
    """Where 苹果 / apple looks (round 1) at the fruit stall and at the product launch."""
    return _pair(lang, ["apple-fruit", "apple-launch"])


@figure("tour-own-sentence")
def own_sentence(lang: str):
    """The starting example of the 'your own sentence' widget, both rounds."""
    r = attend(OWN_SENTENCE[lang], lang)
    i = r.index("它" if lang == "zh" else "it")
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 0.42 * 11 + 0.6))
    titles = [tr(lang, "第 1 轮：找线索", "round 1: find the clue"),
              tr(lang, "第 2 轮：找所指", "round 2: find what it refers to")]
    for step, (ax, title) in enumerate(zip(axes, titles), 1):
        _arcs(ax, r.tokens, r.row(r.tokens[i], step), i, title)
    fig.suptitle(OWN_SENTENCE[lang], fontsize=11, color=MUTED)
    fig.tight_layout(w_pad=1.5)
    return fig


@figure("tour-heads")
def heads(lang: str):
    """Four heads on one sentence: each head's weights as a heatmap."""
    r = attend_heads(TOUR_SENTENCES["cat-ball-fun"].text[lang], lang)
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 9.4))
    for h, ax in enumerate(axes.flat):
        w = r.weights[h]                                          # (n, n)
        weights_map(ax, w, r.tokens, r.tokens, rotate=60 if lang == "en" else 0)
        ax.set_title(f"{h + 1}. {HEAD_NAMES[lang][h]}", fontsize=10.5)
    fig.supxlabel(tr(lang, "被看的词（键）；格中数字为百分比", "looked at (key); numbers are percentages"), fontsize=9, color=MUTED)
    fig.supylabel(tr(lang, "正在看的词（查询）", "looking (query)"), fontsize=9, color=MUTED)
    fig.tight_layout(h_pad=1.5, w_pad=1.5)
    return fig


@figure("tour-four-steps")
def four_steps(lang: str):
    """The four steps for 它 / it (round 2): scores, scaled scores, softmax at three divisors, the mix."""
    r, i, step = tour_sentence("cat-ball-fun", lang)
    s = r.steps[step - 1]
    q, k, v = s.q[i], s.k, s.v                                    # (d_k,), (n, d_k), (n, d_model)
    d_k = q.shape[-1]
    n = len(r.tokens)
    y = np.arange(n)
    fig = plt.figure(figsize=(9.6, 0.36 * n + 3.2))
    grid = fig.add_gridspec(2, 2, height_ratios=[0.36 * n + 0.8, 1.6])
    ax = fig.add_subplot(grid[0, 0])
    ax.barh(y - 0.2, s.scores[i], height=0.4, color=MUTED, label="q · k")
    ax.barh(y + 0.2, s.scaled[i], height=0.4, color=BLUE, label=f"÷ √{d_k}")
    ax.set_yticks(y, r.tokens)
    ax.invert_yaxis()
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.set_title(tr(lang, "① 打分  ② 除以 √dₖ", "① scores  ② divided by √dₖ"))
    ax = fig.add_subplot(grid[0, 1], sharey=ax)
    divisors = [0.5, math.sqrt(d_k), 4.0]
    colours = [ACCENT, BLUE, TEAL]
    for (tau, colour, dy) in zip(divisors, colours, (-0.27, 0, 0.27)):
        _, w = scaled_dot_product_attention(q[None], k, v, scale=1.0 / tau)   # (1, n)
        ax.barh(y + dy, w[0], height=0.26, color=colour, label=tr(lang, f"除以 {tau:.2f}", f"÷ {tau:.2f}"))
    ax.set_xlim(0, 1)
    ax.tick_params(labelleft=False)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.set_title(tr(lang, "③ softmax：除数越小越尖锐", "③ softmax: smaller divisor, sharper"))
    ax = fig.add_subplot(grid[1, :])
    w = s.weights[i]                                              # (n,)
    left = 0.0
    for j in np.argsort(-w):
        ax.barh(0, w[j], left=left, color=ACCENT if j == np.argmax(w) else BLUE, edgecolor="white", height=0.8)
        if w[j] > 0.1:
            ax.text(left + w[j] / 2, 0, f"{r.tokens[j]} {w[j]:.1%}", ha="center", va="center", color="white", fontsize=10)
        left += w[j]
    out = s.out[i]
    names = FEATURE_NAMES[lang]
    listed = [f"{names[f]} {out[f]:.2f}" for f in np.argsort(-out) if out[f] >= 0.005]
    ax.set_xlabel(tr(lang, "混合结果：", "the mix: ") + tr(lang, "，", ", ").join(listed), fontsize=9.5, color=INK)
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.6, 0.6)
    ax.set_yticks([])
    ax.set_xticks([])
    ax.spines["left"].set_visible(False)
    ax.spines["bottom"].set_visible(False)
    ax.set_title(tr(lang, "④ 按份额（除以 √dₖ 时）把值 v 加权求和", "④ the values v, weighted by the shares (divisor √dₖ)"))
    fig.tight_layout(h_pad=1.5, w_pad=1.5)
    return fig


@figure("tour-positions")
def positions(lang: str):
    """Sinusoidal positional encoding: a few dimensions over positions, and position-to-position dot products."""
    n, d = 50, 16
    pe = sinusoidal_positional_encoding(n, d)                     # (n, d)
    sim = pe @ pe.T                                               # (n, d) @ (d, n) -> (n, n)
    fig, axes = plt.subplots(1, 2, figsize=(10.4, 3.9), gridspec_kw={"width_ratios": [1.5, 1]})
    ax = axes[0]
    for j, colour in zip((2, 3, 4, 6), (ACCENT, BLUE, TEAL, MUTED)):
        fn = "sin" if j % 2 == 0 else "cos"
        ax.plot(range(n), pe[:, j], color=colour, lw=1.8, label=tr(lang, f"维度 {j}（{fn}）", f"dim {j} ({fn})"))
    ax.axhline(0, color=GRID, lw=1)
    ax.set_xlabel(tr(lang, "位置", "position"), labelpad=1)
    ax.legend(fontsize=8, frameon=False, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    ax.set_title(tr(lang, "每一维是一条不同快慢的波", "each dimension is a wave of its own speed"))
    ax = axes[1]
    image = matrix_image(ax, sim, cmap="Blues")
    ax.set_xlabel(tr(lang, "位置 B", "position B"))
    ax.set_ylabel(tr(lang, "位置 A", "position A"))
    fig.colorbar(image, ax=ax, shrink=0.8)
    ax.set_title(tr(lang, "PE[A]·PE[B]：同一条斜线上处处相等", "PE[A]·PE[B]: equal along each diagonal"), fontsize=10.5)
    fig.tight_layout(w_pad=2)
    return fig
