"""Figures of chapter 10, sections 10.1-10.2: the KV-cache bill and the three ways to shrink it
(ids ch10-kv-*, ch10-gqa-*, ch10-mla; the other figures of chapter 10 are in other ch10 modules)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

from ..grouped import repeat_kv
from ..kv_bytes import MODELS, kv_bytes_per_token, kv_cache_bytes, kv_cache_bytes_if
from ..mla import mha_cache_numbers, mla_cache_numbers
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
        ax.set_title(tr(lang, f"{name}：n_kv_heads = {n_kv}", f"{name}: n_kv_heads = {n_kv}"), fontsize=11)
        ax.text(4.0, -0.35, tr(lang, f"每个词元每层存 {2 * n_kv} 个头宽的向量", f"caches {2 * n_kv} head-wide vectors a token per layer"),
                ha="center", fontsize=9, color=INK)
        ax.set_xlim(-0.1, 8.1)
        ax.set_ylim(-0.6, 3.0)
        ax.axis("off")
    fig.text(0.01, 0.8, tr(lang, "查询头", "query\nheads"), fontsize=9.5, color=ACCENT, va="center")
    fig.text(0.01, 0.3, tr(lang, "键/值头", "key/value\nheads"), fontsize=9.5, color=TEAL, va="center")
    fig.tight_layout(rect=(0.06, 0, 1, 1))
    return fig


MLA_MODEL = "deepseek-v3"    # the model of the MLA figure
MLA_HEADS_DRAWN = (1, 2)     # heads drawn before the dots; the last head is drawn after them


def _box(ax, x, y, w, h, text, colour, *, stored=True, fontsize=10):
    """A rounded box centred at (x, y): filled when it is stored, dashed outline when it is only computed."""
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02,rounding_size=0.1",
                                facecolor=colour if stored else "white", edgecolor=colour if not stored else INK,
                                lw=1.2 if not stored else 0.8, ls="--" if not stored else "-"))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, color="white" if stored else colour)


def _arrow(ax, start, end, colour=MUTED, ls="-"):
    ax.annotate("", xy=end, xytext=start,
                arrowprops=dict(arrowstyle="-|>", color=colour, lw=1.1, ls=ls, shrinkA=0, shrinkB=0,
                                mutation_scale=11))


@figure("ch10-mla")
def mla_flow(lang: str):
    """One token in one layer of DeepSeek-V3's MLA: what is cached (c and k_rope), what every head makes from it."""
    m = MODELS[MLA_MODEL]
    d_c, d_rope, d_nope, d_v = m.kv_lora_rank, m.qk_rope_head_dim, m.qk_nope_head_dim, m.v_head_dim
    cached = mla_cache_numbers(d_c, d_rope)                                 # c and k_rope: per token per layer
    expanded = mha_cache_numbers(m.n_heads, d_nope + d_rope, d_v)         # every head's own key and value
    fig, ax = plt.subplots(figsize=(9.2, 5.0))
    ax.set_xlim(0, 12.9)
    ax.set_ylim(-0.1, 7.0)
    ax.axis("off")

    # The token, and the two things it leaves in the cache.
    ax.text(0.8, 5.75, tr(lang, "一个词元", "one token"), ha="center", va="center", fontsize=10, color=INK)
    _box(ax, 0.8, 4.2, 1.0, 2.6, "$x$", MUTED, fontsize=16)
    ax.text(0.8, 2.7, f"$d_{{\\mathrm{{model}}}}$\n= {m.d_model}", ha="center", va="top", fontsize=10, color=INK)
    ax.add_patch(FancyBboxPatch((2.95, 2.55), 2.9, 3.55, boxstyle="round,pad=0.05,rounding_size=0.15",
                                facecolor="#fbe9e7", edgecolor=ACCENT, lw=1.4, ls="--"))
    ax.text(4.4, 6.45, tr(lang, "缓存（每个词元、每一层）", "cached (per token, per layer)"),
            ha="center", va="center", fontsize=10.5, color=ACCENT, fontweight="bold")
    _box(ax, 4.4, 5.15, 2.3, 0.75, f"$c$: {d_c}", INK, fontsize=12)
    _box(ax, 4.4, 3.45, 2.3, 0.6, f"$k_{{\\mathrm{{rope}}}}$: {d_rope}", BLUE, fontsize=11)
    ax.text(4.4, 4.45, tr(lang, "潜向量", "the latent"), ha="center", va="center", fontsize=10, color=INK)
    ax.text(4.4, 2.85, tr(lang, "所有头共用", "shared by all heads"), ha="center", va="center", fontsize=10, color=BLUE)
    _arrow(ax, (1.35, 4.9), (3.2, 5.15))
    ax.text(2.25, 5.3, "$W_{DKV}$", ha="center", va="bottom", fontsize=10.5, color=INK)
    ax.text(2.25, 4.78, "RMSNorm", ha="center", va="top", fontsize=9, color=MUTED)
    _arrow(ax, (1.35, 3.45), (3.2, 3.45))
    ax.text(2.25, 3.6, "$W_{KR}$", ha="center", va="bottom", fontsize=10.5, color=INK)
    ax.text(2.25, 3.3, "RoPE", ha="center", va="top", fontsize=9, color=MUTED)

    # Every head's key and value, made again from c when needed; never stored.
    rows = [5.9, 4.65, 2.75]                                 # heads 1, 2 and the last, the dots between
    xh, wh = 9.4, 4.3                                       # the heads' boxes: centre and width
    ax.text(xh, 6.75, tr(lang, f"{m.n_heads} 个头各自的键和值：用时才从 c 算出，不存",
                               f"each of the {m.n_heads} heads' key and value: made from c, not stored"),
            ha="center", va="center", fontsize=10, color=INK)
    for y, h in zip(rows, [*MLA_HEADS_DRAWN, m.n_heads]):
        _arrow(ax, (5.6, 5.15), (xh - wh / 2 - 0.05, y + 0.24), colour=BLUE)
        _arrow(ax, (5.6, 5.15), (xh - wh / 2 - 0.05, y - 0.28), colour=TEAL)
        _arrow(ax, (5.6, 3.45), (xh - wh / 2 - 0.05, y + 0.24), colour=BLUE, ls=":")
        _box(ax, xh, y + 0.24, wh, 0.46, f"$k_{{{h}}} = [c\\,W_{{UK,{h}}},\\ k_{{\\mathrm{{rope}}}}]$: {d_nope} + {d_rope}",
             BLUE, stored=False, fontsize=10)
        _box(ax, xh, y - 0.28, wh, 0.46, f"$v_{{{h}}} = c\\,W_{{UV,{h}}}$: {d_v}", TEAL, stored=False, fontsize=10)
        ax.text(xh + wh / 2 + 0.22, y - 0.02, tr(lang, f"头 {h}", f"head {h}"), ha="left", va="center",
                fontsize=10, color=INK)
    ax.text(xh, (rows[1] + rows[2]) / 2 - 0.1, "⋮", ha="center", va="center", fontsize=16, color=MUTED)
    ax.text(xh, 2.05, tr(lang, "吸收算法连这些都不算出来", "the absorbed form never even makes these"),
            ha="center", va="center", fontsize=10, color=MUTED, style="italic")

    # The count the cache holds, beside what it would hold with every head's own key and value.
    left, width = 0.3, 12.3                                  # the MHA bar spans the figure; MLA's to scale
    ax.barh([1.15, 0.4], [width * cached / expanded, width], left=left, height=0.5,
            color=[ACCENT, GRID], edgecolor=[ACCENT, MUTED], lw=0.8)
    ax.text(left + width * cached / expanded + 0.12, 1.15,
            tr(lang, f"MLA 缓存：{d_c} + {d_rope} = {cached} 个数", f"MLA caches {d_c} + {d_rope} = {cached} numbers"),
            ha="left", va="center", fontsize=10, color=INK)
    ax.text(left + 0.12, 0.4,
            tr(lang, f"假如每个头都存自己的键和值：{m.n_heads} × ({d_nope + d_rope} + {d_v}) = {expanded} 个数，"
                     f"是 {expanded / cached:.0f} 倍",
               f"if every head stored its own key and value: {m.n_heads} × ({d_nope + d_rope} + {d_v}) = {expanded} "
               f"numbers, {expanded / cached:.0f} times more"),
            ha="left", va="center", fontsize=10, color=INK)
    return fig


