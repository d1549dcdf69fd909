"""Chapter 11: what training builds in a two-layer, attention-only tiny GPT -- induction heads, measured.

The task (:class:`RepeatTask`): random tokens, and somewhere among them a segment of ``L``
random tokens written a second time ``D`` places after it starts (``D >= L``: the copy starts
after the segment ends, any number of random tokens between them):

    position   0 ... p-1 | p ... p+L-1 | ... | p+D ... p+D+L-1 | ... n-1
    tokens     random    | segment s   | rnd | s again          | random

Inside the second copy, token ``i`` equals token ``i - D``, so the next token ``i + 1`` is the
token that followed the earlier occurrence of the current one. ``L``, ``D`` and the place ``p``
are drawn anew for every sequence, so neither a fixed look-back nor a position can predict it:
a model must find where the current token appeared before and read what came after it. That
rule is what the literature calls an induction head (Elhage et al. 2021, Olsson et al. 2022).

The model is :mod:`attnkit.tinygpt` with two layers and no MLPs (``ffn=False``, the
attention-only models of Elhage et al.), trained by the book's one training step
(:func:`attnkit.training.train_step`, Adam) from a seed. Two scores describe each head's
attention weights ``w`` (H, n, n) on sequences of the task:

    previous-token score   mean over query rows i >= 1 of w[i, i-1]
    prefix-matching score  mean over the rows of the repeated part of
                           sum of w[i, j] over keys j >= 1 whose previous token equals token i

A head that always looks one place back scores 1 on the first; a head that looks at the token
right after the earlier copy of the current one scores 1 on the second.

    >>> w = previous_token_pattern(4)[None]                # one head, 4 positions
    >>> float(previous_token_score(w)[0])
    1.0

When the distance ``D`` hardly varies, the same model learns something else: a shortcut that
reads positions, not tokens (:func:`band_rule`, :func:`diversity`; Kawata et al. 2025).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import ablation, tinygpt
from ._checks import as_float_array, as_token_ids, check_positive, check_positive_int, check_seed
from .core import causal_mask, softmax_unchecked
from .training import adam_init, train_step

__all__ = [
    "RepeatTask",
    "repeat_batch",
    "INDUCTION",
    "SEEDS",
    "RANGES",
    "FORMED",
    "previous_token_pattern",
    "induction_pattern",
    "previous_token_score",
    "prefix_matching_score",
    "prefix_matches",
    "head_scores",
    "induction_rule",
    "band_rule",
    "band_share",
    "untrained",
    "train_induction",
    "trained_run",
    "held_out",
    "evaluate",
    "formed_at",
    "ablation_table",
    "composition",
    "accuracy_by",
    "inside_outside",
    "steepest_drop",
    "without_first_copy",
    "map_triangles",
    "checkpoint",
    "example",
    "example_sequence",
    "attention_maps",
    "report",
    "seed_runs",
    "diversity",
    "live_reset",
    "live_run",
]


# --------------------------------------------------------------------------
# the task
# --------------------------------------------------------------------------

class RepeatTask:
    """Sequences of ``n_ctx + 1`` random ids out of ``vocab_size`` with one segment written twice.

    For each sequence the distance ``D`` between the two copies is drawn from
    [min_dist, max_dist], then the segment's length ``L`` from [min_len, min(max_len, D, n - D)]
    (``n = n_ctx + 1``: the copy starts after the segment ends and fits in the sequence), then
    its place ``p`` from [0, n - D - L]. A model sees ``n_ctx`` tokens: the last one is only a
    target.

    >>> RepeatTask(vocab_size=32, n_ctx=32, min_len=3, max_len=12, min_dist=4, max_dist=28).n_ctx
    32
    >>> RepeatTask(vocab_size=32, n_ctx=32, min_len=3, max_len=12, min_dist=4, max_dist=31)
    Traceback (most recent call last):
    ...
    ValueError: max_dist = 31 leaves no room for a second copy of min_len = 3 tokens in n_ctx + 1 = 33 (max_dist + min_len <= 33)
    """

    def __init__(self, vocab_size, n_ctx, min_len, max_len, min_dist, max_dist):
        self.vocab_size = check_positive_int("vocab_size", vocab_size)
        self.n_ctx = check_positive_int("n_ctx", n_ctx)
        self.min_len = check_positive_int("min_len", min_len)
        self.max_len = check_positive_int("max_len", max_len)
        self.min_dist = check_positive_int("min_dist", min_dist)
        self.max_dist = check_positive_int("max_dist", max_dist)
        n = self.n_ctx + 1
        if self.vocab_size < 2:
            raise ValueError(f"vocab_size must be at least 2, got {vocab_size}")
        if self.min_len < 2:
            raise ValueError(f"min_len must be at least 2 (a repeated part with something to "
                             f"predict), got {min_len}")
        if self.max_len < self.min_len:
            raise ValueError(f"max_len must be >= min_len = {self.min_len}, got {max_len}")
        if self.min_dist < self.min_len:
            raise ValueError(f"min_dist must be >= min_len = {self.min_len} (the copy starts after "
                             f"the segment ends), got {min_dist}")
        if self.max_dist < self.min_dist:
            raise ValueError(f"max_dist must be >= min_dist = {self.min_dist}, got {max_dist}")
        if self.max_dist + self.min_len > n:
            raise ValueError(f"max_dist = {max_dist} leaves no room for a second copy of min_len = "
                             f"{self.min_len} tokens in n_ctx + 1 = {n} (max_dist + min_len <= {n})")

    def settings(self):
        """The six numbers that define the task, as a dict (the keywords of the constructor)."""
        return {k: getattr(self, k) for k in ("vocab_size", "n_ctx", "min_len", "max_len", "min_dist", "max_dist")}


def repeat_batch(rng, batch, task):
    """A batch of the task: (tokens, targets, repeated), each (batch, n_ctx).

    targets[b, i] = tokens[b, i + 1] at every position (a language model's targets; training
    scores only the repeated part, :func:`train_induction`);
    repeated[b, i] is True where position i is inside the second copy and so is its next
    token: the positions whose next token the earlier copy determines (L - 1 per sequence).
    Below, the segment 7 0 1 starts at position 2 and again 5 places later, at 7; rows 7 and 8
    (at 7 and 0) know their next token.

    >>> task = RepeatTask(vocab_size=8, n_ctx=11, min_len=3, max_len=3, min_dist=5, max_dist=5)
    >>> tokens, targets, repeated = repeat_batch(np.random.default_rng(1), 1, task)
    >>> tokens[0].tolist(), repeated[0].astype(int).tolist()
    ([4, 6, 7, 0, 1, 6, 7, 7, 0, 1, 3], [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0])
    """
    tokens, targets, repeated, _ = _draw(rng, batch, task)
    return tokens, targets, repeated


def _draw(rng, batch, task):
    """:func:`repeat_batch`, and where each sequence's copies are: (start p, length L, distance D), each (batch,)."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    if not isinstance(task, RepeatTask):
        raise ValueError(f"task must be a RepeatTask, got {type(task).__name__}")
    batch = check_positive_int("batch", batch)
    n = task.n_ctx + 1
    dist = rng.integers(task.min_dist, task.max_dist + 1, size=batch)             # (batch,) D
    longest = np.minimum(np.minimum(task.max_len, dist), n - dist)               # (batch,)
    length = rng.integers(task.min_len, longest + 1)                             # (batch,) L
    start = rng.integers(0, n - dist - length + 1)                               # (batch,) p
    seq = rng.integers(0, task.vocab_size, size=(batch, n))                      # (batch, n)
    pos = np.arange(n)[None]                                                     # (1, n)
    p, L, D = start[:, None], length[:, None], dist[:, None]                     # (batch, 1)
    second = (pos >= p + D) & (pos < p + D + L)                                  # (batch, n) the copy
    seq = np.take_along_axis(seq, np.where(second, pos - D, pos), axis=1)        # s written again
    i = pos[:, :-1]                                                              # (1, n_ctx) query positions
    repeated = (i >= p + D) & (i + 1 < p + D + L)                                # (batch, n_ctx)
    return seq[:, :-1], seq[:, 1:].copy(), repeated, (start, length, dist)


