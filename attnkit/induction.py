"""Chapter 11: what training builds in a two-layer tiny GPT -- induction heads, measured.

The task (:class:`RepeatTask`): random tokens, then a random segment of random length ``L``
written twice in a row, the second copy ending the sequence (so it starts at ``p = n - 2L``):

    position   0 ... p-1 | p ... p+L-1 | p+L ... n-1
    tokens     random    | segment s   | s again

Inside the second copy, token ``i`` equals token ``i - L``, so the next token ``i + 1`` is the
token that followed the earlier occurrence of the current one. Because ``L`` changes from
sequence to sequence, no fixed look-back (chapter 8's copy task) can predict it: a model
must find where the current token appeared before and read what came after it. That rule is
what the literature calls an induction head (Elhage et al. 2021, Olsson et al. 2022).

The model is :mod:`attnkit.tinygpt` with two layers, trained by its own Adam
(:func:`attnkit.training.adam_step`) from a seed. Two scores describe each head's attention
weights ``w`` (H, n, n) on sequences of the task:

    previous-token score   mean over query rows i >= 1 of w[i, i-1]
    prefix-matching score  mean over the rows of the repeated part of
                           sum of w[i, j] over keys j >= 1 whose previous token equals token i

A head that always looks one place back scores 1 on the first; a head that looks at the token
right after the earlier copy of the current one scores 1 on the second.

    >>> w = previous_token_pattern(4)[None]                # one head, 4 positions
    >>> float(previous_token_score(w)[0])
    1.0
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import ablation, tinygpt
from .core import causal_mask, softmax_unchecked
from ._checks import as_float_array, as_token_ids, check_positive, check_positive_int, check_seed
from .training import adam_init, adam_step

__all__ = [
    "RepeatTask",
    "repeat_batch",
    "INDUCTION",
    "previous_token_pattern",
    "induction_pattern",
    "previous_token_score",
    "prefix_matching_score",
    "head_scores",
    "loss_by_position",
    "band_rule_loss",
    "induction_rule",
    "train_induction",
    "trained_run",
    "ablation_table",
    "prefix_matches",
    "composition",
    "example_sequence",
    "attention_maps",
    "held_out",
    "report",
]


# --------------------------------------------------------------------------
# the task
# --------------------------------------------------------------------------

class RepeatTask:
    """Sequences of ``n_ctx + 1`` random ids out of ``vocab_size`` ending in one segment written twice.

    The segment's length ``L`` is drawn from [min_len, max_len]; the two copies end the
    sequence. A model sees ``n_ctx`` tokens: the last one is only a target.

    >>> RepeatTask(vocab_size=16, n_ctx=20, min_len=4, max_len=9).n_ctx
    20
    >>> RepeatTask(vocab_size=16, n_ctx=10, min_len=4, max_len=9)
    Traceback (most recent call last):
    ...
    ValueError: max_len = 9 must fit twice in n_ctx + 1 = 11 tokens (2 * max_len <= n_ctx + 1), got 18
    """

    def __init__(self, vocab_size, n_ctx, min_len, max_len):
        self.vocab_size = check_positive_int("vocab_size", vocab_size)
        self.n_ctx = check_positive_int("n_ctx", n_ctx)
        self.min_len = check_positive_int("min_len", min_len)
        self.max_len = check_positive_int("max_len", max_len)
        if self.vocab_size < 2:
            raise ValueError(f"vocab_size must be at least 2, got {vocab_size}")
        if self.min_len < 2:
            raise ValueError(f"min_len must be at least 2 (a repeated part with something to "
                             f"predict), got {min_len}")
        if self.max_len < self.min_len:
            raise ValueError(f"max_len must be >= min_len = {self.min_len}, got {max_len}")
        if 2 * self.max_len > self.n_ctx + 1:
            raise ValueError(f"max_len = {max_len} must fit twice in n_ctx + 1 = {self.n_ctx + 1} "
                             f"tokens (2 * max_len <= n_ctx + 1), got {2 * self.max_len}")


def repeat_batch(rng, batch, task):
    """A batch of the task: (tokens, targets, repeated), each (batch, n_ctx).

    targets[b, i] = tokens[b, i + 1] at every position (a language model's targets; training
    scores only the repeated part, :func:`train_induction`);
    repeated[b, i] is True where position i is inside the second copy and so is its next
    token: the positions whose next token the earlier copy determines.

    >>> task = RepeatTask(vocab_size=8, n_ctx=9, min_len=3, max_len=3)
    >>> tokens, targets, repeated = repeat_batch(np.random.default_rng(1), 1, task)
    >>> tokens[0].tolist(), repeated[0].astype(int).tolist()
    ([3, 4, 6, 7, 0, 1, 6, 0, 1], [0, 0, 0, 0, 0, 0, 0, 1, 1])
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    if not isinstance(task, RepeatTask):
        raise ValueError(f"task must be a RepeatTask, got {type(task).__name__}")
    batch = check_positive_int("batch", batch)
    n = task.n_ctx + 1
    length = rng.integers(task.min_len, task.max_len + 1, size=batch)        # (batch,) L
    start = n - 2 * length                                                 # (batch,) p
    seq = rng.integers(0, task.vocab_size, size=(batch, n))                # (batch, n)
    pos = np.arange(n)[None]                                               # (1, n)
    p, L = start[:, None], length[:, None]                                 # (batch, 1)
    second = (pos >= p + L) & (pos < p + 2 * L)                            # (batch, n) the copy
    seq = np.take_along_axis(seq, np.where(second, pos - L, pos), axis=1)  # copy s over its second place
    i = pos[:, :-1]                                                        # (1, n_ctx) query positions
    repeated = (i >= p + L) & (i + 1 < p + 2 * L)                          # (batch, n_ctx)
    return seq[:, :-1], seq[:, 1:].copy(), repeated


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

    weights : (..., H, n, n) attention weights (row i = query i), n >= 2. Returns (H,);
    1.0 for a pure previous-token head, 1/2 on average for a head that spreads evenly... and
    in general the share of attention that goes one place back.

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
# the rule itself, and in-context learning
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


