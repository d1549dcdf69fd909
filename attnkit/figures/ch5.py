"""Figures of chapter 5: attention against the tiny RNN, measured."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from .. import toy
from ..cost import attention_influence_on_last, init_attention, score_bytes, score_matrix
from ..rnn import influence_on_last, init_rnn, random_tokens
from ._style import ACCENT, BLUE, GRID, INK, MUTED, tr, weights_map
from . import figure

LONG_N = 40        # tokens in the long-range figure
LONG_D = 8         # width of tokens and hidden state
LONG_TRIALS = 12   # random models per curve
D_H = 512          # hidden state of the memory figure (a typical size)


def long_range_curves(n=LONG_N, d=LONG_D, trials=LONG_TRIALS):
    """Median influence of each token on the last output: (rnn (n,), attention (n,))."""
    rnn, att = [], []
    for seed in range(trials):
        x = random_tokens(n, d, seed=seed + 1)                            # (n, d)
        rnn.append(influence_on_last(x, *init_rnn(d, d, seed=seed)))
        att.append(attention_influence_on_last(x, *init_attention(d, seed=seed)))
    return np.median(rnn, axis=0), np.median(att, axis=0)


@figure("ch5-long-range")
def long_range(lang: str):
    """How strongly each token moves the last output: RNN fades with distance, attention does not."""
    rnn, att = long_range_curves()
    distance = LONG_N - 1 - np.arange(LONG_N)                             # tokens between s and the last
    fig, ax = plt.subplots(figsize=(7.4, 4.2))
    ax.plot(distance, rnn, color=ACCENT, lw=2.2, marker="o", ms=3, label=tr(lang, "RNN：一步步传过去", "RNN: handed along step by step"))
    ax.plot(distance, att, color=BLUE, lw=2.2, marker="o", ms=3, label=tr(lang, "注意力：一步直达", "attention: one direct step"))
    ax.set_yscale("log")
    ax.set_xlabel(tr(lang, "这个词离最后一个词有多远（词数）", "how far the token is from the last one (tokens)"))
    ax.set_ylabel(tr(lang, "对最后输出的影响 ‖∂输出/∂词‖", "influence on the last output ‖∂out/∂token‖"))
    ax.set_title(tr(lang, f"{LONG_N} 个词，{LONG_TRIALS} 个随机模型的中位数", f"{LONG_N} tokens, median of {LONG_TRIALS} random models"), loc="left")
    ax.grid(True, color=GRID, lw=0.6)
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


@figure("ch5-memory")
def memory(lang: str):
    """What each model keeps while reading n tokens: a fixed hidden state against an n x n matrix."""
    ns = np.array([16, 64, 256, 1024, 4096, 16384, 65536])
    measured = [n for n in ns if n <= 1024]
    fig, ax = plt.subplots(figsize=(7.4, 4.2))
    ax.plot(ns, [score_bytes(int(n)) for n in ns], color=BLUE, lw=2,
            label=tr(lang, "注意力：n×n 权重矩阵（每头每层）", "attention: the n×n weights (per head, per layer)"))
    ax.plot(measured, [score_matrix(int(n)).nbytes for n in measured], "o", color=BLUE, ms=7,
            label=tr(lang, "实际分配的数组（.nbytes）", "arrays really allocated (.nbytes)"))
    ax.plot(ns, [D_H * 8] * len(ns), color=ACCENT, lw=2,
            label=tr(lang, f"RNN：隐藏状态，{D_H} 个数，不随 n 变", f"RNN: the hidden state, {D_H} numbers, whatever n is"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(tr(lang, "句子长度 n（词元）", "sentence length n (tokens)"))
    ax.set_ylabel(tr(lang, "字节（float64）", "bytes (float64)"))
    ax.grid(True, color=GRID, lw=0.6)
    ax.legend(frameon=False, fontsize=9.5, loc="upper left")
    ax.set_title(tr(lang, "n 翻倍，矩阵变成 4 倍", "double n and the matrix grows fourfold"), loc="left")
    fig.tight_layout()
    return fig


# The toy sentence, its pronoun and the word it should find, per language (5.3 reads this figure).
READ_HEATMAP = {"zh": ("cat-ball-hungry", "它", "小猫"), "en": ("animal-street-tired", "it", "animal")}


@figure("ch5-read-heatmap")
def read_heatmap(lang: str):
    """How to read an attention heatmap, on the toy model's pronoun sentence of the page's language."""
    key, it, animal = READ_HEATMAP[lang]
    r = toy.run(key)
    w = r.weights                                                         # (n, n) step 2
    n = len(r.tokens)
    fig, ax = plt.subplots(figsize=(7.0, 6.4))
    weights_map(ax, w, r.tokens, r.tokens, fontsize=10, rotate=60)
    i, j = r.index(it), r.index(animal)
    ax.add_patch(Rectangle((-0.5, i - 0.5), n, 1, fill=False, edgecolor=ACCENT, lw=2))
    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=INK, lw=2.2))
    ax.set_xlabel(tr(lang, "列：被看的词（键）", "column: the word looked at (key)"), color=MUTED)
    ax.set_ylabel(tr(lang, "行：正在看的词（查询）；每行加起来是 100", "row: the word looking (query); each row adds up to 100"), color=MUTED)
    ax.set_title(tr(lang, f"橙框：“{it}”这一行；黑框：“{it}”看“{animal}”，{100 * w[i, j]:.0f}%",
                    f"orange: the row of {it}; black: {it} looks at {animal}, {100 * w[i, j]:.0f}%"), loc="left")
    fig.tight_layout()
    return fig
