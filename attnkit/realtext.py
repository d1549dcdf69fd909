"""Chapter 12: chapter 8's tiny GPT trained on real text, one character per token.

Two small public-domain books ship in attnkit/corpus/ (their README says where they come
from): Lewis Carroll's *Alice's Adventures in Wonderland* (English) and 《论语》 (the Analects,
Chinese). :class:`TextTrainer` trains :mod:`attnkit.tinygpt` on windows of ``n_ctx + 1``
characters drawn at random from the first 90 % of a book, with :func:`attnkit.training.adam_step`;
the last 10 % is held out (:func:`split`). :func:`train_on` is a pure function of the text and
the settings (the same arguments give the same numbers), so a build can remember it.

    >>> params, losses, vocab = TextTrainer("abcabcabcabcabcabc", steps=2, n_ctx=4, d_model=8,
    ...                                     n_heads=2, n_layers=1, batch=2).run()
    >>> len(losses), vocab
    (2, ['a', 'b', 'c'])

The trained weights are rounded to float32 (:func:`rounded`): that is what the page's widget
loads, so the build's samples and the browser's come from the same numbers.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np

from . import ablation, tinygpt
from ._checks import check_lang, check_positive_int, check_seed
from .bpe import char_vocab, decode_chars, encode_chars, tokens_per_char, train_bpe, truncate
from .sampling import generate, next_distribution
from .training import adam_init, adam_step

__all__ = [
    "CORPORA",
    "SOURCES",
    "MODEL",
    "corpus",
    "split",
    "TextTrainer",
    "train_on",
    "rounded",
    "model",
    "held_out_windows",
    "previous_token_scores",
    "recent_scores",
    "head_ablation",
    "unigram_loss",
    "MERGES",
    "tokenization",
    "SENTENCES",
    "DECODING_PROMPTS",
    "next_probs",
    "top_of",
    "SAMPLE_PROMPTS",
    "SAMPLE_SETTINGS",
    "samples",
    "WIDGET_DEFAULTS",
    "widget_sample",
    "report",
]

CORPUS_DIR = Path(__file__).with_name("corpus")
CORPORA = {"en": "alice.txt", "zh": "lunyu.txt"}
SOURCES = {
    "en": {"title": "Alice's Adventures in Wonderland", "author": "Lewis Carroll (1865)",
           "from": "Project Gutenberg eBook #11"},
    "zh": {"title": "论语", "author": "孔子弟子及再传弟子（春秋战国）",
           "from": "chinese-poetry 仓库的 论语/lunyu.json"},
}

MODEL = {"steps": 1200, "lr": 0.003, "seed": 0, "batch": 16, "n_ctx": 32, "d_model": 32,
         "n_heads": 4, "n_layers": 2}
"""The settings chapter 12 trains both books with."""

HELD_OUT = 0.1       # the last tenth of a book is never trained on


def corpus(lang):
    """The book of ``lang`` ("en" or "zh") as one str."""
    return (CORPUS_DIR / CORPORA[check_lang(lang)]).read_text(encoding="utf-8")


def split(text):
    """(training part, held-out part): the first 90 % of ``text`` and the last 10 %."""
    cut = int(len(text) * (1 - HELD_OUT))
    return text[:cut], text[cut:]


class TextTrainer:
    """Training the tiny GPT on a text, one step at a time (settings as in :data:`MODEL`).

    The vocabulary is every character of the whole text (:func:`attnkit.bpe.char_vocab`); the
    batches are windows of the training part starting at random places, drawn from ``seed``.
    """

    def __init__(self, text, steps=MODEL["steps"], lr=MODEL["lr"], seed=MODEL["seed"],
                 batch=MODEL["batch"], n_ctx=MODEL["n_ctx"], d_model=MODEL["d_model"],
                 n_heads=MODEL["n_heads"], n_layers=MODEL["n_layers"]):
        self.vocab = char_vocab(text)
        train, _ = split(text)
        self.ids = np.array(encode_chars(train, self.vocab))        # (N,)
        self.n_ctx = check_positive_int("n_ctx", n_ctx)
        if len(self.ids) < self.n_ctx + 2:
            raise ValueError(f"the text's training part has {len(self.ids)} characters: it needs "
                             f"at least n_ctx + 2 = {self.n_ctx + 2}")
        self.steps = check_positive_int("steps", steps)
        self.batch = check_positive_int("batch", batch)
        self.lr = lr
        self.params = tinygpt.init(len(self.vocab), d_model, n_heads, n_layers, self.n_ctx, seed=seed)
        self.state = adam_init(self.params)
        self.rng = np.random.default_rng([check_seed(seed), 1])

    def batch_of_windows(self):
        """(tokens, targets), each (batch, n_ctx): windows of the text and the same shifted by one."""
        starts = self.rng.integers(0, len(self.ids) - self.n_ctx, self.batch)   # (batch,)
        windows = self.ids[starts[:, None] + np.arange(self.n_ctx + 1)]         # (batch, n_ctx + 1)
        return windows[:, :-1], windows[:, 1:]

    def step(self):
        tokens, targets = self.batch_of_windows()
        loss, grads = tinygpt.loss_and_grad(self.params, tokens, targets)
        adam_step(self.params, grads, self.state, self.lr)
        return loss

    def run(self):
        """Train ``steps`` steps. Returns (params, losses, vocab)."""
        losses = [self.step() for _ in range(self.steps)]
        return self.params, losses, self.vocab


def rounded(params):
    """The parameters rounded to float32 (and held as float64): what the browser loads."""
    return {k: v.astype(np.float32).astype(np.float64) for k, v in params.items()}


def train_on(text, **settings):
    """Train on ``text`` with :data:`MODEL`'s settings (any overridden). Returns
    {"params": float32-rounded weights, "losses": per step, "vocab": the characters}."""
    params, losses, vocab = TextTrainer(text, **settings).run()
    return {"params": rounded(params), "losses": [float(x) for x in losses], "vocab": vocab}


def model(lang):
    """The trained model of ``lang``'s book: {"params", "losses", "vocab"}."""
    return train_on(corpus(lang), **MODEL)