def band_rule_loss(tokens, targets, repeated, min_len, max_len):
    """The loss of a rule that knows the answer is one of the letters L - 1 places back, for some
    L in [min_len, max_len], but not which: it spreads its probability evenly over those
    positions (a letter found at two of them gets twice the share). Mean over the repeated rows.

    tokens, targets, repeated : (batch, n) as :func:`repeat_batch` gives them.

    >>> band_rule_loss([[0, 1, 0, 1]], [[1, 0, 1, 0]], [[0, 0, 1, 1]], 2, 2)   # L = 2: always right
    0.0
    """
    tokens = as_token_ids("tokens", tokens, np.iinfo(np.int64).max, ndim=2)
    targets = np.asarray(targets)
    rows = np.asarray(repeated, dtype=bool)
    if targets.shape != tokens.shape or rows.shape != tokens.shape:
        raise ValueError(f"targets and repeated must have the shape of tokens {tokens.shape}, "
                         f"got {targets.shape} and {rows.shape}")
    if not rows.any():
        raise ValueError("repeated must mark at least one row (all are False)")
    losses = []
    for b, i in zip(*np.nonzero(rows)):
        back = [i + 1 - L for L in range(min_len, max_len + 1) if i + 1 - L >= 0]   # candidate positions
        share = np.mean([tokens[b, j] == targets[b, i] for j in back])
        losses.append(-math.log(share) if share > 0 else math.inf)
    return float(np.mean(losses))


def loss_by_position(logits, targets):
    """Mean cross-entropy at each position over the batch: (n,). logits (batch, n, V), targets (batch, n)."""
    logits = as_float_array("logits", logits, min_ndim=3, layout="(batch, n, vocab_size)")
    targets = as_token_ids("targets", targets, logits.shape[-1], ndim=2)
    if targets.shape != logits.shape[:2]:
        raise ValueError(f"targets must have shape {logits.shape[:2]}, got shape {targets.shape}")
    shifted = logits - logits.max(axis=-1, keepdims=True)                  # (batch, n, V)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # log softmax
    nll = -np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]  # (batch, n)
    return nll.mean(axis=0)


# --------------------------------------------------------------------------
# training, with checkpoints
# --------------------------------------------------------------------------

INDUCTION = {"steps": 1000, "lr": 0.01, "seed": 0, "batch": 32, "vocab_size": 16, "n_ctx": 19,
             "min_len": 6, "max_len": 10, "d_model": 16, "n_heads": 2, "n_layers": 2, "every": 50,
             "held_out": 256}
"""The configuration chapter 11 trains: its figures, numbers and replay read it from here."""

HELD_OUT_SEED = 2027


def _task(c):
    return RepeatTask(c["vocab_size"], c["n_ctx"], c["min_len"], c["max_len"])


def held_out(**config):
    """``held_out`` sequences drawn from their own seed: (tokens, targets, repeated)."""
    c = {**INDUCTION, **config}
    return repeat_batch(np.random.default_rng(HELD_OUT_SEED), c["held_out"], _task(c))


def _check_config(config):
    unknown = sorted(set(config) - set(INDUCTION))
    if unknown:
        raise ValueError(f"unknown settings {unknown}: expected some of {sorted(INDUCTION)}")
    c = {**INDUCTION, **config}
    for name in ("steps", "batch", "every", "held_out", "d_model", "n_heads", "n_layers"):
        check_positive_int(name, c[name])
    check_positive("lr", c["lr"], why=" (the learning rate)")
    check_seed(c["seed"])
    _task(c)
    return c