# --------------------------------------------------------------------------
# the two scores
# --------------------------------------------------------------------------

def previous_token_pattern(n):
    """The attention of a pure previous-token head: row i puts all its weight on i - 1
    (row 0, with nothing before it, on itself). (n, n)

    >>> previous_token_pattern(3).tolist()
    [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    n = check_positive_int("n", n)
    w = np.zeros((n, n))
    w[0, 0] = 1.0
    w[np.arange(1, n), np.arange(n - 1)] = 1.0
    return w


def induction_pattern(tokens):
    """The attention of a pure induction head on ``tokens`` (n,): row i puts all its weight on
    the position right after the latest earlier occurrence of token i (the rule
    :func:`induction_rule` predicts with), or on itself when token i did not occur before. (n, n)

    >>> induction_pattern([0, 1, 2, 0, 1]).argmax(axis=1).tolist()
    [0, 1, 2, 1, 2]
    """
    tokens = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=1)
    n = len(tokens)
    w = np.zeros((n, n))
    for i in range(n):
        earlier = [j for j in range(i) if tokens[j] == tokens[i]]
        w[i, earlier[-1] + 1 if earlier else i] = 1.0
    return w


def _check_weights(weights):
    w = as_float_array("weights", weights, min_ndim=2, layout="(..., n, n)")
    if w.shape[-1] != w.shape[-2]:
        raise ValueError(f"weights must end in a square (n, n) of attention weights, got shape {w.shape}")
    return w


def previous_token_score(weights):
    """Per head, the mean weight a query row i >= 1 puts on position i - 1.

    weights : (..., H, n, n) attention weights (row i = query i), n >= 2. Returns (H,):
    1.0 for a pure previous-token head, and in general the share of attention that goes one
    place back.

    >>> previous_token_score(np.stack([previous_token_pattern(5), np.eye(5)])).tolist()
    [1.0, 0.0]
    """
    w = _check_weights(weights)
    n = w.shape[-1]
    if w.ndim < 3 or n < 2:
        raise ValueError(f"weights must have shape (..., H, n, n) with n >= 2, got shape {w.shape}")
    share = w[..., np.arange(1, n), np.arange(n - 1)]          # (..., H, n - 1)
    return share.reshape(-1, *share.shape[-2:]).mean(axis=(0, 2))   # (H,)


def prefix_matches(tokens):
    """Which keys match each query's prefix: (batch, n, n) booleans, [b, i, j] True when
    j >= 1, j <= i and tokens[b, j - 1] == tokens[b, i] (the token before key j is the query's).

    >>> prefix_matches([[0, 1, 0]])[0].astype(int).tolist()
    [[0, 0, 0], [0, 0, 0], [0, 1, 0]]
    """
    t = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=2)   # (batch, n)
    n = t.shape[1]
    match = np.zeros((t.shape[0], n, n), dtype=bool)
    match[:, :, 1:] = t[:, :, None] == t[:, None, :-1]        # [b, i, j]: tokens[j-1] == tokens[i]
    return match & np.tril(np.ones((n, n), dtype=bool))       # only keys j <= i


def prefix_matching_score(weights, tokens, rows):
    """Per head, the mean over the query rows ``rows`` of the weight on keys whose previous
    token equals the query's token.

    weights : (batch, H, n, n); tokens : (batch, n) ids; rows : (batch, n) booleans, the query
    rows to average over (the repeated part: :func:`repeat_batch`'s ``repeated``). Returns (H,).

    >>> t = [0, 1, 2, 0, 1]
    >>> w = np.stack([induction_pattern(t), previous_token_pattern(5)])[None]   # (1, 2, 5, 5)
    >>> prefix_matching_score(w, [t], [[0, 0, 0, 1, 1]]).tolist()
    [1.0, 0.0]
    """
    w = _check_weights(weights)
    if w.ndim != 4:
        raise ValueError(f"weights must have shape (batch, H, n, n), got shape {w.shape}")
    match = prefix_matches(tokens)                            # (batch, n, n)
    if match.shape != w.shape[:1] + w.shape[2:]:
        raise ValueError(f"tokens must have shape (batch, n) = {w.shape[:1] + w.shape[2:3]} to match "
                         f"weights {w.shape}, got shape {match.shape[:2]}")
    rows = np.asarray(rows)
    if rows.shape != match.shape[:2]:
        raise ValueError(f"rows must have shape (batch, n) = {match.shape[:2]}, got shape {rows.shape}")
    rows = rows.astype(bool)
    if not rows.any():
        raise ValueError("rows must mark at least one query row (all are False)")
    on_matches = (w * match[:, None]).sum(axis=-1)            # (batch, H, n)
    return on_matches.transpose(1, 0, 2)[:, rows].mean(axis=1)   # (H,)


def head_scores(params, tokens, rows):
    """Both scores for every head of a model: {"previous": (layers, H), "prefix": (layers, H)}."""
    _, cache = tinygpt.forward(params, tokens)
    n_layers = tinygpt.config_of(params)["n_layers"]
    weights = [cache[f"h{l}"]["attn"]["weights"] for l in range(n_layers)]   # (batch, H, n, n) each
    return {"previous": np.array([previous_token_score(w) for w in weights]),
            "prefix": np.array([prefix_matching_score(w, tokens, rows) for w in weights])}


# --------------------------------------------------------------------------
# two rules without learning: the induction rule, and the band rule (the shortcut)
# --------------------------------------------------------------------------

def induction_rule(tokens):
    """The induction rule as code: for each position, the token that followed the latest
    earlier occurrence of the current token, or -1 when it did not occur before. (n,)

    >>> induction_rule([0, 1, 2, 0, 1]).tolist()
    [-1, -1, -1, 1, 2]
    """
    tokens = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=1)
    guess = np.full(len(tokens), -1, dtype=np.int64)
    last = {}
    for i, t in enumerate(tokens):
        t = int(t)
        if t in last:
            guess[i] = tokens[last[t] + 1]
        last[t] = i
    return guess


def band_rule(tokens, targets, repeated, min_dist, max_dist):
    """A rule that reads positions, not tokens: it knows the answer is the token D places
    before the one to guess, for some D in [min_dist, max_dist], but not which D, so it spreads
    its probability evenly over those places (a token found at two of them gets twice the
    share). Returns {"loss": mean cross-entropy, "accuracy": the share it puts on the right
    token, on average: how often a guess drawn from it is right}, over the repeated rows.

    tokens, targets, repeated : (batch, n) as :func:`repeat_batch` gives them.

    >>> band_rule([[0, 1, 0, 1]], [[1, 0, 1, 0]], [[0, 0, 1, 1]], 2, 2)   # D = 2: always right
    {'loss': 0.0, 'accuracy': 1.0}
    """
    tokens = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=2)
    targets = np.asarray(targets)
    rows = np.asarray(repeated, dtype=bool)
    if targets.shape != tokens.shape or rows.shape != tokens.shape:
        raise ValueError(f"targets and repeated must have the shape of tokens {tokens.shape}, "
                         f"got {targets.shape} and {rows.shape}")
    if not rows.any():
        raise ValueError("repeated must mark at least one row (all are False)")
    min_dist = check_positive_int("min_dist", min_dist)
    max_dist = check_positive_int("max_dist", max_dist)
    if max_dist < min_dist:
        raise ValueError(f"max_dist must be >= min_dist = {min_dist}, got {max_dist}")
    losses, shares = [], []
    for b, i in zip(*np.nonzero(rows)):
        back = [i + 1 - D for D in range(min_dist, max_dist + 1) if i + 1 - D >= 0]   # the places
        share = float(np.mean([tokens[b, j] == targets[b, i] for j in back])) if back else 0.0
        shares.append(share)
        losses.append(-math.log(share) if share > 0 else math.inf)
    return {"loss": float(np.mean(losses)), "accuracy": float(np.mean(shares))}


def band_share(weights, rows, min_dist, max_dist):
    """Per head, how much of its attention the rows ``rows`` put on the band of places where
    the band rule looks: keys j with i - j + 1 in [min_dist, max_dist] (the token D places
    before the one row i guesses, i + 1, for each D in range). (H,)

    weights : (batch, H, n, n); rows : (batch, n) booleans (the repeated part).

    >>> w = previous_token_pattern(6)[None, None]            # looks one back: D = 2
    >>> band_share(w, [[0, 0, 0, 1, 1, 1]], 2, 3).tolist(), band_share(w, [[0, 0, 0, 1, 1, 1]], 3, 4).tolist()
    ([1.0], [0.0])
    """
    w = _check_weights(weights)
    if w.ndim != 4:
        raise ValueError(f"weights must have shape (batch, H, n, n), got shape {w.shape}")
    rows = np.asarray(rows, dtype=bool)
    if rows.shape != w.shape[:1] + w.shape[2:3]:
        raise ValueError(f"rows must have shape (batch, n) = {w.shape[:1] + w.shape[2:3]}, got shape {rows.shape}")
    if not rows.any():
        raise ValueError("rows must mark at least one query row (all are False)")
    n = w.shape[-1]
    back = np.arange(n)[:, None] - np.arange(n)[None] + 1               # (n, n): i - j + 1
    band = (back >= min_dist) & (back <= max_dist)                       # (n, n)
    on_band = (w * band).sum(axis=-1)                                    # (batch, H, n)
    return on_band.transpose(1, 0, 2)[:, rows].mean(axis=1)             # (H,)


# --------------------------------------------------------------------------
# training, with checkpoints
# --------------------------------------------------------------------------

INDUCTION = {"steps": 1500, "lr": 0.01, "warmup": 100, "seed": 0, "batch": 32,
             "vocab_size": 26, "n_ctx": 32, "min_len": 3, "max_len": 12, "min_dist": 4, "max_dist": 28,
             "d_model": 16, "n_heads": 2, "n_layers": 2, "every": 50, "held_out": 256}
"""The configuration chapter 11 trains: its figures, numbers, replay and live widget read it from here."""

SEEDS = (0, 1, 2)
"""The seeds chapter 11 trains the book's configuration from (the first is the one it takes apart)."""

RANGES = ((4, 8), (4, 12), (4, 16), (4, 20), (4, 28))
"""The ranges of distances [min_dist, max_dist] of the diversity sweep (the last is the book's)."""

FORMED = {"previous": 0.3, "prefix": 0.5}
"""When a head counts as formed: a previous-token head once its previous-token score passes 0.3
(three times what a head that spreads evenly over 32 positions scores, 0.10); an induction head
once its prefix-matching score passes 0.5 (more than half of its attention on the keys the
induction rule points to)."""

HELD_OUT_SEED = 2027
_TASK_KEYS = ("vocab_size", "n_ctx", "min_len", "max_len", "min_dist", "max_dist")


def _task(c):
    return RepeatTask(*(c[k] for k in _TASK_KEYS))


def _check_config(config):
    unknown = sorted(set(config) - set(INDUCTION))
    if unknown:
        raise ValueError(f"unknown settings {unknown}: expected some of {sorted(INDUCTION)}")
    c = {**INDUCTION, **config}
    for name in ("steps", "batch", "every", "held_out", "d_model", "n_heads", "n_layers"):
        check_positive_int(name, c[name])
    if isinstance(c["warmup"], bool) or not isinstance(c["warmup"], int) or c["warmup"] < 0:
        raise ValueError(f"warmup must be a whole number of steps >= 0, got {c['warmup']!r}")
    check_positive("lr", c["lr"], why=" (the learning rate)")
    check_seed(c["seed"])
    _task(c)
    return c


def held_out(**config):
    """``held_out`` sequences of the task drawn from their own seed: (tokens, targets, repeated)."""
    c = _check_config(config)
    return repeat_batch(np.random.default_rng(HELD_OUT_SEED), c["held_out"], _task(c))


def untrained(**config):
    """The model a run of these settings starts from: an attention-only tiny GPT (``ffn=False``).

    >>> tinygpt.config_of(untrained())
    {'vocab_size': 26, 'd_model': 16, 'n_heads': 2, 'n_layers': 2, 'n_ctx': 32}
    """
    c = _check_config(config)
    return tinygpt.init(c["vocab_size"], c["d_model"], c["n_heads"], c["n_layers"], c["n_ctx"],
                        seed=c["seed"], ffn=False)


def _learning_rate(c, step):
    """The learning rate of step ``step`` (1-based): rising linearly over ``warmup`` steps, then flat."""
    return c["lr"] * min(1.0, step / c["warmup"]) if c["warmup"] else c["lr"]


class _Run:
    """One training run of the task, a step at a time (what :func:`train_induction` and the
    live widget share): the model, Adam's state and the stream of batches of ``seed``."""

    def __init__(self, c):
        self.c = c
        self.task = _task(c)
        self.params = untrained(**c)
        self.state = adam_init(self.params)
        self.rng = np.random.default_rng([c["seed"], 1])
        self.step_count = 0

    def run(self, k):
        """``k`` more steps; returns their losses (each measured on its batch before its update)."""
        losses = []
        for _ in range(k):
            tokens, targets, repeated = repeat_batch(self.rng, self.c["batch"], self.task)
            self.step_count += 1
            scored = np.where(repeated, targets, -1)          # only the repeated part is scored
            losses.append(train_step(self.params, self.state, tokens, scored,
                                     _learning_rate(self.c, self.step_count), step=self.step_count))
        return losses


def train_induction(**config):
    """Train a fresh two-layer attention-only tiny GPT on :class:`RepeatTask` and keep a
    checkpoint every ``every`` steps (and at step 0). Settings left out are :data:`INDUCTION`'s.

    Only the repeated part is scored: the rest is random and nobody can predict it. The
    learning rate rises over the first ``warmup`` steps. Returns {"losses": the loss of every
    step's batch (its repeated part), "steps": the checkpoints' step numbers, "params": the
    parameters at each checkpoint}. The same settings give the same numbers.

    >>> run = train_induction(steps=2, every=1, d_model=8)
    >>> run["steps"], len(run["params"]), [round(x, 2) for x in run["losses"]]
    ([0, 1, 2], 3, [3.27, 3.26])
    """
    c = _check_config(config)
    run = _Run(c)
    losses, steps, saved = [], [0], [{k: v.copy() for k, v in run.params.items()}]
    while run.step_count < c["steps"]:
        losses += run.run(min(c["every"], c["steps"] - run.step_count))
        steps.append(run.step_count)
        saved.append({k: v.copy() for k, v in run.params.items()})
    return {"losses": losses, "steps": steps, "params": saved}


@functools.lru_cache(maxsize=8)
def _trained(key):
    return train_induction(**dict(key))     # a build memoizes train_induction on disk (bookcache.MEMOIZED)


def trained_run(**config):
    """:func:`train_induction` of ``config`` (the book's by default), trained once per process."""
    c = _check_config(config)
    return _trained(tuple(sorted(c.items())))


# --------------------------------------------------------------------------
# measuring a model
# --------------------------------------------------------------------------

def _log_softmax_at(logits, targets):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]


def evaluate(params, tokens, targets, repeated):
    """On the repeated part of these sequences: {"loss", "accuracy", "previous": (layers, H),
    "prefix": (layers, H)} -- the loss and the share of top guesses that are right, and both
    scores of every head (one forward pass)."""
    logits, cache = tinygpt.forward(params, tokens)                          # (batch, n, V)
    rows = np.asarray(repeated, dtype=bool)
    nll = -_log_softmax_at(logits, targets)                                  # (batch, n)
    weights = [cache[f"h{l}"]["attn"]["weights"] for l in range(tinygpt.config_of(params)["n_layers"])]
    return {"loss": float(nll[rows].mean()),
            "accuracy": float((logits.argmax(axis=-1) == targets)[rows].mean()),
            "previous": np.array([previous_token_score(w) for w in weights]),
            "prefix": np.array([prefix_matching_score(w, tokens, rows) for w in weights])}


def formed_at(steps, previous, prefix, formed=FORMED):
    """The first checkpoint step at which some layer-1 head's previous-token score and some
    last-layer head's prefix-matching score have both passed their thresholds (:data:`FORMED`),
    or None.

    steps : (C,); previous, prefix : (C, layers, H) as :func:`report` keeps them.

    >>> formed_at([0, 50, 100], np.array([[[.1]], [[.4]], [[.4]]]).repeat(2, 1), np.array([[[.1]], [[.2]], [[.9]]]).repeat(2, 1))
    100
    """
    previous, prefix = np.asarray(previous), np.asarray(prefix)
    both = (previous[:, 0].max(axis=-1) > formed["previous"]) & (prefix[:, -1].max(axis=-1) > formed["prefix"])
    return int(np.asarray(steps)[np.argmax(both)]) if both.any() else None


def ablation_table(params, tokens, targets, repeated):
    """Zero each head in turn: the loss and accuracy over the repeated part, and the prefix-
    matching score of every last-layer head with that head gone. A list of dicts, one per head."""
    cfg = tinygpt.config_of(params)
    scored = np.where(repeated, targets, -1)
    rows = []
    for l in range(cfg["n_layers"]):
        for h in range(cfg["n_heads"]):
            r = ablation.ablate(params, tokens, scored, [h], layer=l)
            rows.append({"layer": l, "head": h, **r,
                         "prefix_after": _prefix_with_ablation(params, tokens, repeated, l, h).tolist()})
    return rows


def _prefix_with_ablation(params, tokens, repeated, layer, head):
    """The last layer's prefix-matching scores (H,) when head ``head`` of ``layer`` is zeroed
    (same as zeroing its slice of w_o), measured on tokens."""
    zeroed = {k: v.copy() for k, v in params.items()}
    zeroed[f"h{layer}.attn.w_o"][head] = 0.0
    return head_scores(zeroed, tokens, repeated)["prefix"][-1]


def _layer_0_stream(params, tokens, drop=None):
    """The residual stream after layer 0 (batch, n, d), with head ``drop`` of layer 0 left out."""
    p = tinygpt.layer_params(params, 0)
    n = tokens.shape[1]
    x = params["wte"][tokens] + params["wpe"][:n]                 # (batch, n, d)
    a_in, _ = tinygpt.layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])
    _, attn = tinygpt.attention_forward(p, a_in)
    out = attn["z"] @ attn["w_o"]                                 # (batch, H, n, d) per head
    if drop is not None:
        out = np.delete(out, drop, axis=1)
    x = x + out.sum(axis=1)
    if "mlp.w_1" in p:                                            # a model with MLPs
        m_in, _ = tinygpt.layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])
        m_out, _ = tinygpt.mlp_forward(p, m_in)
        x = x + m_out
    return x                                                      # (batch, n, d)


