"""Chapter 12: chapter 8's tiny GPT trained on real text, one character per token.

Two small public-domain books ship in attnkit/corpus/ (their README says where they come
from): Lewis Carroll's *Alice's Adventures in Wonderland* (English) and 《论语》 (the Analects,
Chinese). :class:`TextTrainer` trains :mod:`attnkit.tinygpt` on windows of ``n_ctx + 1``
characters drawn at random from the first 80 % of a book, with the book's one training step
(:func:`attnkit.training.train_step`, Adam). The next 10 % is the validation part: every
``check_every`` steps the trainer measures its loss there and keeps the weights of the step where
it was lowest, and it stops once ``patience`` checks in a row found nothing lower (stopping early:
a model that starts to learn its training text by heart gets worse on new text). The last 10 %
is the exam, never used for training or for choosing (:func:`split`). :func:`train_on` is a
pure function of the text and the settings (the same arguments give the same numbers), so a
build can remember it.

    >>> params, losses, vocab = TextTrainer("abc" * 20, steps=2, n_ctx=4, d_model=8,
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
from .training import adam_init, train_step

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
         "n_heads": 4, "n_layers": 2, "check_every": 50, "patience": 4}
"""The settings chapter 12 trains both books with: at most ``steps`` steps, the validation loss
measured every ``check_every`` steps, stopping after ``patience`` checks without a new lowest."""

VALIDATION = 0.1     # the tenth before the exam: for choosing when to stop
HELD_OUT = 0.1       # the last tenth of a book: the exam, never trained on nor used to choose


def corpus(lang):
    """The book of ``lang`` ("en" or "zh") as one str."""
    return (CORPUS_DIR / CORPORA[check_lang(lang)]).read_text(encoding="utf-8")


def split(text):
    """(training part, validation part, held-out part): the first 80 % of ``text``, the next 10 %
    and the last 10 %.

    >>> [len(part) for part in split("x" * 100)]
    [80, 10, 10]
    """
    exam = int(len(text) * (1 - HELD_OUT))
    check = int(len(text) * (1 - HELD_OUT - VALIDATION))
    return text[:check], text[check:exam], text[exam:]


def windows(ids, n_ctx, count=64):
    """Up to ``count`` windows of ``ids`` side by side, one after another without overlap:
    (tokens, targets), each (m, n_ctx); m = 0 when ``ids`` is shorter than n_ctx + 1.

    >>> tokens, targets = windows(list(range(10)), 4)
    >>> tokens.tolist(), targets.tolist()
    ([[0, 1, 2, 3], [4, 5, 6, 7]], [[1, 2, 3, 4], [5, 6, 7, 8]])
    """
    ids = np.asarray(ids, dtype=np.int64)
    m = max(0, min(count, (len(ids) - 1) // n_ctx))
    rows = np.stack([ids[i * n_ctx:i * n_ctx + n_ctx + 1] for i in range(m)]) if m else np.zeros((0, n_ctx + 1), np.int64)
    return rows[:, :-1], rows[:, 1:]                                     # (m, n_ctx) each


class TextTrainer:
    """Training the tiny GPT on a text, one step at a time (settings as in :data:`MODEL`).

    The vocabulary is every character of the whole text (:func:`attnkit.bpe.char_vocab`); the
    batches are windows of the training part starting at random places, drawn from ``seed``;
    the validation loss is measured on up to 64 windows of the validation part (:func:`split`).
    """

    def __init__(self, text, steps=MODEL["steps"], lr=MODEL["lr"], seed=MODEL["seed"],
                 batch=MODEL["batch"], n_ctx=MODEL["n_ctx"], d_model=MODEL["d_model"],
                 n_heads=MODEL["n_heads"], n_layers=MODEL["n_layers"],
                 check_every=MODEL["check_every"], patience=MODEL["patience"]):
        self.vocab = char_vocab(text)
        train, validation, _ = split(text)
        self.ids = np.array(encode_chars(train, self.vocab))        # (N,)
        self.n_ctx = check_positive_int("n_ctx", n_ctx)
        if len(self.ids) < self.n_ctx + 2:
            raise ValueError(f"the text's training part has {len(self.ids)} characters: it needs "
                             f"at least n_ctx + 2 = {self.n_ctx + 2}")
        self.check = windows(encode_chars(validation, self.vocab), self.n_ctx)   # (m, n_ctx) each
        if len(self.check[0]) == 0:
            raise ValueError(f"the text's validation part has {len(validation)} characters: it needs "
                             f"at least n_ctx + 1 = {self.n_ctx + 1} (the text has {len(text)}; "
                             f"the validation part is {VALIDATION:.0%} of it)")
        self.steps = check_positive_int("steps", steps)
        self.batch = check_positive_int("batch", batch)
        self.check_every = check_positive_int("check_every", check_every)
        self.patience = check_positive_int("patience", patience)
        self.lr = lr
        self.params = tinygpt.init(len(self.vocab), d_model, n_heads, n_layers, self.n_ctx, seed=seed)
        self.state = adam_init(self.params)
        self.rng = np.random.default_rng([check_seed(seed), 1])
        self.validation = []                                         # [(step, validation loss)]
        self.best_step = 0

    def batch_of_windows(self):
        """(tokens, targets), each (batch, n_ctx): windows of the text and the same shifted by one."""
        starts = self.rng.integers(0, len(self.ids) - self.n_ctx, self.batch)   # (batch,)
        windows = self.ids[starts[:, None] + np.arange(self.n_ctx + 1)]         # (batch, n_ctx + 1)
        return windows[:, :-1], windows[:, 1:]

    def step(self):
        tokens, targets = self.batch_of_windows()
        return train_step(self.params, self.state, tokens, targets, self.lr)

    def validation_loss(self):
        """The current model's loss on the validation windows."""
        logits, _ = tinygpt.forward(self.params, self.check[0])
        return tinygpt.cross_entropy(logits, self.check[1])[0]

    def run(self):
        """Train until ``steps`` steps, or until ``patience`` checks in a row found no lower
        validation loss. Returns (params of the step with the lowest validation loss, the loss
        of every step trained, vocab); ``self.validation`` and ``self.best_step`` say when."""
        self.validation = [(0, self.validation_loss())]
        best, self.best_step, since = self.validation[0][1], 0, 0
        kept = {k: v.copy() for k, v in self.params.items()}
        losses = []
        for step in range(1, self.steps + 1):
            losses.append(self.step())
            if step % self.check_every:
                continue
            loss = self.validation_loss()
            self.validation.append((step, loss))
            if loss < best:
                best, self.best_step, since = loss, step, 0
                kept = {k: v.copy() for k, v in self.params.items()}
            else:
                since += 1
                if since >= self.patience:
                    break
        return kept, losses, self.vocab


