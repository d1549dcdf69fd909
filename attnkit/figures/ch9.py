"""Figures of chapter 9: the decoder, cross-attention, the KV cache, Table 1, tiled attention."""

from __future__ import annotations


import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

from .. import toy
from ..core import causal_mask, scaled_dot_product_attention
from ..cost import layer_complexity, layer_macs
from ..kvcache import DEMO_MODEL, DEMO_PROMPT, demo_runs
from ..qa import qa_example
from ..tiled import EXAMPLE_SCORES, attention_peak_bytes, online_softmax_trace
from ._style import ACCENT, BLUE, GRID, INK, MUTED, TEAL, tr, weights_map
from . import figure

CAUSAL_EXAMPLE = {"zh": "cat-ball-hungry", "en": "animal-street-tired"}

GEN_NEW = 160               # tokens generated in figure ch9-kv-work

TILED_NS = [128, 256, 512, 1024, 2048]
TILED_D_K = 64
TILED_BLOCK = 64

TRACE_BLOCK = 4             # the block size of the online-softmax figure and listing ch9/tiled.py


# --------------------------------------------------------------------------
# 9.1 the decoder
# --------------------------------------------------------------------------

def _box(ax, x, y, w, h, text, color, fontsize=10):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.08",
                                facecolor=color, edgecolor=INK, lw=1, alpha=0.9))
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fontsize, color="white")


def _arrow(ax, a, b, color=INK, style="-|>", lw=1.3, rad=0.0):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle=style, mutation_scale=12, color=color, lw=lw,
                                 connectionstyle=f"arc3,rad={rad}"))


@figure("ch9-encoder-decoder")
def encoder_decoder(lang: str):
    """The paper's encoder-decoder, reduced to its three uses of attention."""
    fig, ax = plt.subplots(figsize=(7.6, 5.2))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 7.4)
    ax.axis("off")
    # encoder column (left)
    ax.add_patch(Rectangle((0.5, 1.6), 3.6, 4.3, facecolor="none", edgecolor=MUTED, lw=1, ls="--"))
    ax.text(2.3, 6.05, tr(lang, "编码器 × N", "encoder × N"), ha="center", fontsize=11, color=INK,
            fontweight="bold")
    _box(ax, 0.8, 2.0, 3.0, 1.0, tr(lang, "① 自注意力\n每个词看整句", "① self-attention\nevery word sees all"), BLUE)
    _box(ax, 0.8, 3.9, 3.0, 0.9, tr(lang, "前馈网络", "feed-forward"), MUTED)
    _arrow(ax, (2.3, 3.0), (2.3, 3.9))
    ax.text(2.3, 1.0, tr(lang, "原文（例如要翻译的句子）", "source (e.g. the sentence to translate)"),
            ha="center", fontsize=9.5, color=INK)
    _arrow(ax, (2.3, 1.25), (2.3, 2.0))
    # decoder column (right)
    ax.add_patch(Rectangle((5.5, 0.9), 4.1, 5.6, facecolor="none", edgecolor=MUTED, lw=1, ls="--"))
    ax.text(5.5, 6.65, tr(lang, "解码器 × N", "decoder × N"), ha="left", fontsize=11, color=INK,
            fontweight="bold")                            # left of the output arrow at x = 7.55
    _box(ax, 5.8, 1.3, 3.5, 1.0, tr(lang, "② 带掩码的自注意力\n只看已写出的词", "② masked self-attention\nonly words written so far"), ACCENT)
    _box(ax, 5.8, 3.0, 3.5, 1.0, tr(lang, "③ 交叉注意力\nQ 来自这里，K、V 来自编码器", "③ cross-attention\nQ from here, K and V from the encoder"), TEAL, fontsize=9.5)
    _box(ax, 5.8, 4.7, 3.5, 0.9, tr(lang, "前馈网络", "feed-forward"), MUTED)
    _arrow(ax, (7.55, 2.3), (7.55, 3.0))
    _arrow(ax, (7.55, 4.0), (7.55, 4.7))
    ax.text(7.55, 0.35, tr(lang, "已经写出的词（右移一位）", "words written so far (shifted right)"),
            ha="center", fontsize=9.5, color=INK)
    _arrow(ax, (7.55, 0.6), (7.55, 1.3))
    _arrow(ax, (7.55, 5.6), (7.55, 7.3))
    ax.text(7.75, 7.0, tr(lang, "下一个词的概率", "next-word probabilities"), fontsize=9.5, color=INK)
    # encoder output feeds every cross-attention
    _arrow(ax, (3.8, 4.35), (5.8, 3.5), color=TEAL, lw=2, rad=-0.15)
    ax.text(4.8, 4.75, tr(lang, "编码器的输出\n（K、V）", "encoder\noutput (K, V)"), ha="center",
            fontsize=9, color=TEAL)                       # centred in the gap between the frames
    fig.tight_layout()
    return fig


