"""Attention against the tiny RNN of :mod:`attnkit.rnn`: what each buys and what each costs.

- :func:`attention_influence_on_last`: how strongly each token moves the LAST output of one
  self-attention layer, the counterpart of :func:`attnkit.rnn.influence_on_last`.
- :func:`score_matrix` / :func:`score_bytes`: the (n, n) weight matrix that attention really
  allocates, and its size in bytes.
- :func:`table1`, :func:`layer_complexity`, :func:`table1_sequential_ops`,
  :func:`table1_max_path`: Table 1 of "Attention Is All You Need", as numbers for a given n and d.
- :func:`layer_macs`, :func:`score_share`, :func:`growth_when_doubled`: the multiply-adds of one
  whole encoder layer, split into its parts, and what share of them the n x n part is.
- :func:`wall_time`, :func:`time_rnn_and_attention`, :func:`time_scores`: wall-clock
  measurements. They differ from machine to machine and run to run, so the book shows them
  only in its lab notebook (which is executed afresh at every build), never in a test.
  Each is the fastest of several runs, taken in turns (every length once, then again...), so
  that a moment when the machine is busy slows one run of each length, not every run of one.
- :func:`score_macs`: the multiply-adds :func:`score_matrix` does, the count that does not
  depend on the machine.

    >>> score_bytes(1000)             # one float64 weight per pair of tokens
    8000000
"""

from __future__ import annotations

import time

import numpy as np

from ._checks import check_positive_int, check_seed
from .core import scaled_dot_product_attention
from .rnn import influence_on_last, init_rnn, random_tokens, rnn_forward

__all__ = [
    "init_attention",
    "self_attention",
    "attention_influence_on_last",
    "score_matrix",
    "score_bytes",
    "score_macs",
    "wall_time",
    "wall_times",
    "time_rnn_and_attention",
    "time_scores",
    "influence_ratios",
    "TABLE1_KINDS",
    "layer_complexity",
    "table1_sequential_ops",
    "table1_max_path",
    "table1",
    "layer_macs",
    "score_share",
    "growth_when_doubled",
]


def init_attention(d, *, seed=0):
    """Random ``w_q, w_k, w_v`` of shape (d, d), entries N(0, 1/d).

    >>> [w.shape for w in init_attention(4)]
    [(4, 4), (4, 4), (4, 4)]
    """
    d = check_positive_int("d", d)
    rng = np.random.default_rng(check_seed(seed))
    return tuple(rng.normal(0, 1 / np.sqrt(d), size=(3, d, d)))


def self_attention(x, w_q, w_k, w_v):
    """One self-attention layer: x (n, d) -> (n, d), all rows at once (no loop over tokens)."""
    out, _ = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v)   # (n, d)
    return out


def attention_influence_on_last(x, w_q, w_k, w_v, eps=1e-6):
    """``||d out_n / d x_s||_2`` for every token s: shape (n,).

    The Jacobian of the last output row with respect to each input row, by central
    differences (accurate to about eps^2), and its largest singular value, the same
    measure as :func:`attnkit.rnn.influence_on_last`.

    >>> x = random_tokens(6, 4, seed=1)
    >>> g = attention_influence_on_last(x, *init_attention(4))
    >>> g.shape, bool(g.min() > 0.01)
    ((6,), True)
    """
    x = np.asarray(x, dtype=float)
    n, d = x.shape
    out = np.empty(n)
    for s in range(n):
        jac = np.empty((d, d))                                   # (d_out, d_in)
        for j in range(d):
            up, down = x.copy(), x.copy()
            up[s, j] += eps
            down[s, j] -= eps
            jac[:, j] = (self_attention(up, w_q, w_k, w_v)[-1]
                         - self_attention(down, w_q, w_k, w_v)[-1]) / (2 * eps)
        out[s] = np.linalg.norm(jac, ord=2)
    return out


def score_matrix(n, d_k=64, *, seed=0):
    """The (n, n) attention weights of n random tokens: the matrix attention must hold.

    >>> score_matrix(5).shape
    (5, 5)
    """
    n = check_positive_int("n", n)
    rng = np.random.default_rng(check_seed(seed))
    q = rng.normal(size=(n, d_k))                                # (n, d_k)
    k = rng.normal(size=(n, d_k))                                # (n, d_k)
    _, weights = scaled_dot_product_attention(q, k, k)           # (n, n)
    return weights