def rounded(params):
    """The parameters rounded to float32 (and held as float64): what the browser loads."""
    return {k: v.astype(np.float32).astype(np.float64) for k, v in params.items()}


def train_on(text, **settings):
    """Train on ``text`` with :data:`MODEL`'s settings (any overridden). Returns
    {"params": float32-rounded weights of the step kept, "losses": per step trained,
    "vocab": the characters, "validation": [(step, validation loss)], "best_step": the step kept}."""
    trainer = TextTrainer(text, **settings)
    params, losses, vocab = trainer.run()
    return {"params": rounded(params), "losses": [float(x) for x in losses], "vocab": vocab,
            "validation": [(int(s), float(x)) for s, x in trainer.validation], "best_step": trainer.best_step}


def model(lang):
    """The trained model of ``lang``'s book: {"params", "losses", "vocab"}."""
    return train_on(corpus(lang), **MODEL)


def held_out_windows(lang, count=64):
    """Up to ``count`` windows of the held-out tenth, side by side: (tokens, targets), (m, n_ctx)."""
    text = corpus(lang)
    _, _, held = split(text)
    return windows(encode_chars(held, char_vocab(text)), MODEL["n_ctx"], count)


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
    train, _, held = split(text)
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
    train, validation, held_text = split(text)
    best = m["best_step"]
    n = MODEL["n_ctx"]
    return {
        "lang": lang, "chars": len(text), "train_chars": len(train), "validation_chars": len(validation),
        "held_out_chars": len(held_text), "vocab_size": len(vocab),
        "n_params": int(sum(v.size for v in params.values())), "settings": dict(MODEL),
        "losses": losses, "loss_first": losses[0], "loss_last": float(np.mean(losses[-100:])),
        "validation": m["validation"], "best_step": best, "stopped_at": len(losses),
        "validation_best": min(x for _, x in m["validation"]),
        "train_at_best": float(np.mean(losses[max(0, best - 50):best])) if best else losses[0],
        "held_out_loss": float(held), "held_out_windows": len(tokens),
        "guess": math.log(len(vocab)), "unigram": unigram_loss(lang),
        "tokens_seen": best * MODEL["batch"] * n,
        "even": float(np.mean([1 / (i + 1) for i in range(1, n)])),     # an even spread's previous-token score
        "previous_token": scores.tolist(), "recent3": recent_scores(params, tokens).tolist(), "ablation": abl, "loss_rise": rise.tolist(),
        "prev_head": [int(prev[0]), int(prev[1])], "prev_score": float(scores[prev]),
        "prev_rise": float(rise[prev]), "max_rise": float(rise.max()),
        "max_rise_head": [int(i) for i in np.unravel_index(int(np.argmax(rise)), rise.shape)],
        "samples": samples(lang),
    }


def report(lang):
    """The numbers chapter 12 quotes about the model of ``lang``'s book (computed once per build)."""
    return dict(_report(check_lang(lang)))