@figure("ch9-causal")
def causal(lang: str):
    """The same attention step without and with the causal mask: the triangle.

    The two maps are stacked, 4.8 inches wide, with 9 pt numbers and more, so a 375 px phone shows
    them without zooming (tests/test_figure_text.py INLINE); each number is in ink or white,
    whichever reads better on its cell (weights_map)."""
    r = toy.run(CAUSAL_EXAMPLE[lang], steps=1)
    step = r.steps[0]
    n = len(r.tokens)
    _, w_causal = scaled_dot_product_attention(step.q, step.k, step.v, mask=causal_mask(n))  # (n, n)
    fig, axes = plt.subplots(2, 1, figsize=(4.8, 9.4 if lang == "en" else 8.4))
    rot = 60 if lang == "en" else 0
    for ax, w, title in ((axes[0], step.weights, tr(lang, "编码器：每个词看整句", "encoder: every word sees all")),
                         (axes[1], w_causal, tr(lang, "解码器：只看自己和前面（因果掩码）", "decoder: itself and earlier only\n(causal mask)"))):
        weights_map(ax, w, r.tokens, r.tokens, fontsize=10, rotate=rot, number_size=9)
        ax.set_title(title, loc="left", fontsize=11)
    for i in range(n):                                    # shade the cells the mask rules out
        for j in range(i + 1, n):
            axes[1].add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=GRID, edgecolor="white",
                                        lw=0.5, hatch="//", alpha=0.6))
    i = r.index(toy.SENTENCES[CAUSAL_EXAMPLE[lang]].focus)
    for ax in axes:
        ax.add_patch(Rectangle((-0.5, i - 0.5), n, 1, facecolor="none", edgecolor=ACCENT, lw=2))
    fig.tight_layout(h_pad=1.2)
    return fig


@figure("ch9-cross-weights")
def cross_weights(lang: str):
    """Cross-attention weights of the toy question: question words against passage words."""
    ex = qa_example(lang)
    fig, ax = plt.subplots(figsize=(7.6, 3.2 if lang == "zh" else 3.8))
    weights_map(ax, ex.weights, ex.question, ex.passage, fontsize=10, rotate=0)
    ax.set_xlabel(tr(lang, "原文的词：提供 K 和 V（记忆）", "passage words: give K and V (the memory)"), fontsize=10)
    ax.set_ylabel(tr(lang, "问题的词：提供 Q", "question words: give Q"), fontsize=10)
    where = ex.question[-1] if lang == "zh" else ex.question[0]
    i, j = ex.question.index(where), ex.passage.index(ex.top(where))
    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="none", edgecolor=ACCENT, lw=2.5))
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------
# 9.3 the KV cache
# --------------------------------------------------------------------------