def composition(params, tokens, rows):
    """How layer 1's heads feed layer 2's attention (a two-layer model).

    For each head h of layer 1 (index 0), layer 2's attention weights are recomputed with that
    head's output taken out of the residual stream only where layer 2 forms its keys ("k"),
    only where it forms its queries ("q"), or both ("both"); the result is layer 2's prefix-
    matching score per head in each case, next to the intact one ("none").
    Returns {"none": (H,), "k": (H_1, H), "q": (H_1, H), "both": (H_1, H)}.
    If a layer-2 head's score falls when a layer-1 head leaves its keys, its keys read what
    that head wrote: K-composition (Elhage et al. 2021).
    """
    cfg = tinygpt.config_of(params)
    if cfg["n_layers"] != 2:
        raise ValueError(f"composition needs a model of 2 layers, got {cfg['n_layers']}")
    tokens = as_token_ids("tokens", tokens, cfg["vocab_size"], ndim=2)
    p = tinygpt.layer_params(params, 1)

    def prefix(x_q, x_k):
        """Layer 2's prefix-matching scores when its queries read x_q and its keys x_k."""
        q_in, _ = tinygpt.layer_norm_forward(x_q, p["ln_1.g"], p["ln_1.b"])   # (batch, n, d)
        k_in, _ = tinygpt.layer_norm_forward(x_k, p["ln_1.g"], p["ln_1.b"])
        q = q_in[:, None] @ p["attn.w_q"]                        # (batch, H, n, d_head)
        k = k_in[:, None] @ p["attn.w_k"]                        # (batch, H, n, d_head)
        scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])   # (batch, H, n, n)
        n = scores.shape[-1]
        w = softmax_unchecked(scores, -1, np.broadcast_to(causal_mask(n), scores.shape))
        return prefix_matching_score(w, tokens, rows)

    x = _layer_0_stream(params, tokens)
    result = {"none": prefix(x, x), "k": [], "q": [], "both": []}
    for h in range(cfg["n_heads"]):
        x_without = _layer_0_stream(params, tokens, drop=h)
        result["k"].append(prefix(x, x_without))
        result["q"].append(prefix(x_without, x))
        result["both"].append(prefix(x_without, x_without))
    return {name: np.array(value) for name, value in result.items()}


