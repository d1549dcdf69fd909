"""Figures of chapter 10, sections 10.1-10.2: the KV-cache bill and the three ways to shrink it
(ids ch10-kv-*, ch10-gqa-*; the other figures of chapter 10 are in other ch10 modules)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

from ..grouped import repeat_kv
from ..kv_bytes import MODELS, kv_bytes_per_token, kv_cache_bytes, kv_cache_bytes_if
from ..serving import DISPLAY_NAMES, binary_size
from ._style import ACCENT, BLUE, GRID, INK, MUTED, TEAL, tr
from . import figure

LONG_CONTEXT = 131072        # the long context of 10.1: 128K tokens
GQA_HEADS = 8                # query heads in the sharing figure
GQA_KV = (8, 2, 1)           # its three panels: MHA, GQA, MQA


def _attention_label(lang, name):
    m = MODELS[name]
    if m.attention == "mla":
        return "MLA"
    if m.n_kv_heads == m.n_heads:
        return "MHA"
    return f"GQA {m.n_heads}/{m.n_kv_heads}"


@figure("ch10-kv-per-token")
def kv_per_token(lang: str):
    """Bytes of KV cache per token for the real models: as built, and with every head its own keys and values."""
    names = list(MODELS)
    own = np.array([kv_bytes_per_token(n, "bf16") for n in names], dtype=float)            # (models,)
    mha = np.array([kv_cache_bytes_if(n, "mha", 1, "bf16") for n in names], dtype=float)   # (models,) one token, no window
    long = np.array([kv_bytes_per_token(n, "bf16", context=LONG_CONTEXT) for n in names])  # (models,) averaged over 128K
    y = np.arange(len(names))[::-1]
    fig, ax = plt.subplots(figsize=(7.8, 5.6))
    ax.barh(y, mha / 1024, height=0.7, color=GRID, edgecolor=MUTED, lw=0.8,
            label=tr(lang, "假如每个查询头都有自己的键和值（MHA）", "if every query head had its own keys and values (MHA)"))
    ax.barh(y, own / 1024, height=0.42, color=BLUE, label=tr(lang, "模型实际的做法", "as the model is built"))
    windowed = long < own
    ax.plot(long[windowed] / 1024, y[windowed], "D", color=ACCENT, ms=6,
            label=tr(lang, "128K 上下文里平均每个词元（滑动窗口填满之后）", "per token over a 128K context (windows full)"))
    for yi, o, m_, name in zip(y, own, mha, names):
        ax.text(o / 1024 * 1.08, yi - 0.02, binary_size(o), va="center", fontsize=8.5, color=INK)
        if m_ > o:
            ax.text(m_ / 1024 * 1.08, yi + 0.02, binary_size(m_), va="center", fontsize=8, color=MUTED)
    ax.set_yticks(y, [f"{DISPLAY_NAMES[n]}  ({_attention_label(lang, n)})" for n in names], fontsize=9.5)
    ax.set_xscale("log", base=2)
    ticks = 2.0 ** np.arange(1, 14, 2)
    ax.set_xticks(ticks, [binary_size(t * 1024) for t in ticks])
    ax.set_xlim(2, 2 ** 14)
    ax.set_xlabel(tr(lang, "每个词元的 KV 缓存（bf16，所有层合计，对数刻度）",
                     "KV cache per token (bf16, all layers, log scale)"))
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.01), fontsize=9, frameon=False)
    ax.grid(axis="x", color=GRID, lw=0.6)
    ax.set_axisbelow(True)
    fig.tight_layout()
    return fig


def _head_box(ax, x, y, text, colour, w=0.8, h=0.55):
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02,rounding_size=0.08",
                                facecolor=colour, edgecolor=INK, lw=0.8))
    ax.text(x, y, text, ha="center", va="center", fontsize=9, color="white")


@figure("ch10-gqa-groups")
def gqa_groups(lang: str):
    """Which key/value head each query head reads, for MHA, GQA and MQA (attnkit.grouped.repeat_kv)."""
    fig, axes = plt.subplots(1, len(GQA_KV), figsize=(9.6, 3.4))
    titles = {GQA_HEADS: "MHA", 1: "MQA"}
    for ax, n_kv in zip(axes, GQA_KV):
        heads = np.arange(n_kv, dtype=float).reshape(n_kv, 1, 1)                 # (n_kv, 1, 1): head g holds g
        read = repeat_kv(heads, GQA_HEADS // n_kv).ravel().astype(int)            # (GQA_HEADS,): whom each reads
        xq = np.linspace(0.5, 7.5, GQA_HEADS)
        xkv = np.array([xq[read == g].mean() for g in range(n_kv)])               # under its group
        for h, g in enumerate(read):
            ax.plot([xq[h], xkv[g]], [2.2, 0.8], color=MUTED, lw=1)
        for h in range(GQA_HEADS):
            _head_box(ax, xq[h], 2.5, f"Q{h + 1}", ACCENT, w=0.78)
        for g in range(n_kv):
            _head_box(ax, xkv[g], 0.5, f"KV{g + 1}", TEAL, w=0.9 if n_kv > 4 else 1.3)
        name = titles.get(n_kv, "GQA")
        ax.set_title(f"{name}: n_kv_heads = {n_kv}", fontsize=11)
        ax.text(4.0, -0.35, tr(lang, f"每个词元每层存 {2 * n_kv} 个头宽的向量", f"caches {2 * n_kv} head-wide vectors a token per layer"),
                ha="center", fontsize=9, color=INK)
        ax.set_xlim(-0.1, 8.1)
        ax.set_ylim(-0.6, 3.0)
        ax.axis("off")
    fig.text(0.01, 0.8, tr(lang, "查询头", "query\nheads"), fontsize=9.5, color=ACCENT, va="center")
    fig.text(0.01, 0.3, tr(lang, "键/值头", "key/value\nheads"), fontsize=9.5, color=TEAL, va="center")
    fig.tight_layout(rect=(0.06, 0, 1, 1))
    return fig


@figure("ch10-kv-table")
def kv_table_figure(lang: str):
    """The printed form of the KV-cache calculator: each model's cache for one 128K-token sequence."""
    names = list(MODELS)
    header = [tr(lang, "模型", "model"), tr(lang, "每个词元", "per token"),
              tr(lang, "128K：实际", "128K: as built"), tr(lang, "128K：若 MHA", "128K: if MHA"),
              tr(lang, "128K：若 MQA", "128K: if MQA")]
    rows = []
    for n in names:
        m = MODELS[n]
        mqa = "—" if m.attention == "mla" else binary_size(kv_cache_bytes_if(n, "mqa", LONG_CONTEXT, "bf16"))
        rows.append([f"{DISPLAY_NAMES[n]} ({_attention_label(lang, n)})", binary_size(kv_bytes_per_token(n, "bf16")),
                     binary_size(kv_cache_bytes(n, LONG_CONTEXT, "bf16")),
                     binary_size(kv_cache_bytes_if(n, "mha", LONG_CONTEXT, "bf16")), mqa])
    fig, ax = plt.subplots(figsize=(8.4, 3.9))
    ax.axis("off")
    table = ax.table(cellText=rows, colLabels=header, loc="center", cellLoc="right", colLoc="right",
                     colWidths=[0.34, 0.15, 0.17, 0.17, 0.17])
    table.auto_set_font_size(False)
    table.set_fontsize(9.5)
    table.scale(1, 1.45)
    for (r, c), cell in table.get_celld().items():
        cell.set_edgecolor(GRID)
        if c == 0:
            cell.set_text_props(ha="left")
            cell._loc = "left"
        if r == 0:
            cell.set_text_props(fontweight="bold", color=INK)
        if c == 2 and r > 0:
            cell.set_text_props(color=BLUE, fontweight="bold")
    ax.set_title(tr(lang, "一条 128K 词元的序列要多少 KV 缓存（bf16）", "The KV cache of one 128K-token sequence (bf16)"),
                 fontsize=11.5)
    fig.tight_layout()
    return fig
