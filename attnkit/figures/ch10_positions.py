"""Figures of chapter 10.3-10.5: RoPE's turning pairs, sliding windows, attention sinks."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle
import numpy as np

from ..core import causal_mask, softmax
from ..kv_bytes import MODELS
from ..rope import EXAMPLE_K, EXAMPLE_Q, pair_scores, rope_frequencies, rope_pairs, rope_score_table
from ..sinks import softmax_with_sink, streaming_mask
from ..window import receptive_field, receptive_field_by_depth, sliding_window_mask
from ._style import ACCENT, BLUE, GRID, INK, MUTED, matrix_image, tr
from . import figure

# The positions the print form of the "rotate the pairs" widget shows: the same offset, twice.
ROPE_FIGURE_POSITIONS = ((5, 2), (12, 9))
ROPE_TABLE_N = 24            # positions in the score-table figure
WINDOW_N, WINDOW_W = 12, 4   # the mask figure: 12 positions, a window of 4
REACH_LAYERS, REACH_W = 4, 4
SINK_LOGIT = 2.0             # the sink figure's sink logit (as in listing ch10/sink.py)
SINK_SCORES = (0.1, -0.2, 0.0, 0.2)        # one row of scores with no key that fits well
STREAM_N, STREAM_SINKS, STREAM_W = 12, 2, 4


def _minus(text: str) -> str:
    """A label with real minus signs (−), not hyphens."""
    return text.replace("-", "\u2212")


def _cells(ax, n):
    """Thin white lines between the cells of an (n, n) mask, so a reader can count them."""
    ax.set_xticks(np.arange(-0.5, n, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, n, 1), minor=True)
    ax.grid(which="minor", color="white", lw=0.8)
    ax.grid(which="major", visible=False)
    ax.tick_params(which="minor", length=0)


def _arrow(ax, xy, colour, label):
    ax.annotate("", xy=xy, xytext=(0, 0),
                arrowprops=dict(arrowstyle="-|>", color=colour, lw=2, mutation_scale=14))
    ax.text(xy[0] * 1.18, xy[1] * 1.18, label, color=colour, fontsize=10, ha="center", va="center",
            fontweight="bold")


@figure("ch10-rope-pairs")
def rope_pairs_figure(lang: str):
    """Pairs 0 and 1 of the example query and key at (5, 2) and at (12, 9): turned by other
    angles, the same angle between them, the same score."""
    q, k = np.array(EXAMPLE_Q), np.array(EXAMPLE_K)
    w = rope_frequencies(q.shape[0])
    fig, axes = plt.subplots(2, 2, figsize=(7.2, 7.4))
    lim = 1.35 * max(np.abs(rope_pairs(q, 0)).max(), np.abs(rope_pairs(k, 0)).max())
    for row, (i, j) in enumerate(ROPE_FIGURE_POSITIONS):
        qp, kp = rope_pairs(q, i), rope_pairs(k, j)          # (4, 2) each
        parts = pair_scores(q, k, i, j)                     # (4,)
        total = rope_score_table(q, k, i + 1)[i, j]
        for col, p in enumerate((0, 1)):
            ax = axes[row, col]
            ax.add_patch(plt.Circle((0, 0), np.hypot(*qp[p]), fill=False, color=GRID, lw=1))
            ax.add_patch(plt.Circle((0, 0), np.hypot(*kp[p]), fill=False, color=GRID, lw=1, ls="--"))
            _arrow(ax, qp[p], ACCENT, "q")
            _arrow(ax, kp[p], BLUE, "k")
            ax.axhline(0, color=GRID, lw=0.8)
            ax.axvline(0, color=GRID, lw=0.8)
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
            ax.set_aspect("equal")
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set_visible(False)
            ax.set_title(tr(lang, f"i = {i}，j = {j}：第 {p} 对（每步转 {w[p]:g} 弧度）",
                            f"i = {i}, j = {j}: pair {p} ({w[p]:g} rad per step)"), fontsize=10)
            ax.set_xlabel(_minus(tr(lang, f"这一对的贡献 {parts[p]:.3f}", f"this pair adds {parts[p]:.3f}")),
                          fontsize=10, color=INK)
        fig.text(0.5, 0.515 if row == 0 else 0.035,
                 _minus(tr(lang, f"四对加起来：分数 = {total:.4f}", f"all four pairs: score = {total:.4f}")),
                 ha="center", fontsize=11, color=INK, fontweight="bold")
    fig.subplots_adjust(hspace=0.45, top=0.95, bottom=0.1)
    return fig


@figure("ch10-rope-table")
def rope_table(lang: str):
    """rope(q at i) . rope(k at j) for every i, j: constant along each diagonal."""
    table = rope_score_table(EXAMPLE_Q, EXAMPLE_K, ROPE_TABLE_N)   # (n, n)
    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    lim = np.abs(table).max()
    shown = matrix_image(ax, table, cmap="RdBu_r", vmin=-lim, vmax=lim)
    ticks = range(0, ROPE_TABLE_N, 4)
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_yticks(ticks, [str(t) for t in ticks])
    ax.set_xlabel(tr(lang, "键的位置 j", "key position j"))
    ax.set_ylabel(tr(lang, "查询的位置 i", "query position i"))
    ax.set_title(tr(lang, "转过之后的分数：每条对角线（i − j 相同）一个颜色",
                    "Scores after turning: one colour per diagonal (same i − j)"), fontsize=11)
    fig.colorbar(shown, ax=ax, shrink=0.8, label=tr(lang, "分数 q·k", "score q·k"))
    return fig


@figure("ch10-window-mask")
def window_mask(lang: str):
    """The causal mask next to a sliding-window mask."""
    masks = [(causal_mask(WINDOW_N), tr(lang, "因果掩码：看前面全部", "causal: everything before")),
             (sliding_window_mask(WINDOW_N, WINDOW_W),
              tr(lang, f"滑动窗口 {WINDOW_W}：只看最近 {WINDOW_W} 个", f"window {WINDOW_W}: the last {WINDOW_W} only"))]
    return _two_masks(masks, tr(lang, "键的位置", "key position"), tr(lang, "查询的位置", "query position"))


def _two_masks(masks, key_label: str, query_label: str):
    """Two (n, n) masks side by side, each [(mask, title)], a cell per position pair."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 4.0))
    for ax, (mask, title) in zip(axes, masks):
        n = len(mask)
        matrix_image(ax, mask.astype(float), cmap="Blues", vmin=0, vmax=1.25)
        ax.set_title(title, fontsize=10.5)
        ax.set_xticks(range(0, n, 2))
        ax.set_yticks(range(0, n, 2))
        ax.set_xlabel(key_label)
        ax.set_ylabel(query_label)
        _cells(ax, n)
    fig.tight_layout()
    return fig