def _accuracy(params, tokens, targets, repeated):
    logits, _ = tinygpt.forward(params, tokens)
    return float((logits.argmax(axis=-1) == targets)[np.asarray(repeated, dtype=bool)].mean())


def inside_outside(by, lo, hi):
    """Mean accuracy of :func:`accuracy_by`'s result at the values inside [lo, hi] and outside it
    (model, then rule): {"inside": (model, rule), "outside": (model, rule), "values": [outside values]}."""
    v = np.array(by["values"])
    inside = (v >= lo) & (v <= hi)
    pick = lambda mask, key: float(np.mean(np.array(by[key])[mask])) if mask.any() else float("nan")   # noqa: E731
    return {"inside": (pick(inside, "model"), pick(inside, "rule")),
            "outside": (pick(~inside, "model"), pick(~inside, "rule")), "values": v[~inside].tolist()}


def accuracy_by(params, what, values, count=128, **config):
    """The model's accuracy on the repeated part of fresh sequences whose distance (``what =
    "dist"``) or segment length (``"len"``) is each of ``values``, the rest of the task as in
    ``config``. Also the induction rule's on the same sequences. Returns {"values": [...],
    "model": [...], "rule": [...]}; a value that cannot fit in the context is left out.

    For a distance D the lengths are drawn from [min_len, min(max_len, D, n - D)]; for a
    length L the distances from [L, n - L] (any place the copy fits).
    """
    c = _check_config(config)
    if what not in ("dist", "len"):
        raise ValueError(f"what must be 'dist' (the distance) or 'len' (the segment's length), got {what!r}")
    n = c["n_ctx"] + 1
    out = {"values": [], "model": [], "rule": []}
    for v in values:
        v = check_positive_int(what, v)
        if what == "dist":
            lo, hi = min(c["min_len"], v), min(c["max_len"], v, n - v)
            ranges = dict(min_len=lo, max_len=hi, min_dist=v, max_dist=v)
        else:
            ranges = dict(min_len=v, max_len=v, min_dist=v, max_dist=n - v)
        if ranges["max_len"] < max(ranges["min_len"], 2) or ranges["max_dist"] < ranges["min_dist"]:
            continue
        task = RepeatTask(c["vocab_size"], c["n_ctx"], **ranges)
        rng = np.random.default_rng([HELD_OUT_SEED, 1 if what == "dist" else 2, v])
        tokens, targets, repeated = repeat_batch(rng, count, task)
        rule = np.stack([induction_rule(t) for t in tokens])                  # (count, n)
        out["values"].append(v)
        out["model"].append(_accuracy(params, tokens, targets, repeated))
        out["rule"].append(float((rule == targets)[repeated].mean()))
    return out


