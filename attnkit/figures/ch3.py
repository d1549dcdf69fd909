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
    ben = bars[1]                            # the softmax panel's bar; its value label sits on top
    axes[2].annotate(
        tr(lang, f"{names[0]} ÷ {names[1]} = {ratio:.1f} 倍\n= e³（分差 3）", f"{names[0]} ÷ {names[1]} = {ratio:.1f}×\n= e³ (a gap of 3)"),
        xy=(ben.get_x() + ben.get_width(), weights[1] / 2), xytext=(1.35, weights[0] * 0.62), fontsize=9.5, color=INK,
        arrowprops=dict(arrowstyle="->", color=MUTED),
    )
    fig.tight_layout(w_pad=2.5)
    return fig


# --------------------------------------------------------------------------
# figures of the other sections of chapter 3 (Q, K, V; dot product; scaling; the four steps)
# --------------------------------------------------------------------------

from .. import toy  # noqa: E402
from ..measure import random_scores, scaling_experiment  # noqa: E402
from ._style import TEAL  # noqa: E402

D_KS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]   # the widths the scaling figures measure
# the sentence of section 3.6 in each book: the Chinese book computes a Chinese sentence
PIPELINE = {"zh": toy.SENTENCES["cat-ball-hungry"], "en": toy.SENTENCES["animal-street-tired"]}


def _matrix_panel(ax, w, rows, columns, title):
    """One projection matrix as a grid of numbers, zero entries left blank."""
    ax.pcolormesh(np.arange(w.shape[1] + 1) - 0.5, np.arange(w.shape[0] + 1) - 0.5, np.abs(w),
                  cmap="Oranges", vmin=-1.0, vmax=toy.STRENGTH * 1.4)      # vector cells, not a bitmap
    ax.set_xlim(-0.5, w.shape[1] - 0.5)
    ax.set_ylim(w.shape[0] - 0.5, -0.5)
    for i in range(w.shape[0]):
        for j in range(w.shape[1]):
            if w[i, j]:
                ax.text(j, i, f"{w[i, j]:g}", ha="center", va="center", fontsize=9,
                        color="white" if abs(w[i, j]) > 3 else INK)
    ax.set_xticks(range(len(columns)), columns, rotation=90, fontsize=8.5)
    ax.set_yticks(range(len(rows)), rows, fontsize=8.5)
    ax.set_xticks(np.arange(-0.5, w.shape[1]), minor=True)
    ax.set_yticks(np.arange(-0.5, w.shape[0]), minor=True)
    ax.grid(which="minor", color=GRID, lw=0.6)
    ax.tick_params(which="both", length=0)
    ax.set_title(title, fontsize=11)


@figure("ch3-qkv-matrices")
def qkv_matrices(lang: str):
    """The six projection matrices of the toy model, every non-zero entry printed."""
    names = toy.FEATURE_NAMES[lang]
    slots = toy.SLOT_NAMES[lang]
    fig, axes = plt.subplots(2, 3, figsize=(10.5, 9.0), gridspec_kw={"width_ratios": [2, 2, 10]})
    for row, number in enumerate((1, 2)):
        w_q, w_k, w_v = toy.STEPS[number]
        step = tr(lang, f"第 {number} 轮", f"round {number}")
        _matrix_panel(axes[row, 0], w_q, names, slots[number], f"{step} W_Q{number}")
        _matrix_panel(axes[row, 1], w_k, names, slots[number], f"W_K{number}")
        _matrix_panel(axes[row, 2], w_v, names, names, f"W_V{number}")
        axes[row, 1].set_yticklabels([])
        axes[row, 2].set_yticklabels([])
    fig.tight_layout(h_pad=2.0, w_pad=0.8)
    return fig


@figure("ch3-dot-geometry")
def dot_geometry(lang: str):
    """a = [3, 4], b = [1, 2]: the dot product as length times projection; cosine ignores length."""
    a, b = np.array([3.0, 4.0]), np.array([1.0, 2.0])
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.0, 4.2), gridspec_kw={"width_ratios": [1, 1.25]})
    proj = (a @ b) / (a @ a) * a                              # b projected onto a, (2,)
    for vec, colour, name in ((a, ACCENT, "a = [3, 4]"), (b, BLUE, "b = [1, 2]")):
        ax.annotate("", xy=vec, xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=colour, lw=2.2))
        ax.text(vec[0] + 0.12, vec[1] + 0.05, name, color=colour, fontsize=10)
    ax.plot([b[0], proj[0]], [b[1], proj[1]], ls="--", color=MUTED, lw=1)
    ax.plot([0, proj[0]], [0, proj[1]], color=TEAL, lw=5, alpha=0.55, solid_capstyle="butt")
    cos = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    ax.text(proj[0] + 0.15, proj[1] - 0.45,
            tr(lang, f"b 在 a 上的投影长 {np.linalg.norm(proj):.3f}", f"shadow of b on a: {np.linalg.norm(proj):.3f}"),
            color=TEAL, fontsize=9)
    ax.text(0.2, 4.6, tr(lang, f"a·b = |a| × 投影 = {np.linalg.norm(a):g} × {np.linalg.norm(proj):.3f} = {a @ b:g}",
                         f"a·b = |a| × shadow = {np.linalg.norm(a):g} × {np.linalg.norm(proj):.3f} = {a @ b:g}"), fontsize=9.5)
    ax.text(0.2, 4.15, tr(lang, f"夹角 {np.degrees(np.arccos(cos)):.1f}°，余弦 {cos:.3f}",
                          f"angle {np.degrees(np.arccos(cos)):.1f}°, cosine {cos:.3f}"), fontsize=9.5)
    ax.set_xlim(-0.3, 5.2)
    ax.set_ylim(-0.3, 5.0)
    ax.set_aspect("equal")
    ax.grid(color=GRID, lw=0.5)
    ax.set_title(tr(lang, "点积 = 长度 × 投影", "dot product = length × shadow"))

    # right: turn b around a full half-turn at two lengths; dot and cosine side by side
    angles = np.linspace(0, 180, 181)
    base = np.arctan2(a[1], a[0])
    for length, style in ((np.linalg.norm(b), "-"), (2 * np.linalg.norm(b), "--")):
        ts = base + np.radians(angles)
        c = length * np.stack([np.cos(ts), np.sin(ts)], axis=1)       # (181, 2) vectors at each angle
        bx.plot(angles, c @ a, style, color=BLUE,
                label=tr(lang, f"点积，|b| = {length:.2f}", f"dot, |b| = {length:.2f}"))
    cos_curve = np.cos(np.radians(angles))
    bx2 = bx.twinx()
    bx2.plot(angles, cos_curve, color=ACCENT, lw=2.5, alpha=0.8, label=tr(lang, "余弦（两种长度都一样）", "cosine (same for both lengths)"))
    bx2.set_ylim(-1.15, 1.15)
    bx.set_ylim(-30, 30)
    bx2.spines["right"].set_visible(True)
    bx2.set_ylabel(tr(lang, "余弦", "cosine"), color=ACCENT)
    bx.set_ylabel(tr(lang, "点积", "dot product"), color=BLUE)
    bx.axhline(0, color=GRID, lw=1)
    bx.set_xticks([0, 45, 90, 135, 180])
    bx.set_xlabel(tr(lang, "b 与 a 的夹角（度）", "angle between b and a (degrees)"))
    bx.set_title(tr(lang, "转动 b：点积还看长度，余弦只看方向", "turn b: the dot product feels length, the cosine only direction"), fontsize=11)
    lines = bx.get_lines()[:2] + bx2.get_lines()
    bx.legend(lines, [line.get_label() for line in lines], fontsize=8.5, frameon=False, loc="lower left")
    fig.tight_layout(w_pad=2.0)
    return fig


@figure("ch3-qk-variance")
def qk_variance(lang: str):
    """Measured variance of q·k against d_k, raw and divided by sqrt(d_k); score spread at two widths."""
    m = scaling_experiment(D_KS)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.0, 3.9))
    ax.loglog(m.d_k, m.d_k, color=GRID, lw=6, label=tr(lang, "直线 方差 = dₖ", "the line variance = dₖ"))
    ax.loglog(m.d_k, m.var_raw, "o-", color=ACCENT, label=tr(lang, "q·k 实测方差", "measured var of q·k"))
    ax.loglog(m.d_k, m.var_scaled, "s-", color=BLUE, label=tr(lang, "q·k / √dₖ 实测方差", "measured var of q·k / √dₖ"))
    ax.set_xticks(D_KS, [str(d) for d in D_KS], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel("dₖ")
    ax.set_ylabel(tr(lang, "方差", "variance"))
    ax.legend(fontsize=8.5, frameon=False)
    ax.set_title(tr(lang, "分数的方差随 dₖ 长大", "the variance of the scores grows with dₖ"), fontsize=11)
    bins = np.linspace(-60, 60, 61)
    for d_k, colour in ((4, BLUE), (256, ACCENT)):
        s = random_scores(d_k).ravel()
        bx.hist(s, bins=bins, color=colour, alpha=0.6, density=True, label=f"dₖ = {d_k}")
    bx.set_yticks([])
    bx.spines["left"].set_visible(False)
    bx.set_xlabel(tr(lang, "未缩放的分数 q·k", "raw score q·k"))
    bx.legend(fontsize=9, frameon=False)
    bx.set_title(tr(lang, "同样随机的 q、k，dₖ 越大分数越散", "same kind of random q, k: wider dₖ, wider scores"), fontsize=11)
    fig.tight_layout(w_pad=2.5)
    return fig


@figure("ch3-softmax-saturation")
def softmax_saturation(lang: str):
    """One row of 16 softmax weights at d_k = 512, raw vs scaled; top weight and gradient against d_k."""
    m = scaling_experiment(D_KS)
    row = random_scores(512)[0]                                        # (16,) one query's raw scores
    fig, axes = plt.subplots(1, 3, figsize=(11.6, 3.6))
    ax = axes[0]
    x = np.arange(len(row))
    ax.bar(x - 0.2, softmax(row), width=0.4, color=ACCENT, label=tr(lang, "不缩放", "raw"))
    ax.bar(x + 0.2, softmax(row / np.sqrt(512)), width=0.4, color=BLUE, label=tr(lang, "除以 √512", "divided by √512"))
    ax.set_xticks([])
    ax.set_xlabel(tr(lang, "16 个键", "16 keys"))
    ax.set_ylabel(tr(lang, "权重", "weight"))
    ax.legend(fontsize=8.5, frameon=False)
    ax.set_title(tr(lang, "dₖ = 512 时的一行权重", "one row of weights, dₖ = 512"), fontsize=11)
    for ax, raw, scaled, title, ylabel in (
        (axes[1], m.max_raw, m.max_scaled, tr(lang, "最大权重：饱和", "top weight: saturation"), tr(lang, "平均最大权重", "mean top weight")),
        (axes[2], m.grad_raw, m.grad_scaled, tr(lang, "softmax 的梯度", "the gradient of softmax"), tr(lang, "雅可比矩阵范数", "Jacobian norm")),
    ):
        ax.semilogx(m.d_k, raw, "o-", color=ACCENT, label=tr(lang, "不缩放", "raw"))
        ax.semilogx(m.d_k, scaled, "s-", color=BLUE, label=tr(lang, "除以 √dₖ", "divided by √dₖ"))
        ax.set_xticks(D_KS[::2], [str(d) for d in D_KS[::2]], fontsize=8)
        ax.minorticks_off()
        ax.set_ylim(0, 1.05 if raw is m.max_raw else 0.36)
        ax.set_xlabel("dₖ")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=11)
        ax.legend(fontsize=8.5, frameon=False)
    fig.tight_layout(w_pad=1.8)
    return fig


@figure("ch3-four-steps")
def four_steps(lang: str):
    """The four steps for the pronoun in both steps of the toy model: scores, scaled, weights, output."""
    example = PIPELINE[lang]
    r = toy.attend(example.text, example.lang)
    i = r.index(example.focus)
    names = toy.FEATURE_NAMES[lang]
    fig, axes = plt.subplots(2, 4, figsize=(12.0, 7.4), gridspec_kw={"width_ratios": [1, 1, 1, 1.1]})
    heads = [tr(lang, "① 点积 q·k", "① dot product q·k"), tr(lang, "② 除以 √dₖ = √2", "② divide by √dₖ = √2"),
             tr(lang, "③ softmax 权重", "③ softmax weights"), tr(lang, f"④ 加权求和：“{example.focus}”的输出", f"④ weighted sum: out[{example.focus}]")]
    for row, step in enumerate(r.steps):
        y = np.arange(len(r.tokens))
        for col, (values, colour, fmt) in enumerate(((step.scores[i], MUTED, "{:.2f}"), (step.scaled[i], BLUE, "{:.2f}"),
                                                     (step.weights[i], ACCENT, "{:.0%}"))):
            ax = axes[row, col]
            ax.barh(y, values, color=colour, height=0.65)
            ax.set_yticks(y, r.tokens if col == 0 else [], fontsize=8.5)
            ax.invert_yaxis()
            ax.set_xticks([])
            ax.spines["bottom"].set_visible(False)
            ax.set_xlim(0, max(values.max(), 1e-9) * 1.45)
            for yy, v in zip(y, values):
                if v >= 0.05 * values.max():
                    ax.text(v, yy, " " + fmt.format(v), va="center", fontsize=7.5, color=INK)
        ax = axes[row, 3]
        out = step.out[i]                                   # (d_model,)
        ax.barh(np.arange(len(names)), out, color=TEAL, height=0.65)
        ax.set_yticks(np.arange(len(names)), names, fontsize=8.5)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.3)
        ax.set_xticks([])
        ax.spines["bottom"].set_visible(False)
        for yy, v in enumerate(out):
            if v >= 0.01:
                ax.text(v, yy, f" {v:.2f}", va="center", fontsize=7.5)
        axes[row, 0].set_ylabel(tr(lang, f"第 {row + 1} 轮", f"round {row + 1}"), fontsize=11, fontweight="bold")
        for col in range(4):
            axes[row, col].set_title(heads[col] if row == 0 else "", fontsize=10.5)
    fig.suptitle(example.text, fontsize=11, color=MUTED)
    fig.tight_layout(h_pad=2.0, w_pad=1.2)
    return fig
