"""Figures of chapter 11: a two-layer attention-only tiny GPT trained on repeated segments (attnkit.induction)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .. import induction
from ..copytask import spell
from . import figure
from ._style import ACCENT, BLUE, INK, MUTED, TEAL, tr, weights_map

HEAD_COLOURS = (BLUE, TEAL, ACCENT, "#8e44ad")
HEAD_STYLES = ("-", "--", "-", "--")
RANGE_COLOURS = ("#8e44ad", "#c2185b", "#ef6c00", TEAL, BLUE)   # narrowest to widest


def head_name(lang, layer, head):
    """'layer 1 · head 2' (1-based, as the prose counts)."""
    return tr(lang, f"第 {layer + 1} 层 · 头 {head + 1}", f"layer {layer + 1} · head {head + 1}")


def range_name(lang, lo, hi):
    return tr(lang, f"距离 {lo}–{hi}", f"distances {lo}–{hi}")


@figure("ch11-phase")
def phase_change(lang):
    """Held-out loss of the repeated part over training (every seed), and both scores of every
    head of the first seed's model."""
    r = induction.report()
    s = induction.seed_runs()
    c = induction.INDUCTION
    steps = np.array(r["steps"])
    fig, axes = plt.subplots(3, 1, figsize=(7, 8.6), sharex=True)
    ax = axes[0]
    for k, run in enumerate(s["runs"]):
        first = k == 0
        ax.plot(s["steps"], run["loss"], color=ACCENT if first else (BLUE, TEAL)[k % 2],
                linewidth=2.2 if first else 1.3, linestyle="-" if first else ("--", ":")[k % 2],
                label=tr(lang, f"种子 {run['seed']}", f"seed {run['seed']}") + ("" if run["formed"] is None else
                      tr(lang, f"（第 {run['formed']} 步成形）", f" (formed at step {run['formed']})")))
        if run["formed"] is not None:
            at = s["steps"].index(run["formed"])
            ax.plot([run["formed"]], [run["loss"][at]], marker="o", color=ax.lines[-1].get_color(), markersize=6)
    ax.axhline(r["guess"], color=MUTED, linestyle=":", linewidth=1)
    ax.text(steps[-1], r["guess"] + 0.06, tr(lang, f"瞎猜：ln {c['vocab_size']} ≈ {r['guess']:.2f}",
                                            f"guessing: ln {c['vocab_size']} ≈ {r['guess']:.2f}"),
            ha="right", va="bottom", color=MUTED, fontsize=9)
    ax.set_ylabel(tr(lang, "重复部分的损失", "loss, repeated part"))
    ax.set_ylim(0, r["guess"] + 0.5)
    ax.legend(loc="lower left", fontsize=8.5)
    layers, heads = r["previous"].shape[1:]
    for ax, key, title, line in (
            (axes[1], "previous", tr(lang, "前一个词元分数", "previous-token score"), induction.FORMED["previous"]),
            (axes[2], "prefix", tr(lang, "前缀匹配分数", "prefix-matching score"), induction.FORMED["prefix"])):
        ax.axhline(line, color=MUTED, linestyle=":", linewidth=1)
        ax.text(steps[-1], line + 0.02, tr(lang, f"门槛 {line}", f"threshold {line}"), ha="right", va="bottom",
                color=MUTED, fontsize=8.5)
        for l in range(layers):
            for h in range(heads):
                k = l * heads + h
                ax.plot(steps, np.asarray(r[key])[:, l, h], color=HEAD_COLOURS[k % 4], linestyle=HEAD_STYLES[k % 4],
                        linewidth=1.8, label=head_name(lang, l, h))
        ax.set_ylabel(title)
        ax.set_ylim(0, 1)
    axes[1].set_title(tr(lang, f"种子 {c['seed']} 的四个头", f"The four heads of seed {c['seed']}"), fontsize=10)
    axes[1].legend(loc="upper left", fontsize=8.5, ncol=2)
    axes[2].set_xlabel(tr(lang, "训练步数", "training step"))
    axes[0].set_xlim(0, steps[-1])
    fig.tight_layout(h_pad=0.6)
    return fig


@figure("ch11-maps")
def trained_maps(lang):
    """The four heads' attention on one new sequence, after training (the replay's last step, for print)."""
    run = induction.trained_run()
    tokens = induction.example_sequence()
    letters = list(spell(tokens[0]))
    maps = induction.attention_maps(run["params"][-1], tokens)
    layers, heads = maps.shape[:2]
    fig, axes = plt.subplots(layers, heads, figsize=(3.9 * heads, 4.1 * layers))
    for l in range(layers):
        for h in range(heads):
            ax = axes[l, h]
            weights_map(ax, maps[l, h], letters, letters, fontsize=7, numbers=False, rotate=0)
            ax.set_title(head_name(lang, l, h), fontsize=10)
    fig.supylabel(tr(lang, "查询：正在猜下一个的位置", "query: the position guessing what comes next"), fontsize=10)
    fig.supxlabel(tr(lang, "键：它看的位置", "key: the position it looks at"), fontsize=10)
    fig.tight_layout(h_pad=0.8, w_pad=0.6)
    return fig