def without_first_copy(tokens, repeated, seed=0, vocab_size=None):
    """The same sequences with every token before the second copy replaced by fresh random
    ones: the second copy, the targets and the scored rows stay, the first copy (and with it
    any earlier occurrence of the tokens to guess from) is gone. (batch, n) ids.

    tokens, repeated : (batch, n) as :func:`repeat_batch` gives them; vocab_size: the ids to
    draw from (by default up to the largest in ``tokens``).

    >>> without_first_copy([[5, 6, 7, 5, 6, 7]], [[0, 0, 0, 1, 1, 0]], seed=1).tolist()[0][3:]
    [5, 6, 7]
    """
    tokens = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=2).copy()
    rows = np.asarray(repeated, dtype=bool)
    if rows.shape != tokens.shape:
        raise ValueError(f"repeated must have the shape of tokens {tokens.shape}, got {rows.shape}")
    vocab_size = int(tokens.max()) + 1 if vocab_size is None else check_positive_int("vocab_size", vocab_size)
    rng = np.random.default_rng(check_seed(seed))
    fresh = rng.integers(0, vocab_size, size=tokens.shape)                    # (batch, n)
    starts = np.where(rows.any(axis=1), rows.argmax(axis=1), 0)              # (batch,) the second copy's start
    before = np.arange(tokens.shape[1])[None] < starts[:, None]              # (batch, n)
    return np.where(before, fresh, tokens)


