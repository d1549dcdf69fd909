"""Attention sinks: somewhere for softmax to put the weight a query does not want to give.

Softmax makes every row of weights sum to 1, so a head that finds nothing worth reading must
still spread its whole weight over the tokens it sees. gpt-oss gives each head one learned
number, the *sink logit* s_h, that joins every row of scores as an extra column with no value
behind it:

    weights = softmax([scores_1, ..., scores_n, s_h])[:n]      the sink's share is dropped

so a row of weights sums to ``1 - (the sink's share)``: a head can now say "almost nothing
here". :func:`softmax_with_sink` is that step; :func:`attention_with_sink` the attention.

StreamingLLM (Xiao et al. 2023) measured on trained models that much of the weight lands on the
first few tokens, and that a rolling KV cache which throws those away breaks the model while
one that keeps them (plus a window of recent tokens) keeps it working.
:func:`streaming_mask` builds the mask of such a cache; it makes no claim about any model.

    >>> w = softmax_with_sink([0.0, 0.0], sink=0.0)      # two equal scores and an equal sink
    >>> print(w.round(4), round(float(w.sum()), 4))
    [0.3333 0.3333] 0.6667
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import as_float_array, as_mask, check_positive_int, check_qkv, check_scale
from .core import softmax

__all__ = [
    "softmax_with_sink",
    "attention_with_sink",
    "streaming_mask",
    "streaming_cache_positions",
]


def _sink_logits(sink, batch_shape, what):
    """The sink logits as an array that broadcasts to ``batch_shape + (n_q, 1)``."""
    s = as_float_array("sink", sink)
    try:
        ok = np.broadcast_shapes(s.shape, tuple(batch_shape)) == tuple(batch_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"sink must be one logit per head, broadcastable to the leading axes {tuple(batch_shape)} "
            f"of {what} (for heads: shape (n_heads,)), got shape {s.shape}"
        )
    return s[..., None, None]                               # (..., 1, 1)


def softmax_with_sink(scores, sink, mask=None):
    """Softmax of each row of ``scores`` with one extra logit ``sink``, whose share is dropped.

        weights_j = exp(scores_j) / (exp(sink) + sum_j' exp(scores_j'))

    Parameters
    ----------
    scores : array_like, shape (..., n_k)
        A row (or rows) of scores.
    sink : float or array_like, broadcastable to ``scores.shape[:-1]``
        The sink logit. For scores (n_heads, n_q, n_k), one per head is shape (n_heads, 1)
        (a plain (n_heads,) would line up with n_q); :func:`attention_with_sink` takes
        (n_heads,) and does this itself.
    mask : array_like of bool, broadcastable to scores.shape, optional
        True = may attend. The sink is always there: a fully masked row gives all its
        weight to the sink (all zeros here), never NaN.

    Returns
    -------
    weights : ndarray, shape scores.shape
        Each row sums to 1 minus the sink's share.

    Example
    -------
    >>> print(softmax_with_sink([[2.0, 0.0], [2.0, 0.0]], sink=[-30.0, 2.0]).round(4))
    [[0.8808 0.1192]
     [0.4683 0.0634]]
    """
    scores = as_float_array("scores", scores, min_ndim=1, layout="(..., n_k)")
    s = as_float_array("sink", sink)
    if s.ndim and scores.ndim == 1:
        raise ValueError(f"sink must be a single number for one row of scores, got shape {s.shape}")
    if s.ndim:
        try:
            ok = np.broadcast_shapes(s.shape, scores.shape[:-1]) == scores.shape[:-1]
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                f"sink must broadcast to the leading axes {scores.shape[:-1]} of scores "
                f"{scores.shape}, got shape {s.shape}"
            )
    column = np.broadcast_to(s[..., None] if s.ndim else s, (*scores.shape[:-1], 1))   # (..., 1)
    if mask is not None:
        mask = as_mask(mask, scores.shape, "the scores")
        mask = np.concatenate([mask, np.ones_like(mask[..., :1])], axis=-1)   # the sink is always kept
    combined = np.concatenate([scores, column], axis=-1)    # (..., n_k + 1)
    return softmax(combined, mask=mask)[..., :-1]           # (..., n_k): the sink's share dropped


def attention_with_sink(q, k, v, sink, mask=None, scale=None):
    """Scaled dot-product attention whose softmax has a sink: ``softmax_with_sink(q k^T * scale) v``.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k)
    k : array_like, shape (..., n_k, d_k)
    v : array_like, shape (..., n_k, d_v)
    sink : array_like, broadcastable to the leading axes ``...``
        One learned logit per head: for q of shape (n_heads, n_q, d_k), shape (n_heads,).
    mask : array_like of bool, broadcastable to (..., n_q, n_k), optional
    scale : float, optional
        Default ``1 / sqrt(d_k)``.

    Returns
    -------
    out : ndarray, shape (..., n_q, d_v)
    weights : ndarray, shape (..., n_q, n_k)
        Rows sum to less than 1: the rest went to the sink, which carries no value.

    Example
    -------
    >>> q = k = np.eye(2)[None]                       # (n_heads=1, n=2, d_k=2)
    >>> v = [[[10.0, 0.0], [0.0, 10.0]]]
    >>> out, w = attention_with_sink(q, k, v, sink=[-50.0])   # a sink nobody uses
    >>> print(out.round(2))
    [[[6.7 3.3]
      [3.3 6.7]]]
    >>> out, w = attention_with_sink(q, k, v, sink=[3.0])     # a strong sink takes most weight
    >>> print(w.sum(axis=-1).round(3))
    [[0.131 0.131]]
    """
    q, k, v, batch = check_qkv(q, k, v)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else check_scale(scale)
    scores = q @ k.swapaxes(-1, -2) * scale                 # (..., n_q, d_k) @ (..., d_k, n_k) -> (..., n_q, n_k)
    s = _sink_logits(sink, scores.shape[:-2], "the scores (..., n_q, n_k)")   # (..., 1, 1)
    weights = softmax_with_sink(scores, s[..., 0], mask)   # (..., n_q, n_k)
    return weights @ v, weights                             # (..., n_q, n_k) @ (..., n_k, d_v) -> (..., n_q, d_v)


def streaming_mask(n, n_sink, window):
    """The mask of a StreamingLLM cache: the first ``n_sink`` tokens plus a window of recent ones.

    Query i may attend to key j if ``j <= i`` and (``j < n_sink`` or ``i - window < j``): the
    cache keeps at most ``n_sink + window`` keys, whatever the length.

    Parameters
    ----------
    n : int
        Sequence length.
    n_sink : int
        How many first tokens stay in the cache for good (StreamingLLM used 4); may be 0.
    window : int
        How many recent tokens (the query's own included) the rolling part keeps (>= 1).

    Returns
    -------
    mask : ndarray of bool, shape (n, n)

    Example
    -------
    >>> print(streaming_mask(6, n_sink=1, window=2).astype(int))
    [[1 0 0 0 0 0]
     [1 1 0 0 0 0]
     [1 1 1 0 0 0]
     [1 0 1 1 0 0]
     [1 0 0 1 1 0]
     [1 0 0 0 1 1]]
    """
    n = check_positive_int("n", n)
    if isinstance(n_sink, (bool, np.bool_)) or not isinstance(n_sink, (int, np.integer)) or n_sink < 0:
        raise ValueError(f"n_sink must be a whole number >= 0, got {n_sink!r}")
    window = check_positive_int("window", window)
    i = np.arange(n)[:, None]                               # (n, 1) query position
    j = np.arange(n)[None, :]                               # (1, n) key position
    return (j <= i) & ((j < n_sink) | (j > i - window))     # (n, n)


def streaming_cache_positions(t, n_sink, window):
    """Which positions a StreamingLLM cache holds when the token at position ``t`` is read.

    Returns an int array of shape (k,), k <= n_sink + window, in increasing order.

    >>> streaming_cache_positions(9, n_sink=2, window=3).tolist()
    [0, 1, 7, 8, 9]
    """
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)) or t < 0:
        raise ValueError(f"t must be a position, a whole number >= 0, got {t!r}")
    return np.flatnonzero(streaming_mask(t + 1, n_sink, window)[t])