def held_out_windows(lang, count=64):
    """Up to ``count`` windows of the held-out tenth, side by side: (tokens, targets), (m, n_ctx)."""
    text = corpus(lang)
    vocab = char_vocab(text)
    _, held = split(text)
    ids = np.array(encode_chars(held, vocab))
    n = MODEL["n_ctx"]
    m = min(count, (len(ids) - 1) // n)
    windows = np.stack([ids[i * n:i * n + n + 1] for i in range(m)])    # (m, n + 1)
    return windows[:, :-1], windows[:, 1:]


def previous_token_scores(params, tokens):
    """Per layer and head, the mean weight a position puts on the position just before it: (L, H).

    1.0 is a head that always looks one token back; a head spread evenly over i + 1 positions
    puts about 1 / (i + 1) there.
    """
    _, cache = tinygpt.forward(params, tokens)
    cfg = tinygpt.config_of(params)
    rows = np.arange(1, np.asarray(tokens).shape[1])                    # queries 1 .. n-1
    return np.array([cache[f"h{l}"]["attn"]["weights"][:, :, rows, rows - 1].mean(axis=(0, 2))
                     for l in range(cfg["n_layers"])])                  # (L, H)


def recent_scores(params, tokens, back=3):
    """Per layer and head, the mean weight a position puts on the ``back`` positions just before
    it (i-1 .. i-back, where they exist): (L, H). Rows with fewer than ``back`` earlier positions are left out."""
    _, cache = tinygpt.forward(params, tokens)
    cfg = tinygpt.config_of(params)
    rows = np.arange(back, np.asarray(tokens).shape[1])                 # queries back .. n-1
    out = []
    for l in range(cfg["n_layers"]):
        w = cache[f"h{l}"]["attn"]["weights"]                           # (m, H, n, n)
        share = sum(w[:, :, rows, rows - j] for j in range(1, back + 1))   # (m, H, len(rows))
        out.append(share.mean(axis=(0, 2)))
    return np.array(out)                                                # (L, H)


def head_ablation(params, tokens, targets):
    """Held-out loss and accuracy with each head zeroed: {"full", "heads": [[{loss, accuracy}] per head] per layer}."""
    cfg = tinygpt.config_of(params)
    return {"full": ablation.ablate(params, tokens, targets, []),
            "heads": [[ablation.ablate(params, tokens, targets, [h], layer=l)
                       for h in range(cfg["n_heads"])] for l in range(cfg["n_layers"])],
            "layers": [ablation.ablate(params, tokens, targets, range(cfg["n_heads"]), layer=l)
                       for l in range(cfg["n_layers"])]}


def unigram_loss(lang):
    """The held-out loss of guessing each character by its frequency in the training part
    (no context at all; characters never seen in training get a count of 1/2)."""
    text = corpus(lang)
    vocab = char_vocab(text)
    train, held = split(text)
    counts = np.bincount(encode_chars(train, vocab), minlength=len(vocab)) + 0.5   # (V,)
    p = counts / counts.sum()
    return float(-np.log(p[encode_chars(held, vocab)]).mean())


MERGES = (0, 50, 100, 200, 300, 500, 700, 1000)
"""The BPE vocabularies chapter 12 measures: the book's characters plus this many merges."""


def tokenization(lang):
    """How ``lang``'s book tokenizes: {"chars", "alphabet", "utf8_bytes_per_char", "first_merges":
    [(token, count)] of the first 12 merges, "sizes": [(vocab size, tokens per character)] for
    each of :data:`MERGES`}. One BPE run of the largest size gives them all (merges are nested)."""
    text = corpus(lang)
    alphabet = len(char_vocab(text))
    full = train_bpe(text, alphabet + MERGES[-1])
    return {
        "chars": len(text), "alphabet": alphabet,
        "utf8_bytes_per_char": len(text.encode("utf-8")) / len(text),
        "first_merges": [(full.tokens[alphabet + r], full.counts[r]) for r in range(12)],
        "sizes": [(alphabet + m, tokens_per_char(text, truncate(full, alphabet + m))) for m in MERGES],
    }


SENTENCES = {"en": "said the Hatter.", "zh": "子曰：“君子不器。”"}
"""The sentence of each book whose attention section 12.4 shows."""

DECODING_PROMPTS = {"en": "said the ", "zh": "子曰：“君子"}
"""The prompts whose next-character distribution the decoding section takes apart (pages and
figures): ones after which the model is unsure, so that top-k and top-p have something to cut."""


def next_probs(lang, prompt=None, temperature=1.0, top_k=None, top_p=1.0):
    """The distribution (V,) the book model of ``lang`` draws the character after ``prompt`` from
    (:data:`DECODING_PROMPTS` by default), with these decoding settings."""
    m = model(lang)
    ids = encode_chars(DECODING_PROMPTS[lang] if prompt is None else prompt, m["vocab"])
    logits, _ = tinygpt.forward(m["params"], [ids[-MODEL["n_ctx"]:]])     # (1, n, V)
    return next_distribution(logits[0, -1], temperature, top_k, top_p)


def top_of(lang, p, k=5):
    """The ``k`` likeliest characters of a distribution ``p`` (V,) of ``lang``'s model: [(char, prob)]."""
    vocab = model(lang)["vocab"]
    order = np.argsort(-np.asarray(p), kind="stable")[:k]
    return [(vocab[i], float(p[i])) for i in order]


SAMPLE_PROMPTS = {"en": "Alice said", "zh": "子曰："}
SAMPLE_SETTINGS = {
    "greedy": {"temperature": 1.0, "top_k": 1, "top_p": 1.0},
    "t1": {"temperature": 1.0, "top_k": None, "top_p": 1.0},
    "t05": {"temperature": 0.5, "top_k": None, "top_p": 1.0},
    "t15": {"temperature": 1.5, "top_k": None, "top_p": 1.0},
    "topk": {"temperature": 1.0, "top_k": 5, "top_p": 1.0},
    "topp": {"temperature": 1.0, "top_k": None, "top_p": 0.9},
}
SAMPLE_LENGTH = {"en": 160, "zh": 60}
SAMPLE_SEED = 1
WIDGET_DEFAULTS = {"temperature": 0.8, "top_k": None, "top_p": 0.95, "seed": 1}
"""The settings the sampling widget of section 12.3 opens with (and its printed form shows)."""


def samples(lang, prompt=None, seed=SAMPLE_SEED):
    """The book's model continuing a prompt under each of :data:`SAMPLE_SETTINGS`: {name: text}."""
    m = model(lang)
    prompt = SAMPLE_PROMPTS[lang] if prompt is None else prompt
    ids = encode_chars(prompt, m["vocab"])
    return {name: decode_chars(generate(m["params"], ids, SAMPLE_LENGTH[lang], seed=seed, **s), m["vocab"])
            for name, s in SAMPLE_SETTINGS.items()}


def widget_sample(lang):
    """What the sampling widget writes with its opening settings and prompt: the new text."""
    m = model(lang)
    ids = encode_chars(SAMPLE_PROMPTS[lang], m["vocab"])
    settings = {k: v for k, v in WIDGET_DEFAULTS.items() if k != "seed"}
    new = generate(m["params"], ids, SAMPLE_LENGTH[lang], seed=WIDGET_DEFAULTS["seed"], **settings)
    return decode_chars(new, m["vocab"])


@functools.lru_cache(maxsize=2)
def _report(lang):
    m = model(lang)
    params, losses, vocab = m["params"], m["losses"], m["vocab"]
    tokens, targets = held_out_windows(lang)
    logits, _ = tinygpt.forward(params, tokens)
    held, _ = tinygpt.cross_entropy(logits, targets)
    scores = previous_token_scores(params, tokens)                     # (L, H)
    abl = head_ablation(params, tokens, targets)
    full = abl["full"]["loss"]
    rise = np.array([[h["loss"] - full for h in layer] for layer in abl["heads"]])   # (L, H)
    prev = np.unravel_index(int(np.argmax(scores)), scores.shape)
    text = corpus(lang)
    train, _ = split(text)
    return {
        "lang": lang, "chars": len(text), "train_chars": len(train), "vocab_size": len(vocab),
        "n_params": int(sum(v.size for v in params.values())), "settings": dict(MODEL),
        "losses": losses, "loss_first": losses[0], "loss_last": float(np.mean(losses[-100:])),
        "held_out_loss": float(held), "held_out_windows": len(tokens),
        "guess": math.log(len(vocab)), "unigram": unigram_loss(lang),
        "tokens_seen": MODEL["steps"] * MODEL["batch"] * MODEL["n_ctx"],
        "previous_token": scores.tolist(), "recent3": recent_scores(params, tokens).tolist(), "ablation": abl, "loss_rise": rise.tolist(),
        "prev_head": [int(prev[0]), int(prev[1])], "prev_score": float(scores[prev]),
        "prev_rise": float(rise[prev]), "max_rise": float(rise.max()),
        "max_rise_head": [int(i) for i in np.unravel_index(int(np.argmax(rise)), rise.shape)],
        "samples": samples(lang),
    }


def report(lang):
    """The numbers chapter 12 quotes about the model of ``lang``'s book (computed once per build)."""
    return dict(_report(check_lang(lang)))