def example(**config):
    """The held-out sequence chapter 11's maps show, the first with the longest segment, and
    where its copies are: {"tokens": (1, n) ids, "first": (p, p + L - 1), "second": (p + D,
    p + D + L - 1), "dist": D} (positions counted from 0; the last token of the second copy may
    be the target after the n_ctx tokens shown).

    >>> e = example()
    >>> e["second"][0] - e["first"][0] == e["dist"]
    True
    """
    c = _check_config(config)
    tokens, _, repeated, (start, length, dist) = _draw(np.random.default_rng(HELD_OUT_SEED), c["held_out"], _task(c))
    b = int(np.argmax(length))                          # the first with the longest segment
    p, L, D = int(start[b]), int(length[b]), int(dist[b])
    return {"tokens": tokens[b][None], "first": (p, p + L - 1), "second": (p + D, p + D + L - 1), "dist": D}


def example_sequence(**config):
    """The held-out sequence chapter 11's maps show (:func:`example`): (1, n) ids.

    >>> example_sequence().shape[0]
    1
    """
    return example(**config)["tokens"]


def attention_maps(params, tokens):
    """Every head's attention weights on ``tokens`` (1, n): an array (n_layers, H, n, n)."""
    _, cache = tinygpt.forward(params, tokens)
    n_layers = tinygpt.config_of(params)["n_layers"]
    return np.stack([cache[f"h{l}"]["attn"]["weights"][0] for l in range(n_layers)])   # (L, H, n, n)


