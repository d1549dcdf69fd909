"""Figures of chapter 8: the tiny GPT learning the copy task (attnkit.tinygpt, trained once per build)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .. import copy_results, copytask, tinygpt, training
from . import figure
from ._style import ACCENT, BLUE, MUTED, tr, weights_map


def _example():
    """The held-out sequence the pictures show, its tokens as letters, and both models' weights."""
    tokens, _ = copy_results.held_out(**training.BOOK)
    example = tokens[:1]                                   # (1, n)
    before = tinygpt.init(training.BOOK["vocab_size"], training.BOOK["d_model"], training.BOOK["n_heads"],
                          training.BOOK["n_layers"], example.shape[1], seed=training.BOOK["seed"])
    after, _ = training.trained(**training.BOOK)
    maps = [tinygpt.forward(p, example)[1]["h0"]["attn"]["weights"][0] for p in (before, after)]  # (H, n, n) each
    return list(copytask.spell(example)), maps


def _guess_label(lang):
    """The guessing level ln V and its label, as ch8-loss and ch8-train print them."""
    v = training.BOOK["vocab_size"]
    guess = math.log(v)
    return guess, tr(lang, f"瞎猜：ln {v} ≈ {guess:.2f}", f"guessing: ln {v} ≈ {guess:.2f}")


@figure("ch8-loss")
def loss_curve(lang):
    """The loss of every training step, against the loss of guessing uniformly."""
    _, losses = training.trained(**training.BOOK)
    steps = np.arange(1, len(losses) + 1)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.plot(steps, losses, color=ACCENT, linewidth=2)
    guess, label = _guess_label(lang)
    ax.axhline(guess, color=MUTED, linestyle="--", linewidth=1)
    ax.text(steps[-1], guess * 0.85, label, ha="right", va="top", color=MUTED, fontsize=9)
    ax.set_yscale("log")
    ax.set_xlabel(tr(lang, "训练步数", "training step"))
    ax.set_ylabel(tr(lang, "损失（交叉熵，对数刻度）", "loss (cross-entropy, log scale)"))
    b = training.BOOK["batch"]
    ax.set_title(tr(lang, f"复制任务上的损失：每一步一批 {b} 条新序列", f"Loss on the copy task: each step a batch of {b} new sequences"))
    ax.set_xlim(0, steps[-1])
    return fig


@figure("ch8-attention")
def attention_before_after(lang):
    """Both heads' attention on one held-out sequence, before and after training.

    Drawn under 5 inches wide with 10 pt text and more, so a 375 px phone shows it without zooming
    (tests/test_figure_text.py INLINE)."""
    letters, maps = _example()
    h = maps[0].shape[0]
    fig, axes = plt.subplots(2, h, figsize=(2.35 * h, 5.4))
    for row, (w, when) in enumerate(zip(maps, (tr(lang, "训练前", "before training"),
                                               tr(lang, "训练后", "after training")))):
        for head in range(h):
            ax = axes[row, head]
            weights_map(ax, w[head], letters, letters, fontsize=10, numbers=False)
            ax.set_title(tr(lang, f"{when} · 头 {head + 1}", f"{when} · head {head + 1}"), fontsize=10.5)
            half = training.BOOK["half"]
            ax.axhline(half - 1.5, color=BLUE, linewidth=0.8, linestyle=":")
    fig.supylabel(tr(lang, "查询：正在猜下一个的位置", "query: the position guessing what comes next"), fontsize=10)
    fig.supxlabel(tr(lang, "键：它看的位置", "key: the position it looks at"), fontsize=10)
    fig.tight_layout(h_pad=0.8, w_pad=0.6)
    return fig


@figure("ch8-train")
def train_snapshot(lang):
    """The printed form of the live widget of 8.5: what it shows after a run with its default settings.

    Like the widget (overrides/assets/widgets/train-gpt.js), the loss panel draws the book's losses as
    a thick grey line, the run's losses in orange on top of it and the guessing level dashed, with a
    legend in the widget's words (bookbuild/widgets.py GPT_LABELS)."""
    letters, maps = _example()
    _, reference = training.trained(**training.BOOK)
    # a run with the widget's default seed and learning rate is this same Trainer run, loss for loss
    # (tests/test_train_gpt.py checks its chunked code in CPython and in Pyodide)
    live = reference
    h = maps[1].shape[0]
    fig = plt.figure(figsize=(10, 3.6))
    grid = fig.add_gridspec(1, 1 + h, width_ratios=[1.6] + [1] * h)
    ax = fig.add_subplot(grid[0, 0])
    seed, lr = training.BOOK["seed"], training.BOOK["lr"]
    ax.plot(np.arange(1, len(reference) + 1), reference, color=MUTED, alpha=0.45, linewidth=7,
            solid_capstyle="round", label=tr(lang, f"本书构建时（种子 {seed}、学习率 {lr}）的损失",
                                             f"the book's build (seed {seed}, learning rate {lr})"))
    ax.plot(np.arange(1, len(live) + 1), live, color=ACCENT, linewidth=2,
            label=tr(lang, "你这次训练的损失", "your run"))
    guess, label = _guess_label(lang)
    ax.axhline(guess, color=MUTED, linestyle="--", linewidth=1, label=label)
    ax.set_yscale("log")
    ax.set_xlabel(tr(lang, "训练步数", "training step"))
    ax.set_title(tr(lang, "损失（对数刻度）", "loss (log scale)"))
    for head in range(h):
        a = fig.add_subplot(grid[0, 1 + head])
        weights_map(a, maps[1][head], letters, letters, fontsize=8, numbers=False)
        a.set_title(tr(lang, f"头 {head + 1}（第 {len(reference)} 步）", f"head {head + 1} (step {len(reference)})"))
    fig.tight_layout()
    # Below the whole figure, as the widget lists its lines under the plot: no curve runs under it.
    fig.legend(*ax.get_legend_handles_labels(), loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=3, frameon=False, fontsize=10, handlelength=2.5)
    return fig
