"""Figures of chapter 7: the story sentence through one layer. Every number comes from attnkit.story."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .. import story
from ._style import ACCENT, BLUE, INK, MUTED, TEAL, matrix_image, tr
from . import figure

SHE = {"zh": "她", "en": "she"}


@figure("ch7-story-heads")
def story_heads(lang: str):
    """Where 她 / she looks in each of the three heads: one bar per token, heights = weights."""
    s = story.story(lang)
    she = SHE[lang]
    n = len(s.tokens)
    fig, axes = plt.subplots(story.N_HEADS, 1, figsize=(6.4, 5.6), sharex=True)
    for h, (ax, colour) in enumerate(zip(axes, (ACCENT, BLUE, TEAL))):
        w = s.row(she, h)                                   # (n,)
        ax.bar(range(n), w, color=colour, width=0.7)
        for j, value in enumerate(w):
            ax.text(j, value + 0.03, f"{100 * value:.0f}%", ha="center", va="bottom", fontsize=9,
                    color=INK if value > 0.05 else MUTED)
        ax.set_ylim(0, 1.15)
        ax.set_yticks([0, 0.5, 1], ["0", "50%", "100%"], fontsize=9)
        ax.set_title(tr(lang, f"头 {h + 1}：{story.HEAD_NAMES[lang][h]}", f"head {h + 1}: {story.HEAD_NAMES[lang][h]}"),
                     fontsize=11, loc="left")                # heads are numbered from 1
    axes[-1].set_xticks(range(n), s.tokens, fontsize=10, rotation=0 if lang == "zh" else 45,
                        ha="center" if lang == "zh" else "right")
    fig.suptitle(tr(lang, "“她”在三个头里分给每个词的注意力权重", "How much attention “she” gives each word, head by head"),
                 fontsize=12, fontweight="bold")
    fig.tight_layout()
    return fig


@figure("ch7-story-layer")
def story_layer(lang: str):
    """The row of 她 / she at each stage of the layer, six named columns."""
    s = story.story(lang)
    i = s.index(SHE[lang])
    names = ["person", "female", "male", "pronoun", "hungry", "eater"]
    cols = [story.FEATURES.index(f) for f in names]
    labels = [story.FEATURE_NAMES[lang][c] for c in cols]
    stages = [("x", tr(lang, "输入 x", "input x")),
              ("attn", tr(lang, "多头注意力", "multi-head")),
              ("h", tr(lang, "残差+层归一化", "residual + LN")),
              ("ffn", tr(lang, "前馈网络", "FFN")),
              ("y", tr(lang, "残差+层归一化", "residual + LN"))]
    data = np.array([getattr(s, name)[i, cols] for name, _ in stages])   # (stages, 6)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    limit = np.abs(data).max()
    matrix_image(ax, data, aspect="auto", cmap="RdBu_r", vmin=-limit, vmax=limit)
    for r in range(data.shape[0]):
        for c in range(data.shape[1]):
            ax.text(c, r, f"{data[r, c]:.2f}", ha="center", va="center", fontsize=9,
                    color="white" if abs(data[r, c]) > 0.6 * limit else INK)
    ax.set_xticks(range(len(labels)), labels, fontsize=10)
    ax.set_yticks(range(len(stages)), [label for _, label in stages], fontsize=10)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(tr(lang, f"“她”这一行，一步步变化（{story.D_MODEL} 列中的 {len(cols)} 列）",
                    f"The row of “she”, stage by stage ({len(cols)} of {story.D_MODEL} columns)"),
                 fontsize=12)
    fig.tight_layout()
    return fig
