"""Figures of chapter 12: a tiny GPT on real text (attnkit.bpe, attnkit.realtext, attnkit.sampling)."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np

from .. import bpe, realtext, sampling, tinygpt
from . import figure
from ._style import ACCENT, BLUE, MUTED, TEAL, tr, weights_map

OTHER = {"zh": "en", "en": "zh"}
BOOK_NAME = {"zh": {"zh": "《论语》", "en": "the Analects (Chinese)"},
             "en": {"zh": "《爱丽丝漫游奇境》（英文）", "en": "Alice in Wonderland"}}



@figure("ch12-bpe")
def tokens_per_char_figure(lang):
    """Tokens per character against vocabulary size, both books (this edition's first)."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for book, colour in ((lang, ACCENT), (OTHER[lang], BLUE)):
        curve = realtext.tokenization(book)["sizes"]
        sizes, ratio = zip(*curve)
        ax.plot(sizes, ratio, marker="o", color=colour, linewidth=2, label=BOOK_NAME[book][lang])
        ax.annotate(f"{ratio[-1]:.2f}", (sizes[-1], ratio[-1]), textcoords="offset points",
                    xytext=(6, 0), va="center", color=colour, fontsize=10)
    ax.set_ylim(0, 1.08)
    ax.set_xscale("log")
    ax.set_xlabel(tr(lang, "词表大小（字符 + 合并次数，对数刻度）", "vocabulary size (characters + merges, log scale)"))
    ax.set_ylabel(tr(lang, "每个字符的词元数", "tokens per character"))
    ax.set_title(tr(lang, "BPE 合并越多，同一本书的词元越少", "More BPE merges, fewer tokens for the same book"))
    ax.legend(frameon=False, loc="lower left", fontsize=10)
    return fig


@figure("ch12-loss")
def loss_figure(lang):
    """Training loss of both books' models (a 50-step running mean), the validation loss checked
    while training, the step kept, the exam loss and the frequency baseline."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), sharey=False)
    for ax, book in zip(axes, (lang, OTHER[lang])):
        r = realtext.report(book)
        losses = np.array(r["losses"])
        steps = np.arange(1, len(losses) + 1)
        ax.plot(steps, losses, color=ACCENT, linewidth=0.6, alpha=0.35)
        window = 50
        smooth = np.convolve(losses, np.ones(window) / window, mode="valid")
        ax.plot(steps[window - 1:], smooth, color=ACCENT, linewidth=2,
                label=tr(lang, "训练损失（50 步平均）", "training loss (mean of 50 steps)"))
        checked, values = zip(*r["validation"])
        ax.plot(checked, values, color=BLUE, linewidth=1.5, marker="o", markersize=3.5,
                label=tr(lang, "验证部分的损失", "loss on the validation part"))
        ax.axvline(r["best_step"], color=BLUE, linestyle=":", linewidth=1)
        late = r["best_step"] > 0.7 * max(len(losses), checked[-1])       # write it on the left of the line
        ax.annotate(tr(lang, f"留下第 {r['best_step']} 步", f"kept: step {r['best_step']}"),
                    (r["best_step"], r["validation_best"]), textcoords="offset points",
                    xytext=(-4 if late else 4, 14), ha="right" if late else "left", color=BLUE, fontsize=9)
        ax.axhline(r["held_out_loss"], color=TEAL, linewidth=1.5,
                   label=tr(lang, "留下的模型在考试部分（最后 10%）上的损失", "the kept model on the exam (the last 10%)"))
        ax.axhline(r["unigram"], color=MUTED, linestyle="--", linewidth=1,
                   label=tr(lang, "只按字频猜", "guessing by character frequency"))
        ax.set_title(BOOK_NAME[book][lang], fontsize=11)
        ax.set_xlabel(tr(lang, "训练步数", "training step"))
        ax.set_xlim(0, max(steps[-1], checked[-1]))
        ax.set_ylim(0, max(losses[:5].max(), r["guess"]) * 1.05)
    axes[0].set_ylabel(tr(lang, "损失（交叉熵）", "loss (cross-entropy)"))
    fig.tight_layout()
    # Below both panels, where no line runs.
    fig.legend(*axes[0].get_legend_handles_labels(), loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=2, frameon=False, fontsize=10)
    return fig


def next_token(lang):
    """The book model's logits (V,) for the character after realtext.DECODING_PROMPTS[lang], and its vocabulary."""
    m = realtext.model(lang)
    ids = bpe.encode_chars(realtext.DECODING_PROMPTS[lang], m["vocab"])
    logits, _ = tinygpt.forward(m["params"], [ids])          # (1, n, V)
    return logits[0, -1], m["vocab"]


def _shown(ch):
    return {" ": "␣", "\n": "↵"}.get(ch, ch)


@figure("ch12-decoding")
def decoding_figure(lang):
    """One next-character distribution of the model, then temperature, top-k and top-p applied to it."""
    logits, vocab = next_token(lang)
    base = sampling.with_temperature(logits, 1.0)
    top = np.argsort(-base, kind="stable")[:8]              # the 8 most likely characters at T = 1
    panels = [
        (tr(lang, "温度 T = 1（模型原样）", "temperature T = 1 (as is)"), sampling.next_distribution(logits)),
        (tr(lang, "T = 0.5：更尖", "T = 0.5: sharper"), sampling.next_distribution(logits, 0.5)),
        (tr(lang, "T = 2：更平", "T = 2: flatter"), sampling.next_distribution(logits, 2.0)),
        ("top-k = 3", sampling.next_distribution(logits, top_k=3)),
        ("top-p = 0.9", sampling.next_distribution(logits, top_p=0.9)),
    ]
    fig, axes = plt.subplots(1, len(panels), figsize=(11, 3.2), sharey=True)
    labels = [_shown(vocab[i]) for i in top]
    for ax, (title, p) in zip(axes, panels):
        kept = p[top]
        cut = kept == 0                                      # top-k and top-p set a cut character to 0
        # a cut character keeps a grey bar at the share it had at T = 1, so the reader sees what went
        ax.bar(range(len(top)), np.where(cut, base[top], kept), color=[MUTED if c else ACCENT for c in cut])
        ax.set_xticks(range(len(top)), labels, fontsize=10)
        ax.set_title(title, fontsize=10)
        ax.set_ylim(0, 1)
        rest = 1 - kept.sum()
        ax.text(len(top) - 0.5, 0.95, tr(lang, f"其余：{100 * rest:.0f}%", f"the rest: {100 * rest:.0f}%"),
                ha="right", va="top", fontsize=9, color=MUTED)
    axes[0].set_ylabel(tr(lang, "下一个字符的概率", "probability of the next character"))
    return fig


def attention_on(lang):
    """The sentence of ``lang`` as characters, and every head's weights on it: (L, H, n, n)."""
    m = realtext.model(lang)
    ids = bpe.encode_chars(realtext.SENTENCES[lang], m["vocab"])
    _, cache = tinygpt.forward(m["params"], [ids])
    cfg = tinygpt.config_of(m["params"])
    return list(realtext.SENTENCES[lang]), np.array([cache[f"h{l}"]["attn"]["weights"][0] for l in range(cfg["n_layers"])])


@figure("ch12-attention")
def attention_figure(lang):
    """Every head of the book model on one real sentence; the previous-token score in each title."""
    chars, w = attention_on(lang)
    r = realtext.report(lang)
    n_layers, n_heads = w.shape[:2]
    labels = [_shown(c) for c in chars]
    fig, axes = plt.subplots(n_layers, n_heads, figsize=(2.6 * n_heads, 2.9 * n_layers))
    for l in range(n_layers):
        for h in range(n_heads):
            ax = axes[l, h]
            weights_map(ax, w[l, h], labels, labels, fontsize=7, numbers=False, rotate=0)
            score = r["previous_token"][l][h]
            ax.set_title(tr(lang, f"第 {l + 1} 层 头 {h + 1}：前一个 {100 * score:.0f}%",
                            f"layer {l + 1} head {h + 1}: previous {100 * score:.0f}%"), fontsize=9)
    return fig


def _wrapped(text, width, words=False):
    """``text`` cut into lines of at most ``width`` characters (line breaks shown as ↵).

    ``words=True`` (English) breaks only after spaces, so no word is split; a line keeps its
    trailing spaces (invisible) and a word longer than ``width`` gets a line of its own. Either
    way ``"".join(lines)`` is the text, nothing lost or moved."""
    flat = text.replace("\n", "↵")
    if not words:
        return [flat[i:i + width] for i in range(0, len(flat), width)]
    lines = [""]
    for word in re.findall(r"\s*\S+\s*|\s+", flat):   # a word with the spaces after it
        if lines[-1] and len(lines[-1]) + len(word.rstrip()) > width:
            lines.append("")
        lines[-1] += word
    return lines


@figure("ch12-widget-sample")
def widget_sample_figure(lang):
    """The printed form of the sampling widget: its opening settings and what it writes with them."""
    d = realtext.WIDGET_DEFAULTS
    prompt, new = realtext.SAMPLE_PROMPTS[lang], realtext.widget_sample(lang)
    width = 30 if lang == "zh" else 60
    lines = _wrapped(prompt + new, width, words=lang == "en")
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * len(lines)))
    ax.axis("off")
    ax.text(0, 1, tr(lang, f"温度 {d['temperature']}，top-p {d['top_p']}，随机种子 {d['seed']}；开头：{prompt}",
                     f"temperature {d['temperature']}, top-p {d['top_p']}, seed {d['seed']}; opening: {prompt}"),
            transform=ax.transAxes, va="top", fontsize=11, color=MUTED)
    ax.text(0, 0.78, "\n".join(lines), transform=ax.transAxes, va="top", fontsize=12,
            family=["Noto Sans Mono CJK SC", "DejaVu Sans Mono"], linespacing=1.5)
    return fig