@figure("ch11-general")
def generalisation(lang):
    """The trained model's accuracy at each distance and each segment length, inside and outside
    the training ranges, next to the induction rule's."""
    r = induction.report()
    c = induction.INDUCTION
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, key, lo, hi, xlabel in (
            (axes[0], "by_dist", c["min_dist"], c["max_dist"], tr(lang, "两遍之间的距离 D", "distance D between the copies")),
            (axes[1], "by_len", c["min_len"], c["max_len"], tr(lang, "片段长度 L", "segment length L"))):
        b = r[key]
        ax.axvspan(lo - 0.5, hi + 0.5, color=MUTED, alpha=0.12, linewidth=0)
        ax.plot(b["values"], b["model"], color=ACCENT, linewidth=2, marker="o", markersize=3.5,
                label=tr(lang, "训练好的模型", "the trained model"))
        ax.plot(b["values"], b["rule"], color=BLUE, linewidth=1.4, linestyle="--",
                label=tr(lang, "归纳规则（11.1 节）", "the induction rule (11.1)"))
        ax.axhline(1 / c["vocab_size"], color=MUTED, linestyle=":", linewidth=1)
        ax.set_xlabel(xlabel)
        ax.set_xlim(min(b["values"]) - 0.5, max(b["values"]) + 0.5)
        ax.text(lo - 0.3, 1.02, tr(lang, "训练时的范围", "the training range"), fontsize=8.5, color=MUTED, va="bottom")
    axes[0].text(axes[0].get_xlim()[1], 1 / c["vocab_size"] + 0.02, tr(lang, f"瞎猜 1/{c['vocab_size']}",
                 f"guessing 1/{c['vocab_size']}"), ha="right", va="bottom", color=MUTED, fontsize=8.5)
    axes[0].set_ylabel(tr(lang, "重复部分猜对的比例", "accuracy on the repeated part"))
    axes[0].set_ylim(0, 1.1)
    axes[0].legend(loc="lower left", fontsize=9)
    fig.tight_layout()
    return fig


@figure("ch11-diversity")
def diversity(lang):
    """The diversity sweep: trained on distances from narrow to wide ranges, each model's accuracy
    at every distance (its range drawn solid, the rest dotted), and its heads' best scores."""
    d = induction.diversity()
    c = induction.INDUCTION
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9.6, 4.8), gridspec_kw={"width_ratios": [1.7, 1]})
    for k, run in enumerate(d):
        lo, hi = run["range"]
        x, y = np.array(run["by_dist"]["values"]), np.array(run["by_dist"]["model"])
        inside = (x >= lo) & (x <= hi)
        colour = RANGE_COLOURS[k % len(RANGE_COLOURS)]
        ax.plot(x, y, color=colour, linewidth=1, linestyle=":")
        ax.plot(np.where(inside, x, np.nan), np.where(inside, y, np.nan), color=colour, linewidth=2.2,
                label=range_name(lang, lo, hi))
    ax.axhline(1 / c["vocab_size"], color=MUTED, linestyle=":", linewidth=1)
    ax.set_xlabel(tr(lang, "测试时两遍之间的距离 D", "distance D between the copies, at test time"))
    ax.set_ylabel(tr(lang, "重复部分猜对的比例", "accuracy on the repeated part"))
    ax.set_ylim(0, 1)
    ax.legend(title=tr(lang, "训练时的距离（实线；虚线是范围之外）", "trained on (solid; dotted: outside that range)"),
              fontsize=8.5, title_fontsize=8.5, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)
    names = [f"{lo}–{hi}" for lo, hi in (run["range"] for run in d)]
    x = np.arange(len(d))
    width = 0.38
    bx.bar(x - width / 2, [run["previous"][0] for run in d], width, color=BLUE,
           label=tr(lang, "第 1 层最好的前一个词元分数", "layer 1's best previous-token score"))
    bx.bar(x + width / 2, [run["prefix"][-1] for run in d], width, color=ACCENT,
           label=tr(lang, "第 2 层最好的前缀匹配分数", "layer 2's best prefix-matching score"))
    bx.set_xticks(x, names, fontsize=9)
    bx.set_xlabel(tr(lang, "训练时的距离范围", "range of distances in training"))
    bx.set_ylim(0, 1.3)
    bx.set_yticks([0, 0.5, 1])
    bx.legend(loc="upper left", fontsize=8.5, frameon=False)
    for k, run in enumerate(d):
        bx.text(k, max(run["previous"][0], run["prefix"][-1]) + 0.03,
                tr(lang, "未成形", "none") if run["formed"] is None else str(run["formed"]),
                ha="center", va="bottom", fontsize=8, color=INK)
    bx.set_title(tr(lang, "训练结束时；数字：成形的步数", "at the end; numbers: step the heads formed"), fontsize=9.5)
    fig.tight_layout()
    return fig