@figure("ch10-window-reach")
def window_reach(lang: str):
    """Which positions the last token draws on after 1, 2, ... window layers (receptive_field_by_depth)."""
    counts = receptive_field_by_depth(REACH_LAYERS, REACH_W)       # (layers + 1,)
    n = int(counts[-1]) + 3
    fig, ax = plt.subplots(figsize=(7.6, 3.4))
    for layer, c in enumerate(counts):
        for p in range(n):
            colour = ACCENT if p == n - 1 else ("#6b8fd6" if p >= n - c else "#eceff1")
            ax.add_patch(Rectangle((p - 0.45, layer - 0.4), 0.9, 0.8, facecolor=colour, edgecolor="none"))
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylim(REACH_LAYERS + 0.6, -0.6)
    ax.set_aspect("auto")
    ax.set_yticks(range(REACH_LAYERS + 1),
                  [tr(lang, f"{layer} 层后", f"after {layer}") for layer in range(REACH_LAYERS + 1)])
    ax.set_xticks(range(0, n, 2), [str(p) for p in range(0, n, 2)])
    ax.set_xlabel(tr(lang, "位置（最右边是正在看的词元）", "position (the rightmost is the token looking)"))
    for layer, c in enumerate(counts):
        ax.text(n - c - 0.7, layer, str(int(c)), ha="right", va="center", fontsize=10, color=INK)
    ax.set_title(tr(lang, f"窗口 {REACH_W}：每多一层，往回多够到 {REACH_W - 1} 个位置",
                    f"Window {REACH_W}: each layer reaches {REACH_W - 1} positions further back"), fontsize=11)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig.tight_layout()
    return fig