def train_induction(**config):
    """Train a fresh two-layer tiny GPT on :class:`RepeatTask` and keep a checkpoint every
    ``every`` steps (and at step 0). Settings left out are :data:`INDUCTION`'s.

    Only the repeated part is scored: the rest is random and nobody can predict it.
    Returns {"losses": the loss of every step's batch (its repeated part), "steps": the
    checkpoints' step numbers, "params": the parameters at each checkpoint}. The same settings
    give the same numbers.

    >>> run = train_induction(steps=2, every=1, d_model=8)
    >>> run["steps"], len(run["params"]), [round(x, 2) for x in run["losses"]]
    ([0, 1, 2], 3, [2.77, 2.78])
    """
    c = _check_config(config)
    task = _task(c)
    params = tinygpt.init(c["vocab_size"], c["d_model"], c["n_heads"], c["n_layers"], c["n_ctx"],
                          seed=c["seed"])
    state = adam_init(params)
    rng = np.random.default_rng([c["seed"], 1])
    losses, steps, saved = [], [0], [{k: v.copy() for k, v in params.items()}]
    for step in range(1, c["steps"] + 1):
        tokens, targets, repeated = repeat_batch(rng, c["batch"], task)
        loss, grads = tinygpt.loss_and_grad(params, tokens, _repeated_only(targets, repeated))
        if not math.isfinite(loss):
            raise ValueError(f"the loss became {loss} at step {step}: the learning rate "
                             f"lr = {c['lr']} is too large")
        adam_step(params, grads, state, c["lr"])
        losses.append(loss)
        if step % c["every"] == 0 or step == c["steps"]:
            steps.append(step)
            saved.append({k: v.copy() for k, v in params.items()})
    return {"losses": losses, "steps": steps, "params": saved}


# --------------------------------------------------------------------------
# what the trained model shows
# --------------------------------------------------------------------------

def _split_loss(params, tokens, targets, repeated):
    """Loss over the repeated part and over the rest, on held-out sequences."""
    logits, _ = tinygpt.forward(params, tokens)
    nll = -_log_softmax_at(logits, targets)                   # (batch, n)
    return float(nll[repeated].mean()), float(nll[~repeated].mean())


def _log_softmax_at(logits, targets):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]


def _repeated_only(targets, repeated):
    return np.where(repeated, targets, -1)


def ablation_table(params, tokens, targets, repeated):
    """Zero each head in turn: the loss and accuracy over the repeated part, and the prefix-
    matching score of every layer-2 head with that head gone. A list of dicts, one per head."""
    cfg = tinygpt.config_of(params)
    scored = _repeated_only(targets, repeated)
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
    m_in, _ = tinygpt.layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])
    m_out, _ = tinygpt.mlp_forward(p, m_in)
    return x + m_out                                              # (batch, n, d)


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


@functools.lru_cache(maxsize=2)
def _report_of(key):
    config = dict(key)
    run = trained_run(**config)
    tokens, targets, repeated = held_out(**config)
    curve = [dict(zip(("repeated", "rest"), _split_loss(p, tokens, targets, repeated))) for p in run["params"]]
    scores = [head_scores(p, tokens, repeated) for p in run["params"]]
    final = run["params"][-1]
    logits, _ = tinygpt.forward(final, tokens)
    return {
        "steps": run["steps"], "losses": run["losses"], "curve": curve,
        "previous": np.array([s["previous"] for s in scores]),      # (checkpoints, layers, H)
        "prefix": np.array([s["prefix"] for s in scores]),          # (checkpoints, layers, H)
        "full": ablation.ablate(final, tokens, _repeated_only(targets, repeated), []),
        "ablations": ablation_table(final, tokens, targets, repeated),
        "composition": composition(final, tokens, repeated),
        "by_position": loss_by_position(logits, targets),
        "by_position_start": loss_by_position(tinygpt.forward(run["params"][0], tokens)[0], targets),
        "guess": math.log(config.get("vocab_size", INDUCTION["vocab_size"])),
        "band": band_rule_loss(tokens, targets, repeated, config["min_len"], config["max_len"]),
        "rule": float((np.stack([induction_rule(t) for t in tokens]) == targets)[repeated].mean()),
        "tokens_seen": config["steps"] * config["batch"] * config["n_ctx"],
    }


@functools.lru_cache(maxsize=2)
def _trained(key):
    return train_induction(**dict(key))     # a build memoizes train_induction on disk (bookcache.MEMOIZED)


def trained_run(**config):
    """:func:`train_induction` of ``config`` (the book's by default), trained once per process."""
    c = _check_config(config)
    return _trained(tuple(sorted(c.items())))


def report(**config):
    """The numbers chapter 11 quotes, for the settings ``config`` (the book's by default)."""
    c = _check_config(config)
    return dict(_report_of(tuple(sorted(c.items()))))


def example_sequence():
    """The held-out sequence chapter 11's maps show (the first with the longest repeat): (1, n) ids.

    >>> example_sequence().shape[0]
    1
    """
    tokens, _, repeated = held_out()                    # (N, n) ids, _, (N, n) bools
    longest = repeated.sum(axis=1)                      # (N,) repeated positions per sequence
    return tokens[int(np.argmax(longest))][None]        # (1, n)


def attention_maps(params, tokens):
    """Every head's attention weights on ``tokens`` (1, n): an array (n_layers, H, n, n)."""
    _, cache = tinygpt.forward(params, tokens)
    n_layers = tinygpt.config_of(params)["n_layers"]
    return np.stack([cache[f"h{l}"]["attn"]["weights"][0] for l in range(n_layers)])   # (L, H, n, n)