def score_bytes(n, itemsize=8):
    """Bytes of one (n, n) score matrix: ``n * n * itemsize`` (8 for float64, 4 for float32).

    >>> score_bytes(4, 4)
    64
    """
    n = check_positive_int("n", n)
    return n * n * check_positive_int("itemsize", itemsize)


def score_macs(n, d_k=64):
    """Multiply-adds of :func:`score_matrix`: ``q @ k.T`` and ``weights @ v``, ``n * n * d_k`` each.

    Double ``n`` and the count is exactly 4 times as large.

    >>> score_macs(512) / score_macs(256)
    4.0
    """
    n = check_positive_int("n", n)
    return 2 * n * n * check_positive_int("d_k", d_k)


def wall_times(fns, *, repeats=7):
    """The fewest wall-clock seconds each of ``fns`` took in ``repeats`` rounds; shape (len(fns),).

    Each function runs once to warm up, then the rounds run every function once, in turn.
    The minimum, not the mean or the median: on a shared machine, other programs can only make
    a run slower, so the fastest run is the one closest to what the function itself costs; and
    taking turns spreads a busy moment over all the functions instead of one.

    >>> wall_times([lambda: sum(range(10)), lambda: sum(range(1000))], repeats=3).shape
    (2,)
    """
    repeats = check_positive_int("repeats", repeats)
    for fn in fns:
        fn()
    best = np.full(len(fns), np.inf)                               # (len(fns),)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def wall_time(fn, *, repeats=7):
    """The fewest wall-clock seconds ``fn()`` took in ``repeats`` runs (after one warm-up run).

    >>> wall_time(lambda: sum(range(1000)), repeats=3) > 0
    True
    """
    return float(wall_times([fn], repeats=repeats)[0])


def time_rnn_and_attention(ns, d=32, *, repeats=7):
    """Seconds to read n tokens with the tiny RNN (n steps in a row) and with one attention layer.

    Returns ``(rnn_seconds, attention_seconds)``, each of shape (len(ns),).
    """
    w_rnn = init_rnn(d, d, seed=0)
    w_att = init_attention(d, seed=0)
    xs = [random_tokens(n, d, seed=1) for n in ns]               # each (n, d)
    fns = [lambda x=x: rnn_forward(x, *w_rnn) for x in xs] + [lambda x=x: self_attention(x, *w_att) for x in xs]
    seconds = wall_times(fns, repeats=repeats)                   # (2 * len(ns),)
    return seconds[:len(ns)], seconds[len(ns):]


def time_scores(ns, d_k=64, *, repeats=7):
    """Seconds to compute the (n, n) weights for each n, and their size in bytes.

    Returns ``(seconds, nbytes)``, each of shape (len(ns),); ``nbytes`` is read from the
    array that was really allocated.
    """
    seconds = wall_times([lambda n=n: score_matrix(n, d_k) for n in ns], repeats=repeats)   # (len(ns),)
    nbytes = np.array([score_matrix(n, d_k).nbytes for n in ns])                             # (len(ns),)
    return seconds, nbytes


def influence_ratios(n=40, d=8, seed=0):
    """Influence of token 1 on the last output, divided by that of the last token: (rnn, attention).

    The sentence and models of the book's listing ``ch5/vanishing.py``.

    >>> rnn, att = influence_ratios()
    >>> bool(rnn < 1e-6 < 1e-3 < att)
    True
    """
    x = random_tokens(n, d, seed=seed + 1)                              # (n, d)
    rnn = influence_on_last(x, *init_rnn(d, d, seed=seed))             # (n,)
    att = attention_influence_on_last(x, *init_attention(d, seed=seed))
    return float(rnn[0] / rnn[-1]), float(att[0] / att[-1])


# --------------------------------------------------------------------------
# Table 1 of the paper, and the real split of one layer's work
# --------------------------------------------------------------------------

# The four layer types of Table 1 in "Attention Is All You Need" and their formulas.
TABLE1_KINDS = {
    "self-attention": {"complexity": "n^2 d", "sequential": "1", "path": "1"},
    "recurrent": {"complexity": "n d^2", "sequential": "n", "path": "n"},
    "convolutional": {"complexity": "k n d^2", "sequential": "1", "path": "log_k(n)"},
    "restricted": {"complexity": "r n d", "sequential": "1", "path": "n / r"},
}


def _kind(kind):
    if kind not in TABLE1_KINDS:
        raise ValueError(f"kind must be one of {sorted(TABLE1_KINDS)}, got {kind!r}")
    return kind