@figure("ch10-kv-table")
def kv_table_figure(lang: str):
    """The printed form of the KV-cache calculator: each model's cache for one 128K-token sequence."""
    names = list(MODELS)
    header = [tr(lang, "模型", "model"), tr(lang, "每个词元", "per token"),
              tr(lang, "128K：实际", "128K: as built"), tr(lang, "128K：若 MHA", "128K: if MHA"),
              tr(lang, "128K：若 MQA", "128K: if MQA")]
    rows, shorter = [], []
    for n in names:
        m = MODELS[n]
        mqa = "—" if m.attention == "mla" else binary_size(kv_cache_bytes_if(n, "mqa", LONG_CONTEXT, "bf16"))
        beyond = m.context is not None and m.context < LONG_CONTEXT       # 128K is more than its model card states
        if beyond:
            shorter.append(f"{DISPLAY_NAMES[n]} {m.context // 1024}K")
        rows.append([f"{DISPLAY_NAMES[n]} ({_attention_label(lang, n)}){' *' if beyond else ''}",
                     binary_size(kv_bytes_per_token(n, "bf16")),
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
    if shorter:
        listed = "、".join(shorter) if lang == "zh" else ", ".join(shorter)
        fig.text(0.02, 0.01, tr(lang, f"* 假设的行：模型卡写明的上下文比 128K 短（{listed}），这是它要是读这么长所需的缓存。",
                               f"* Hypothetical rows: the model card states a shorter context ({listed}); this is the cache it would need."),
                 fontsize=8.5, color=MUTED, ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.05 if shorter else 0, 1, 1))
    return fig