@figure("ch10-window-mistral")
def window_mistral(lang: str):
    """Mistral 7B's reach, layer by layer, from its config (window 4096, 32 layers)."""
    m = MODELS["mistral-7b"]
    counts = np.array([1] + [receptive_field(layers, m.sliding_window)                  # (33,)
                             for layers in range(1, m.n_layers + 1)])
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    ax.plot(range(m.n_layers + 1), counts / 1000, color=BLUE, marker="o", ms=3)
    ax.set_xlabel(tr(lang, "层数", "layers"))
    ax.set_ylabel(tr(lang, "最远够到的位置数（千）", "positions reached (thousands)"))
    ax.annotate(f"{counts[-1]:,}".replace(",", "" if lang == "zh" else ","),
                xy=(m.n_layers, counts[-1] / 1000), xytext=(m.n_layers - 9, counts[-1] / 1000 * 0.93),
                fontsize=10, color=INK, arrowprops=dict(arrowstyle="-", color=MUTED))
    ax.set_title(tr(lang, f"Mistral 7B：窗口 {m.sliding_window}，{m.n_layers} 层",
                    f"Mistral 7B: window {m.sliding_window}, {m.n_layers} layers"), fontsize=11)
    ax.grid(True, color=GRID, lw=0.6)
    fig.tight_layout()
    return fig


@figure("ch10-sink-share")
def sink_share(lang: str):
    """One row of dull scores: plain softmax must hand out 100%; with a sink the row keeps less."""
    scores = np.array(SINK_SCORES)
    plain = softmax(scores)                                         # (4,)
    sunk = softmax_with_sink(scores, SINK_LOGIT)                    # (4,)
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    x = np.arange(len(scores))
    ax.bar(x - 0.2, plain, width=0.38, color=MUTED, label=tr(lang, f"普通 softmax（合计 {plain.sum():.0%}）",
                                                           f"plain softmax (sum {plain.sum():.0%})"))
    ax.bar(x + 0.2, sunk, width=0.38, color=BLUE, label=tr(lang, f"带汇 logit {SINK_LOGIT:g}（合计 {sunk.sum():.0%}）",
                                                          f"with a sink logit {SINK_LOGIT:g} (sum {sunk.sum():.0%})"))
    ax.set_xticks(x, [_minus(tr(lang, f"键 {p + 1}\n分数 {s:g}", f"key {p + 1}\nscore {s:g}")) for p, s in enumerate(scores)])
    ax.set_ylabel(tr(lang, "权重", "weight"))
    ax.set_ylim(0, max(plain.max(), sunk.max()) * 1.45)
    ax.legend(frameon=False, fontsize=9.5, loc="upper left")
    ax.set_title(tr(lang, "没有合适的键：普通 softmax 仍分出 100%，带汇的可以少拿",
                    "No key fits: plain softmax still hands out 100%, a sink lets the row take less"), fontsize=10.5)
    fig.tight_layout()
    return fig


@figure("ch10-sink-streaming")
def sink_streaming(lang: str):
    """A rolling window alone next to StreamingLLM's cache: the first tokens plus the window."""
    masks = [(sliding_window_mask(STREAM_N, STREAM_W), tr(lang, f"只留最近 {STREAM_W} 个", f"the last {STREAM_W} only")),
             (streaming_mask(STREAM_N, STREAM_SINKS, STREAM_W),
              tr(lang, f"开头 {STREAM_SINKS} 个 + 最近 {STREAM_W} 个", f"first {STREAM_SINKS} + last {STREAM_W}"))]
    return _two_masks(masks, tr(lang, "缓存里的键（位置）", "keys in the cache (position)"), tr(lang, "查询的位置", "query position"))