def layer_complexity(kind, n, d, *, k=3, r=None):
    """The leading term of Table 1's "complexity per layer", evaluated: multiply-adds.

    self-attention ``n^2 d`` (every pair of tokens, a d-long dot product); recurrent
    ``n d^2`` (n steps, each a (d, d) matrix times a vector); convolutional ``k n d^2``
    (kernel width k); restricted self-attention ``r n d`` (each token sees r neighbours;
    default r = k).

    >>> layer_complexity("self-attention", 100, 512), layer_complexity("recurrent", 100, 512)
    (5120000, 26214400)
    """
    n, d, k = (check_positive_int(a, b) for a, b in (("n", n), ("d", d), ("k", k)))
    r = k if r is None else check_positive_int("r", r)
    return {"self-attention": n * n * d, "recurrent": n * d * d,
            "convolutional": k * n * d * d, "restricted": r * n * d}[_kind(kind)]


def table1_sequential_ops(kind, n):
    """Table 1's "sequential operations": n for a recurrent layer, 1 for the others.

    >>> table1_sequential_ops("recurrent", 50), table1_sequential_ops("convolutional", 50)
    (50, 1)
    """
    n = check_positive_int("n", n)
    return n if _kind(kind) == "recurrent" else 1


def table1_max_path(kind, n, *, k=3, r=None):
    """Table 1's "maximum path length" between two tokens, in layers or steps.

    self-attention 1; recurrent n; convolutional ``ceil(log_k n)`` (dilated convolutions:
    each layer widens the view k times); restricted self-attention ``ceil(n / r)``.

    >>> [table1_max_path(kind, 512) for kind in TABLE1_KINDS]
    [1, 512, 6, 171]
    """
    n, k = check_positive_int("n", n), check_positive_int("k", k)
    r = k if r is None else check_positive_int("r", r)
    kind = _kind(kind)
    if kind == "self-attention":
        return 1
    if kind == "recurrent":
        return n
    if kind == "restricted":
        return -(-n // r)
    path, reach = 0, 1                                  # smallest L with k**L >= n, in integers
    while reach < n:
        reach *= k
        path += 1
    return max(path, 1)


def table1(n, d, *, k=3, r=None):
    """Table 1 for one n and d: ``{kind: (complexity, sequential ops, max path)}``.

    >>> t = table1(100, 512)
    >>> t["self-attention"], t["recurrent"]
    ((5120000, 1, 1), (26214400, 100, 100))
    """
    return {kind: (layer_complexity(kind, n, d, k=k, r=r), table1_sequential_ops(kind, n),
                   table1_max_path(kind, n, k=k, r=r)) for kind in TABLE1_KINDS}


def layer_macs(n, d_model=512, d_ff=2048):
    """Multiply-adds of one encoder layer on n tokens, part by part (FLOPs are twice these).

    ``projections`` 4 n d^2 (Q, K, V and the output), ``scores`` n^2 d (Q K^T, all heads
    together), ``weighted_sum`` n^2 d (weights @ V), ``feed_forward`` 2 n d d_ff, and
    ``total``. Softmax, layer norm and additions are O(n^2) or O(n d) and left out.

    >>> m = layer_macs(512)
    >>> m["scores"] == 512 * 512 * 512, m["feed_forward"] == 2 * 512 * 512 * 2048
    (True, True)
    """
    n = check_positive_int("n", n)
    d = check_positive_int("d_model", d_model)
    d_ff = check_positive_int("d_ff", d_ff)
    parts = {"projections": 4 * n * d * d, "scores": n * n * d, "weighted_sum": n * n * d,
             "feed_forward": 2 * n * d * d_ff}
    parts["total"] = sum(parts.values())
    return parts


def score_share(n, d_model=512, d_ff=2048):
    """The share of a layer's multiply-adds that grows with n^2 (scores and weighted sum).

    >>> round(score_share(512), 3), round(score_share(4096), 3)
    (0.143, 0.571)
    """
    m = layer_macs(n, d_model, d_ff)
    return (m["scores"] + m["weighted_sum"]) / m["total"]


def growth_when_doubled(n, d_model=512, d_ff=2048):
    """How many times the work of a whole layer grows when n doubles (4 only if n >> d).

    >>> round(growth_when_doubled(512), 2)
    2.29
    """
    return layer_macs(2 * n, d_model, d_ff)["total"] / layer_macs(n, d_model, d_ff)["total"]