# --------------------------------------------------------------------------
# what chapter 11 quotes
# --------------------------------------------------------------------------

def _over_training(run, tokens, targets, repeated):
    """Every checkpoint evaluated: {"loss": [...], "accuracy": [...], "previous", "prefix": (C, layers, H)}."""
    marks = [evaluate(p, tokens, targets, repeated) for p in run["params"]]
    return {"loss": [m["loss"] for m in marks], "accuracy": [m["accuracy"] for m in marks],
            "previous": np.array([m["previous"] for m in marks]),
            "prefix": np.array([m["prefix"] for m in marks])}


def report(**config):
    """The numbers chapter 11 quotes about the run of ``config`` (the book's by default)."""
    c = _check_config(config)
    return dict(_report_of(tuple(sorted(c.items()))))


DISTANCES = tuple(range(3, 31))
LENGTHS = tuple(range(2, 17))


@functools.lru_cache(maxsize=2)
def _report_of(key):
    c = dict(key)
    run = trained_run(**c)
    tokens, targets, repeated = held_out(**c)
    marks = _over_training(run, tokens, targets, repeated)
    final = run["params"][-1]
    scored = np.where(repeated, targets, -1)
    prev_head = int(np.argmax(marks["previous"][-1][0]))            # layer 1's best previous-token head
    ind_head = int(np.argmax(marks["prefix"][-1][-1]))              # layer 2's best induction head
    blind = without_first_copy(tokens, repeated, vocab_size=c["vocab_size"])
    return {
        "steps": run["steps"], "losses": run["losses"], **marks,
        "formed": formed_at(run["steps"], marks["previous"], marks["prefix"]),
        "prev_head": prev_head, "ind_head": ind_head,
        "full": ablation.ablate(final, tokens, scored, []),
        "ablations": ablation_table(final, tokens, targets, repeated),
        "composition": composition(final, tokens, repeated),
        "guess": math.log(c["vocab_size"]),
        "rule": float((np.stack([induction_rule(t) for t in tokens]) == targets)[repeated].mean()),
        "band": band_rule(tokens, targets, repeated, c["min_dist"], c["max_dist"]),
        "by_dist": (by_dist := accuracy_by(final, "dist", DISTANCES, **c)),
        "by_len": (by_len := accuracy_by(final, "len", LENGTHS, **c)),
        "dist_split": inside_outside(by_dist, c["min_dist"], c["max_dist"]),
        "len_split": inside_outside(by_len, c["min_len"], c["max_len"]),
        "blind": ablation.ablate(final, blind, scored, []),
        "drop": steepest_drop(run["steps"], marks["loss"]),
        "tokens_seen": c["steps"] * c["batch"] * c["n_ctx"],
    }


def steepest_drop(steps, losses, span=200):
    """Where a loss curve falls most within ``span`` steps: (from_step, to_step, from_loss, to_loss).

    >>> steepest_drop([0, 100, 200, 300, 400], [3.0, 2.9, 2.0, 1.2, 1.1], span=100)
    (100, 200, 2.9, 2.0)
    """
    steps, losses = list(steps), list(losses)
    best = None
    for i, s in enumerate(steps):
        for j in range(i + 1, len(steps)):
            if steps[j] - s > span:
                break
            if steps[j] - s == span and (best is None or losses[i] - losses[j] > best[2] - best[3]):
                best = (s, steps[j], losses[i], losses[j])
    if best is None:
        raise ValueError(f"no two checkpoints are span = {span} steps apart")
    return best


