"""Attention without the (n_q, n_k) table: keys and values visited block by block.

This is the idea behind FlashAttention, written in NumPy. Each query keeps three running
quantities while the blocks of keys go by:

    m    the largest score seen so far                          (..., n_q, 1)
    l    the sum of exp(score - m) over the keys seen so far     (..., n_q, 1)
    acc  the sum of exp(score - m) * v over the keys seen so far (..., n_q, d_v)

When a block brings a larger score, m moves up to m_new and everything summed so far is
rescaled by exp(m - m_new), so the sums always refer to the current maximum ("online
softmax"). After the last block, acc / l is exactly softmax(q k^T * scale) v, although no more
than (n_q, block_size) scores ever existed at once.

- :func:`tiled_attention`: the computation, equal to
  :func:`attnkit.core.scaled_dot_product_attention` for any n, masks, causal, batches.
- :func:`online_softmax_trace`: the running max and sum of one row of scores, block by block
  (what the book's figure draws).
- :func:`peak_bytes`, :func:`attention_peak_bytes`: the extra memory each version really
  allocates, measured with ``tracemalloc``.

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(3, 10, 4))           # n = 10, not a multiple of the block
    >>> out = tiled_attention(q, k, v, block_size=4)
    >>> from attnkit.core import scaled_dot_product_attention
    >>> bool(np.abs(out - scaled_dot_product_attention(q, k, v)[0]).max() < 1e-12)
    True
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np

from ._checks import (
    check_qkv,
    as_float_array,
    as_mask,
    check_positive_int,
    check_scale,
    check_seed,
)
from .core import scaled_dot_product_attention
from .window import check_window

__all__ = [
    "EXAMPLE_SCORES",
    "tiled_attention",
    "window_tiles",
    "online_softmax_trace",
    "OnlineSoftmaxTrace",
    "peak_bytes",
    "attention_peak_bytes",
]


# One query's scores for 12 keys, the row the book walks through in blocks of 4 (an input,
# chosen so that the running max rises in every block).
EXAMPLE_SCORES = (0.5, -1.0, 1.2, 0.3, 2.0, -0.5, 0.8, 2.6, 1.0, 3.1, -2.0, 0.4)


def _block_size(block_size) -> int:
    if isinstance(block_size, (bool, np.bool_)) or not isinstance(block_size, (int, np.integer)) \
            or block_size < 1:
        raise ValueError(
            f"block_size must be a positive integer (how many keys one block holds), "
            f"got {block_size!r} ({type(block_size).__name__})"
        )
    return int(block_size)


def window_tiles(n_q, n_k, block_size, window=None):
    """The tiles :func:`tiled_attention` computes: ``(start, stop, lo, hi)``, key block
    ``start:stop`` met by query rows ``lo:hi``.

    Without a window, every key block meets every query. With a sliding ``window`` (query i,
    at position ``p = i + n_k - n_q``, sees keys ``p - window < j <= p``), a key block meets
    only the queries that can see one of its keys, ``start <= p <= stop - 2 + window``, and a
    block that no query can see is skipped: the work grows like n * (block_size + window),
    not n * n_k.

    >>> window_tiles(6, 6, 2)
    [(0, 2, 0, 6), (2, 4, 0, 6), (4, 6, 0, 6)]
    >>> window_tiles(6, 6, 2, window=2)        # keys 0-1 matter to queries 0-2, and so on
    [(0, 2, 0, 3), (2, 4, 2, 5), (4, 6, 4, 6)]
    >>> window_tiles(2, 8, 2, window=3)        # two new queries at positions 6, 7: keys 4-7 only
    [(4, 6, 0, 2), (6, 8, 0, 2)]
    """
    n_q, n_k = check_positive_int("n_q", n_q), check_positive_int("n_k", n_k)
    block_size = _block_size(block_size)
    blocks = [(start, min(start + block_size, n_k)) for start in range(0, n_k, block_size)]
    if window is None:
        return [(start, stop, 0, n_q) for start, stop in blocks]
    window = check_window(window)
    offset = n_k - n_q                         # query row i stands at position i + offset
    tiles = []
    for start, stop in blocks:
        lo = max(0, start - offset)            # the first query at or after the block's first key
        hi = min(n_q, stop - 1 + window - offset)   # past the last query whose window reaches it
        if lo < hi:
            tiles.append((start, stop, lo, hi))
    return tiles


def tiled_attention(q, k, v, block_size=64, mask=None, causal=False, scale=None, window=None):
    """``softmax(q k^T * scale) v``, visiting the keys ``block_size`` at a time.

    Never holds more than ``(..., n_q, block_size)`` scores: the full ``(n_q, n_k)``
    weight table is never made. The result equals
    :func:`attnkit.core.scaled_dot_product_attention` up to rounding (about 1e-16).

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k)
    k : array_like, shape (..., n_k, d_k)
    v : array_like, shape (..., n_k, d_v)
    block_size : int
        Keys per block (>= 1). Any n_k works; the last block may be shorter.
    mask : array_like of bool, broadcastable to (..., n_q, n_k), optional
        True = may attend. Only one block's columns are read at a time.
    causal : bool
        Query i may attend to key j only if ``j <= i + (n_k - n_q)`` (the queries are the
        last n_q positions; for n_q = n_k this is :func:`attnkit.core.causal_mask`), made one
        block at a time. Combined with ``mask`` by "and".
    scale : float, optional
        Default ``1 / sqrt(d_k)``.
    window : int, optional
        Sliding window (:func:`attnkit.window.sliding_window_mask`): query i (at position
        ``i + n_k - n_q``) may attend to key j only if ``i - window < j <= i``; causal
        whether or not ``causal`` is set. Blocks with no key inside any query's window are
        skipped and each block meets only the queries that can see it (:func:`window_tiles`),
        so the work grows with ``window``, not with n_k.

    A query row with no key left to attend to gets an all-zero output, as in
    :func:`attnkit.core.scaled_dot_product_attention`.

    Returns
    -------
    out : ndarray, shape (..., n_q, d_v)

    Example
    -------
    >>> q = [[1.0, 0.0], [0.0, 1.0]]           # (n_q=2, d_k=2)
    >>> k = [[1.0, 0.0], [0.0, 1.0]]           # (n_k=2, d_k=2)
    >>> v = [[10.0, 0.0], [0.0, 10.0]]         # (n_k=2, d_v=2)
    >>> print(tiled_attention(q, k, v, block_size=1).round(2))
    [[6.7 3.3]
     [3.3 6.7]]
    >>> print(tiled_attention(q, k, v, block_size=1, causal=True).round(2))
    [[10.   0. ]
     [ 3.3  6.7]]
    """
    q, k, v, batch = check_qkv(q, k, v)
    block_size = _block_size(block_size)
    if not isinstance(causal, (bool, np.bool_)):
        raise ValueError(f"causal must be True or False, got {causal!r} ({type(causal).__name__})")
    n_q, d_k = q.shape[-2:]
    n_k, d_v = v.shape[-2:]
    scale = 1.0 / math.sqrt(d_k) if scale is None else check_scale(scale)
    if window is not None:
        window = check_window(window)
        causal = True
    if mask is not None:
        # a broadcast view: no (n_q, n_k) array is allocated here
        mask = as_mask(mask, (*batch, n_q, n_k), "the scores (..., n_q, n_k)")

    m = np.full((*batch, n_q, 1), -np.inf)             # running max of the scores
    l = np.zeros((*batch, n_q, 1))                     # running sum of exp(score - m)
    acc = np.zeros((*batch, n_q, d_v))                 # running sum of exp(score - m) * v
    i = np.arange(n_q)[:, None] + (n_k - n_q)          # (n_q, 1) position of each query
    for start, stop, lo, hi in window_tiles(n_q, n_k, block_size, window):
        r = slice(lo, hi)                              # the query rows that meet this block
        k_b, v_b = k[..., start:stop, :], v[..., start:stop, :]    # (..., b, d_k), (..., b, d_v)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q[..., r, :] @ k_b.swapaxes(-1, -2) * scale    # (..., r, d_k) @ (..., d_k, b) -> (..., r, b)
        if not np.isfinite(s).all():
            raise ValueError(
                "the scores q @ k^T * scale overflowed to infinity: the entries of q and k "
                f"(largest |q| = {np.abs(q).max():.3g}, |k| = {np.abs(k).max():.3g}) are too large"
            )
        keep = None if mask is None else mask[..., r, start:stop]  # (..., r, b)
        j = np.arange(start, stop)[None, :]            # (1, b) key positions
        if causal:
            keep = j <= i[r] if keep is None else keep & (j <= i[r])    # (..., r, b) not in the future
        if window is not None:
            keep = keep & (j > i[r] - window)          # (..., r, b) and not out of the window
        if keep is not None:
            s = np.where(keep, s, -np.inf)             # masked scores -> -inf, exp gives 0
        m_r = m[..., r, :]                             # (..., r, 1)
        m_new = np.maximum(m_r, s.max(axis=-1, keepdims=True))     # (..., r, 1)
        shift = np.where(np.isfinite(m_new), m_new, 0.0)           # a row with nothing kept yet
        with np.errstate(under="ignore"):
            p = np.exp(s - shift)                      # (..., r, b), in [0, 1]
            rescale = np.exp(m_r - shift)              # (..., r, 1): old sums to the new max
            l[..., r, :] = l[..., r, :] * rescale + p.sum(axis=-1, keepdims=True)
            acc[..., r, :] = acc[..., r, :] * rescale + p @ v_b    # (..., r, b) @ (..., b, d_v) -> (..., r, d_v)
        m[..., r, :] = m_new
    out = np.zeros_like(acc)
    np.divide(acc, l, out=out, where=l > 0)            # (..., n_q, d_v); nothing kept -> zeros
    return out


class OnlineSoftmaxTrace:
    """What one query row looks like after each block (see :func:`online_softmax_trace`).

    Attributes (one entry per block, in the order the blocks are visited):
    ``starts``, ``stops`` (the block's keys are ``starts[b]:stops[b]``), ``running_max`` (m),
    ``running_sum`` (l, relative to that m), ``block_max`` (the largest score inside the
    block) and ``weights`` (the final softmax weights, computed from the last m and l).
    """

    def __init__(self, scores, starts, stops, block_max, running_max, running_sum):
        self.scores = scores
        self.starts, self.stops = starts, stops
        self.block_max = np.array(block_max)
        self.running_max = np.array(running_max)
        self.running_sum = np.array(running_sum)
        self.weights = np.exp(scores - self.running_max[-1]) / self.running_sum[-1]

    def __len__(self):
        return len(self.starts)


def online_softmax_trace(scores, block_size):
    """Run the online softmax over one row of ``scores``, keeping every intermediate.

    After block b: ``running_max[b]`` is the max of the scores seen so far and
    ``running_sum[b] = sum(exp(seen - running_max[b]))``. The final weights equal
    ``softmax(scores)``.

    Parameters
    ----------
    scores : array_like, shape (n,)
    block_size : int

    Returns
    -------
    OnlineSoftmaxTrace

    Example
    -------
    >>> t = online_softmax_trace([1.0, 3.0, 2.0, 5.0, 0.0], block_size=2)
    >>> len(t), t.running_max.tolist()
    (3, [3.0, 5.0, 5.0])
    >>> from attnkit.core import softmax
    >>> bool(np.allclose(t.weights, softmax([1.0, 3.0, 2.0, 5.0, 0.0]), rtol=0, atol=1e-15))
    True
    """
    scores = as_float_array("scores", scores, min_ndim=1, layout="(n,)")
    if scores.ndim != 1:
        raise ValueError(f"scores must be one row of shape (n,), got shape {scores.shape}")
    block_size = _block_size(block_size)
    m, l = -np.inf, 0.0
    starts, stops, block_max, running_max, running_sum = [], [], [], [], []
    for start in range(0, len(scores), block_size):
        s = scores[start:start + block_size]           # (b,)
        m_new = max(m, float(s.max()))
        l = l * math.exp(m - m_new) + float(np.exp(s - m_new).sum())
        m = m_new
        starts.append(start)
        stops.append(start + len(s))
        block_max.append(float(s.max()))
        running_max.append(m)
        running_sum.append(l)
    return OnlineSoftmaxTrace(scores, starts, stops, block_max, running_max, running_sum)


def peak_bytes(fn) -> int:
    """The peak of the memory ``fn()`` allocates beyond what existed when it started, in bytes.

    Measured with ``tracemalloc`` (NumPy reports its array buffers to it). The result of
    ``fn`` counts too, since it is allocated during the call.

    >>> peak_bytes(lambda: np.zeros(1000)) >= 8000
    True
    """
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def attention_peak_bytes(ns, d_k=64, block_size=64, *, seed=0):
    """Measured extra memory of full and tiled attention on n random tokens, for each n.

    Returns ``(full, tiled)``, two int arrays of shape (len(ns),): bytes allocated at the
    peak by :func:`attnkit.core.scaled_dot_product_attention` (which makes the (n, n)
    scores and weights) and by :func:`tiled_attention` (at most (n, block_size) at a time).

    >>> full, tiled = attention_peak_bytes([256], d_k=16, block_size=32)
    >>> bool(full[0] > 4 * tiled[0])
    True
    """
    d_k = check_positive_int("d_k", d_k)
    block_size = _block_size(block_size)
    rng = np.random.default_rng(check_seed(seed))
    full, tiled = [], []
    # one warm-up run of each first: what a first call allocates once (caches, lazily built
    # objects) is not attention's memory, and would make the first point depend on history
    q0 = rng.normal(size=(8, d_k))
    scaled_dot_product_attention(q0, q0, q0)
    tiled_attention(q0, q0, q0, block_size=block_size)
    for n in ns:
        n = check_positive_int("n", n)
        q, k, v = rng.normal(size=(3, n, d_k))         # (n, d_k) each
        full.append(peak_bytes(lambda: scaled_dot_product_attention(q, k, v)))
        tiled.append(peak_bytes(lambda: tiled_attention(q, k, v, block_size=block_size)))
    return np.array(full), np.array(tiled)