@figure("ch9-kv-work")
def kv_work(lang: str):
    """Multiply-adds spent on each new token, with and without the KV cache (counted).

    Drawn 4.8 inches wide with 10 pt text and more, so a 375 px phone shows it without zooming
    (tests/test_figure_text.py INLINE)."""
    plain, cached = demo_runs(GEN_NEW)
    pos = np.arange(len(DEMO_PROMPT), len(DEMO_PROMPT) + GEN_NEW)     # length of the prefix read
    fig, ax = plt.subplots(figsize=(4.8, 3.9))
    ax.plot(pos, plain.macs / 1e6, color=ACCENT, lw=2.2,
            label=tr(lang, "不用缓存：每步把整段重算一遍", "no cache: recompute the whole prefix"))
    ax.plot(pos[1:], cached.macs[1:] / 1e6, color=BLUE, lw=2.2,
            label=tr(lang, "KV 缓存：每步只算新词这一行", "KV cache: only the new token's row"))
    for y, color in ((plain.macs[-1], ACCENT), (cached.macs[-1], BLUE)):
        ax.annotate(f"{y / 1e6:.3f}", (pos[-1], y / 1e6), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=10, color=color)
    ax.set_xlim(0, pos[-1] * 1.22)
    ax.tick_params(labelsize=10)
    ax.set_xlabel(tr(lang, "已经有的词元数 n", "tokens so far n"), fontsize=10.5)
    ax.set_ylabel(tr(lang, "这一个新词的乘加次数（百万）", "multiply-adds for this one\ntoken (millions)"), fontsize=10.5)
    ax.set_title(tr(lang, f"{DEMO_MODEL['n_layers']} 层、d_model = {DEMO_MODEL['d_model']} 的小解码器，\n逐个数出来",
                    f"a {DEMO_MODEL['n_layers']}-layer decoder, d_model = {DEMO_MODEL['d_model']},\ncounted step by step"),
                 loc="left", fontsize=11)
    ax.grid(True, color=GRID, lw=0.6)
    ax.legend(frameon=False, fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------
# 9.4 Table 1
# --------------------------------------------------------------------------

@figure("ch9-table1")
def table1_figure(lang: str):
    """Left: Table 1's complexity per layer against n (d = 512). Right: one layer's work by part."""
    d = 512
    ns = np.unique(np.logspace(4, 14, 41, base=2).astype(int))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.6, 4.3), gridspec_kw={"width_ratios": [1.25, 1]})
    for kind, color, label in (
            ("self-attention", BLUE, tr(lang, "自注意力 n²·d", "self-attention n²·d")),
            ("recurrent", ACCENT, tr(lang, "循环层 n·d²", "recurrent n·d²")),
            ("convolutional", TEAL, tr(lang, "卷积层 k·n·d²（k = 3）", "convolution k·n·d² (k = 3)"))):
        ax.plot(ns, [layer_complexity(kind, int(n), d) for n in ns], color=color, lw=2, label=label)
    ax.axvline(d, color=MUTED, lw=1, ls="--")
    ax.text(d * 1.1, layer_complexity("self-attention", 16, d) * 2,
            tr(lang, f"n = d = {d}\n交点", f"n = d = {d}\ncrossover"), fontsize=9, color=MUTED)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(tr(lang, "序列长度 n", "sequence length n"))
    ax.set_ylabel(tr(lang, "每层乘加次数（主项）", "multiply-adds per layer (leading term)"))
    ax.set_title(tr(lang, f"论文表 1，d = {d}", f"the paper's Table 1, d = {d}"), loc="left")
    ax.grid(True, color=GRID, lw=0.6)
    ax.legend(frameon=False, fontsize=9)

    lengths = [512, 4096]
    parts = (("projections", MUTED, tr(lang, "Q、K、V、输出投影", "Q, K, V, output projections")),
             ("feed_forward", TEAL, tr(lang, "前馈网络", "feed-forward")),
             ("scores", BLUE, tr(lang, "QKᵀ 得分（n²）", "QKᵀ scores (n²)")),
             ("weighted_sum", ACCENT, tr(lang, "权重 × V（n²）", "weights × V (n²)")))
    for x, n in enumerate(lengths):
        m = layer_macs(n)
        bottom = 0.0
        for key, color, label in parts:
            share = m[key] / m["total"]
            bx.bar(x, share, bottom=bottom, color=color, width=0.55, label=label if x == 0 else None)
            bx.text(x, bottom + share / 2, f"{100 * share:.1f}%", ha="center", va="center",
                    fontsize=9, color="white")
            bottom += share
    bx.set_xticks(range(len(lengths)), [f"n = {n}" for n in lengths])
    bx.set_ylim(0, 1)
    bx.set_yticks([0, 0.5, 1], ["0", "50%", "100%"])
    bx.set_title(tr(lang, "一层的计算量分给谁（d_model 512，d_ff 2048）",
                    "one layer's work by part (d_model 512, d_ff 2048)"), loc="left", fontsize=10.5)
    bx.legend(frameon=False, fontsize=8.5, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------
# 9.5 tiled attention
# --------------------------------------------------------------------------

@figure("ch9-online-softmax")
def online_softmax(lang: str):
    """One row of scores visited block by block: the running max and the running sum."""
    scores = np.array(EXAMPLE_SCORES)
    t = online_softmax_trace(scores, TRACE_BLOCK)
    fig, axes = plt.subplots(len(t) + 1, 1, figsize=(7.6, 2.0 * (len(t) + 1)), sharex=True)
    x = np.arange(len(scores))
    for b, ax in enumerate(axes[:-1]):
        seen = x < t.stops[b]
        colors = [BLUE if s else GRID for s in seen]
        colors = [ACCENT if t.starts[b] <= j < t.stops[b] else c for j, c in enumerate(colors)]
        ax.bar(x, scores, color=colors, width=0.7)
        ax.axhline(t.running_max[b], color=INK, lw=1.2, ls="--")
        ax.text(-0.6, t.running_max[b] + 0.15, f"m = {t.running_max[b]:.1f}",
                va="bottom", fontsize=9.5, color=INK)
        ax.set_ylim(min(scores) - 0.5, max(scores) + 1.2)
        ax.set_ylabel(tr(lang, "得分", "score"), fontsize=9)
        rescaled = ""
        if b and t.running_max[b] > t.running_max[b - 1]:
            factor = np.exp(t.running_max[b - 1] - t.running_max[b])
            rescaled = tr(lang, f"；新的最大值，旧的和先乘 e^({t.running_max[b - 1]:.1f}−{t.running_max[b]:.1f}) = {factor:.3f}",
                          f"; a new max, so the old sum is first multiplied by e^({t.running_max[b - 1]:.1f}−{t.running_max[b]:.1f}) = {factor:.3f}")
        ax.set_title(tr(lang, f"第 {b + 1} 块（橙色）：l = {t.running_sum[b]:.3f}{rescaled}",
                        f"block {b + 1} (orange): l = {t.running_sum[b]:.3f}{rescaled}"),
                     loc="left", fontsize=9.5)
        ax.grid(True, axis="y", color=GRID, lw=0.6)
    ax = axes[-1]
    ax.bar(x, t.weights, color=TEAL, width=0.7)
    ax.set_ylabel(tr(lang, "权重", "weight"), fontsize=9)
    ax.set_title(tr(lang, "最后：权重 = e^(得分 − m) / l，和一次算完的 softmax 相同",
                    "at the end: weight = e^(score − m) / l, the same as softmax in one go"),
                 loc="left", fontsize=9.5)
    ax.set_xticks(x, [str(j + 1) for j in x])
    ax.set_xlabel(tr(lang, "键的编号", "key number"))
    ax.grid(True, axis="y", color=GRID, lw=0.6)
    fig.tight_layout()
    return fig


@figure("ch9-tiled-memory")
def tiled_memory(lang: str):
    """Extra memory at the peak, measured with tracemalloc: full against tiled attention."""
    full, tiled = attention_peak_bytes(TILED_NS, d_k=TILED_D_K, block_size=TILED_BLOCK)
    # two significant digits: tracemalloc also counts a few hundred bytes of Python objects
    # that depend on what the process did before, which must not change the drawn SVG
    sig2 = lambda a: np.array([float(f"{x:.2g}") for x in a])            # noqa: E731
    full, tiled = sig2(full), sig2(tiled)
    fig, ax = plt.subplots(figsize=(7.4, 4.2))
    ax.plot(TILED_NS, full / 2**20, "o-", color=ACCENT, lw=2,
            label=tr(lang, "一次算完：造出 n×n 的表", "all at once: builds the n×n attention matrix"))
    ax.plot(TILED_NS, tiled / 2**20, "o-", color=BLUE, lw=2,
            label=tr(lang, f"分块：每块 {TILED_BLOCK} 个键", f"tiled: {TILED_BLOCK} keys a block"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(TILED_NS, [str(n) for n in TILED_NS])
    ax.set_xlabel(tr(lang, "序列长度 n", "sequence length n"))
    ax.set_ylabel(tr(lang, "峰值额外内存（MiB，实测）", "peak extra memory (MiB, measured)"))
    ax.set_title(tr(lang, f"用 Python 自带的内存计数实测，dₖ = {TILED_D_K}，64 位浮点数",
                    f"measured with Python's tracemalloc, dₖ = {TILED_D_K}, float64"), loc="left")
    ax.grid(True, color=GRID, lw=0.6, which="both")
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig
