"""Figures of chapter 11: a two-layer tiny GPT trained on repeated segments (attnkit.induction)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .. import induction
from ..copytask import spell
from . import figure
from ._style import ACCENT, BLUE, MUTED, TEAL, tr, weights_map

HEAD_COLOURS = (BLUE, TEAL, ACCENT, "#8e44ad")
HEAD_STYLES = ("-", "--", "-", "--")


def head_name(lang, layer, head):
    """'layer 1 · head 2' (1-based, as the prose counts)."""
    return tr(lang, f"第 {layer + 1} 层 · 头 {head + 1}", f"layer {layer + 1} · head {head + 1}")


@figure("ch11-phase")
def phase_change(lang):
    """Held-out loss of the repeated part over training, and both scores of every head."""
    r = induction.report()
    steps = np.array(r["steps"])
    fig, axes = plt.subplots(3, 1, figsize=(7, 8.2), sharex=True)
    ax = axes[0]
    ax.plot(steps, [c["repeated"] for c in r["curve"]], color=ACCENT, linewidth=2,
            label=tr(lang, "重复部分（可以猜）", "the repeated part (predictable)"))
    ax.axhline(r["band"], color=TEAL, linestyle="--", linewidth=1.2,
               label=tr(lang, "“在可能的那几格里平均猜”的损失", "guessing evenly among the possible places"))
    ax.axhline(r["guess"], color=MUTED, linestyle=":", linewidth=1)
    v = induction.INDUCTION["vocab_size"]
    ax.text(steps[-1], r["guess"] + 0.08, tr(lang, f"瞎猜：ln {v} ≈ {r['guess']:.2f}", f"guessing: ln {v} ≈ {r['guess']:.2f}"),
            ha="right", va="bottom", color=MUTED, fontsize=9)
    ax.set_ylabel(tr(lang, "重复部分的损失", "loss, repeated part"))
    ax.legend(loc="lower left", fontsize=9)
    ax.set_ylim(0, None)
    layers, heads = r["previous"].shape[1:]
    for ax, key, title in ((axes[1], "previous", tr(lang, "前一个词元分数", "previous-token score")),
                           (axes[2], "prefix", tr(lang, "前缀匹配分数", "prefix-matching score"))):
        for l in range(layers):
            for h in range(heads):
                k = l * heads + h
                ax.plot(steps, r[key][:, l, h], color=HEAD_COLOURS[k % 4], linestyle=HEAD_STYLES[k % 4],
                        linewidth=1.8, label=head_name(lang, l, h))
        ax.set_ylabel(title)
        ax.set_ylim(0, 1)
    axes[1].legend(loc="upper left", fontsize=8.5, ncol=2)
    axes[2].set_xlabel(tr(lang, "训练步数", "training step"))
    axes[0].set_xlim(0, steps[-1])
    fig.tight_layout(h_pad=0.6)
    return fig


@figure("ch11-maps")
def trained_maps(lang):
    """The four heads' attention on one new sequence, after training.

    Drawn under 5 inches wide so a phone shows it without zooming."""
    run = induction.trained_run()
    tokens = induction.example_sequence()
    letters = list(spell(tokens[0]))
    maps = induction.attention_maps(run["params"][-1], tokens)
    layers, heads = maps.shape[:2]
    fig, axes = plt.subplots(layers, heads, figsize=(2.45 * heads, 2.6 * layers))
    for l in range(layers):
        for h in range(heads):
            ax = axes[l, h]
            weights_map(ax, maps[l, h], letters, letters, fontsize=7, numbers=False)
            ax.set_title(head_name(lang, l, h), fontsize=10)
    fig.supylabel(tr(lang, "查询：正在猜下一个的位置", "query: the position guessing what comes next"), fontsize=10)
    fig.supxlabel(tr(lang, "键：它看的位置", "key: the position it looks at"), fontsize=10)
    fig.tight_layout(h_pad=0.8, w_pad=0.6)
    return fig


@figure("ch11-position")
def by_position(lang):
    """Loss at each position of new sequences, before and after training."""
    r = induction.report()
    n = len(r["by_position"])
    x = np.arange(1, n + 1)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.plot(x, r["by_position_start"], color=MUTED, linewidth=1.5, marker="o", markersize=3,
            label=tr(lang, "训练前", "before training"))
    ax.plot(x, r["by_position"], color=ACCENT, linewidth=2, marker="o", markersize=3,
            label=tr(lang, "训练后", "after training"))
    ax.axhline(r["guess"], color=MUTED, linestyle=":", linewidth=1)
    ax.set_xlabel(tr(lang, "位置（在猜它后面那个词元）", "position (guessing the token after it)"))
    ax.set_ylabel(tr(lang, "平均损失", "mean loss"))
    ax.set_xticks(x)
    ax.set_xlim(0.5, n + 0.5)
    ax.set_ylim(0, None)
    ax.legend(loc="lower left", fontsize=9)
    fig.tight_layout()
    return fig