def seed_runs(seeds=SEEDS, **config):
    """The book's configuration trained from each seed: for each, {"seed", "formed" (step or
    None), "loss" and "accuracy" on the held-out repeated part at each checkpoint, "previous"
    and "prefix" at the end (layers, H)}, and "steps", the checkpoints."""
    c = _check_config(config)
    tokens, targets, repeated = held_out(**c)
    out = []
    for seed in seeds:
        run = trained_run(**{**c, "seed": check_seed(seed)})
        marks = _over_training(run, tokens, targets, repeated)
        out.append({"seed": seed, "formed": formed_at(run["steps"], marks["previous"], marks["prefix"]),
                    "loss": marks["loss"], "accuracy": marks["accuracy"],
                    "previous": marks["previous"][-1], "prefix": marks["prefix"][-1]})
    return {"steps": trained_run(**c)["steps"], "runs": out}


def diversity(ranges=RANGES, **config):
    """The diversity sweep: the book's model and training, seed ``config["seed"]``, on tasks whose
    distances range over each [min_dist, max_dist] of ``ranges``. For each range: its own held-out
    loss and accuracy at the end, both rules' on the same sequences, each layer's best
    previous-token, prefix-matching and band score (:func:`band_share`; "band_even": a head that
    spreads every row evenly), the step the heads formed (or None) and the accuracy at every
    distance of :data:`DISTANCES`."""
    c = _check_config(config)
    out = []
    for lo, hi in ranges:
        s = {**c, "min_dist": lo, "max_dist": hi}
        _check_config(s)
        run = trained_run(**s)
        tokens, targets, repeated = held_out(**s)
        marks = _over_training(run, tokens, targets, repeated)
        final = run["params"][-1]
        _, cache = tinygpt.forward(final, tokens)
        bands = [band_share(cache[f"h{l}"]["attn"]["weights"], repeated, lo, hi) for l in range(c["n_layers"])]
        n = tokens.shape[1]
        even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]                       # (n, n) rows spread evenly
        band_even = band_share(np.broadcast_to(even, (len(tokens), 1, n, n)), repeated, lo, hi)[0]
        out.append({
            "range": (lo, hi), "loss": marks["loss"][-1], "accuracy": marks["accuracy"][-1],
            "previous": marks["previous"][-1].max(axis=-1).tolist(), "prefix": marks["prefix"][-1].max(axis=-1).tolist(),
            "band_share": [float(b.max()) for b in bands], "band_even": float(band_even),
            "formed": formed_at(run["steps"], marks["previous"], marks["prefix"]),
            "band": band_rule(tokens, targets, repeated, lo, hi),
            "rule": float((np.stack([induction_rule(t) for t in tokens]) == targets)[repeated].mean()),
            "by_dist": (by := accuracy_by(final, "dist", DISTANCES, **s)),
            "split": inside_outside(by, lo, hi),
        })
    return out


# --------------------------------------------------------------------------
# training live, a few steps at a time (the widget of section 11.2, in Pyodide)
# --------------------------------------------------------------------------

_live = {}


def live_reset(seed=INDUCTION["seed"]):
    """Start a fresh run of the book's configuration from ``seed`` for the live widget.
    Returns the state to draw (see :func:`live_run`).

    >>> live_reset(seed=0)["step"]
    0
    """
    c = _check_config({"seed": seed})
    _live["run"] = _Run(c)
    _live["held_out"] = held_out(**c)
    _live["example"] = example_sequence(**c)                    # (1, n)
    return _live_state()


def live_run(k):
    """``k`` more steps of the live run. Returns {"step", "loss", "accuracy" (held-out repeated
    part), "previous", "prefix" (one score per head, layer by layer), "maps" (each head's
    attention on the example, lower triangle in percent)}: what the build keeps per checkpoint."""
    if "run" not in _live:
        raise ValueError("call live_reset() before live_run()")
    run = _live["run"]
    k = min(check_positive_int("k", k), run.c["steps"] - run.step_count)   # never past the book's steps
    if k:
        run.run(k)
    return _live_state()


def _live_state():
    run = _live["run"]
    return {"step": run.step_count, **checkpoint(run.params, _live["held_out"], _live["example"])}


def checkpoint(params, held, tokens):
    """What the widget of section 11.2 draws for one model, numbers rounded once, here, as the
    page prints them: {"loss": float, "lossText": "1.337", "accuracy": float, "previous",
    "prefix": ["0.54", ...] (one per head, layer by layer), "maps": :func:`map_triangles` on
    ``tokens`` (1, n)}. held : (tokens, targets, repeated) of the held-out sequences."""
    mark = evaluate(params, *held)
    return {"loss": round(mark["loss"], 6), "lossText": f"{mark['loss']:.3f}",
            "accuracy": round(mark["accuracy"], 6),
            "previous": [f"{x:.2f}" for x in mark["previous"].ravel()],
            "prefix": [f"{x:.2f}" for x in mark["prefix"].ravel()],
            "maps": map_triangles(attention_maps(params, tokens))}


def map_triangles(maps):
    """Attention maps (layers, H, n, n) as the widgets draw them: per head, the lower triangle
    row by row, in whole percent. [[int] * (n (n + 1) / 2)] * (layers H)

    >>> map_triangles(previous_token_pattern(2)[None, None])
    [[100, 100, 0]]
    """
    maps = np.asarray(maps)
    n = maps.shape[-1]
    rows, cols = np.tril_indices(n)
    return [[int(x) for x in np.rint(100 * head[rows, cols])] for layer in maps for head in layer]
