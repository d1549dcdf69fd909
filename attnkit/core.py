"""The core of attention, written to read like the math.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V

Every array is float64. The shape of each intermediate is written beside
the line that makes it; ``...`` stands for any leading batch dimensions.
Masks are boolean with ``True`` meaning "keep" / "may attend".
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import (
    check_qkv,
    as_float_array,
    as_mask,
    check_axis,
    check_divisible,
    check_finite,
    check_positive_int,
    check_scale,
)

__all__ = [
    "softmax",
    "scaled_dot_product_attention",
    "causal_mask",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
    "sinusoidal_positional_encoding",
    "spread_evenly",
    "softmax_unchecked",
]


# --------------------------------------------------------------------------
# softmax
# --------------------------------------------------------------------------

def softmax_unchecked(x: np.ndarray, axis: int, mask: np.ndarray | None) -> np.ndarray:
    """:func:`softmax` without its input checks, for inner loops whose input is already checked.

    x : a float array; ``axis`` an int in range; ``mask`` None or a boolean array already
    broadcast to x.shape (True = keep). Entries of x may be -inf (they get weight 0).

    >>> softmax_unchecked(np.array([0.0, np.log(3.0)]), -1, None).round(2)
    array([0.25, 0.75])
    """
    # Underflow to 0.0 (e.g. exp(-20000)) is the right answer, not an error.
    with np.errstate(under="ignore"):
        if mask is None:
            x_max = x.max(axis=axis, keepdims=True)            # (..., 1, ...)
            e = np.exp(x - x_max)                               # same shape as x, each in (0, 1]
            return e / e.sum(axis=axis, keepdims=True)          # the max entry gives e = 1, so sum >= 1

        kept = np.where(mask, x, -np.inf)                       # masked logits -> -inf
        x_max = kept.max(axis=axis, keepdims=True)              # max over kept entries; -inf if none kept
        x_max = np.where(np.isfinite(x_max), x_max, 0.0)        # fully masked slice: any finite shift works
        shifted = np.full_like(x, -np.inf)                      # masked entries stay -inf ...
        np.subtract(x, x_max, out=shifted, where=mask)          # ... kept entries: x - max <= 0
        e = np.exp(shifted)                                     # exp(-inf) = 0.0 exactly, no warning
        total = e.sum(axis=axis, keepdims=True)                 # >= 1 if anything kept, 0 if fully masked
        weights = np.zeros_like(e)
        np.divide(e, total, out=weights, where=total > 0)       # fully masked slice stays all zeros
        return weights


def softmax(x, axis=-1, mask=None):
    """Numerically stable softmax, optionally over only the unmasked entries.

        softmax(x)_j = exp(x_j - max(x)) / sum_j' exp(x_j' - max(x))

    Subtracting the max (over the kept entries) changes nothing
    mathematically but keeps every ``exp`` in (0, 1], so logits of +-1e4 give
    no overflow, no NaN and no warning.

    Parameters
    ----------
    x : array_like, shape (...)
        Logits. Must be finite: to leave entries out, use ``mask``, not -inf.
    axis : int
        The axis the weights sum to 1 along. Default: the last.
    mask : array_like of bool, broadcastable to x.shape, optional
        True = keep. Masked entries get exactly 0.0. A fully masked row
        gets all-zero weights, never NaN (and no warning); "row" means a
        slice along ``axis``.

    Returns
    -------
    weights : ndarray, shape x.shape
        Non-negative; every slice along ``axis`` sums to 1 (or is all zeros
        if it was fully masked).

    Example
    -------
    >>> print(softmax([1.0, 2.0, 3.0]).round(4))
    [0.09   0.2447 0.6652]
    >>> print(softmax([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]],
    ...               mask=[[True, True, False], [False, False, False]]).round(4))
    [[0.2689 0.7311 0.    ]
     [0.     0.     0.    ]]
    >>> print(softmax([1e4, -1e4]))
    [1. 0.]
    """
    x = as_float_array("x", x)
    if x.ndim == 0:
        raise ValueError(
            "x must have at least 1 dimension to take a softmax over, got a scalar (shape ())"
        )
    axis = check_axis(axis, x.ndim, x.shape)
    if x.shape[axis] == 0:
        raise ValueError(
            f"x must have at least one entry along axis={axis} to take a softmax over, "
            f"got shape {x.shape}"
        )
    if mask is not None:
        mask = as_mask(mask, x.shape, "x")
    return softmax_unchecked(x, axis, mask)


# --------------------------------------------------------------------------
# scaled dot-product attention
# --------------------------------------------------------------------------

def _attention(q, k, v, mask, scale):
    """Attention on already-validated inputs. Returns (out, weights)."""
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.swapaxes(-1, -2) * scale     # (..., n_q, d_k) @ (..., d_k, n_k) -> (..., n_q, n_k)
    if not np.isfinite(scores).all():
        raise ValueError(
            "the scores q @ k^T * scale overflowed to infinity: the entries of q and k "
            f"(largest |q| = {np.abs(q).max():.3g}, |k| = {np.abs(k).max():.3g}) are too large"
        )
    if mask is not None:
        mask = as_mask(mask, scores.shape, "the scores")  # (..., n_q, n_k)
    weights = softmax_unchecked(scores, -1, mask)   # (..., n_q, n_k), each row sums to 1 (or is all 0)
    with np.errstate(under="ignore"):
        out = weights @ v                           # (..., n_q, n_k) @ (..., n_k, d_v) -> (..., n_q, d_v)
    return out, weights


def scaled_dot_product_attention(q, k, v, mask=None, scale=None):
    """Scaled dot-product attention: ``softmax(q k^T / sqrt(d_k)) v``.

    Each query row of ``q`` scores every key row of ``k`` by a dot product,
    the scores are scaled and turned into weights by a softmax over the
    keys, and the output row is the weighted average of the rows of ``v``.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k)
        Queries.
    k : array_like, shape (..., n_k, d_k)
        Keys.
    v : array_like, shape (..., n_k, d_v)
        Values: one row per key.
    mask : array_like of bool, broadcastable to (..., n_q, n_k), optional
        True = query i may attend to key j. Masked positions get exactly
        zero weight. A fully masked query row gets all-zero weights and an
        all-zero output row, never NaN.
    scale : float, optional
        Multiplies the scores. Default ``1 / sqrt(d_k)``.

    The leading batch dimensions ``...`` of q, k and v broadcast against
    each other.

    Returns
    -------
    out : ndarray, shape (..., n_q, d_v)
    weights : ndarray, shape (..., n_q, n_k)
        The attention weights; each row sums to 1 (or is all zeros if fully
        masked).

    Example
    -------
    >>> q = [[1.0, 0.0], [0.0, 1.0]]           # (n_q=2, d_k=2)
    >>> k = [[1.0, 0.0], [0.0, 1.0]]           # (n_k=2, d_k=2)
    >>> v = [[10.0, 0.0], [0.0, 10.0]]         # (n_k=2, d_v=2)
    >>> out, weights = scaled_dot_product_attention(q, k, v)
    >>> print(weights.round(2))
    [[0.67 0.33]
     [0.33 0.67]]
    >>> print(out.round(2))
    [[6.7 3.3]
     [3.3 6.7]]
    >>> out, weights = scaled_dot_product_attention(q, k, v, mask=causal_mask(2))
    >>> print(weights.round(2))
    [[1.   0.  ]
     [0.33 0.67]]
    >>> print(out.round(2))
    [[10.   0. ]
     [ 3.3  6.7]]
    """
    q, k, v, _ = check_qkv(q, k, v)
    d_k = q.shape[-1]
    scale = 1.0 / math.sqrt(d_k) if scale is None else check_scale(scale)
    return _attention(q, k, v, mask, scale)


def causal_mask(n):
    """The causal (look-back-only) mask: position i may attend to j <= i.

    Parameters
    ----------
    n : int
        Sequence length, a positive integer.

    Returns
    -------
    mask : ndarray of bool, shape (n, n)
        True on and below the diagonal.

    Example
    -------
    >>> print(causal_mask(3))
    [[ True False False]
     [ True  True False]
     [ True  True  True]]
    """
    n = check_positive_int("n", n)
    i = np.arange(n)[:, None]                       # (n, 1) query position
    j = np.arange(n)[None, :]                       # (1, n) key position
    return j <= i                                   # (n, n)


# --------------------------------------------------------------------------
# multi-head attention
# --------------------------------------------------------------------------

def split_heads(x, n_heads):
    """Cut the last dimension into ``n_heads`` heads of ``d_head`` columns.

    Head h gets columns ``[h*d_head : (h+1)*d_head]``.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
    n_heads : int
        Must divide d_model; ``d_head = d_model // n_heads``.

    Returns
    -------
    heads : ndarray, shape (..., n_heads, n, d_head)

    Example
    -------
    >>> x = np.arange(8.0).reshape(2, 4)        # (n=2, d_model=4)
    >>> heads = split_heads(x, 2)               # (n_heads=2, n=2, d_head=2)
    >>> print(heads)
    [[[0. 1.]
      [4. 5.]]
    <BLANKLINE>
     [[2. 3.]
      [6. 7.]]]
    """
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d_model)")
    n_heads = check_positive_int("n_heads", n_heads)
    *batch, n, d_model = x.shape
    d_head = check_divisible(d_model, n_heads)
    x = x.reshape(*batch, n, n_heads, d_head)      # (..., n, n_heads, d_head)
    return x.swapaxes(-3, -2)                       # (..., n_heads, n, d_head)


def merge_heads(x):
    """Inverse of :func:`split_heads`: put the heads' columns side by side.

    Parameters
    ----------
    x : array_like, shape (..., n_heads, n, d_head)

    Returns
    -------
    merged : ndarray, shape (..., n, n_heads * d_head)

    Example
    -------
    >>> x = np.arange(8.0).reshape(2, 4)
    >>> print(merge_heads(split_heads(x, 2)))
    [[0. 1. 2. 3.]
     [4. 5. 6. 7.]]
    """
    x = as_float_array("x", x, min_ndim=3, layout="(..., n_heads, n, d_head)")
    *batch, n_heads, n, d_head = x.shape
    x = x.swapaxes(-3, -2)                          # (..., n, n_heads, d_head)
    return x.reshape(*batch, n, n_heads * d_head)   # (..., n, d_model)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=None, *,
                         memory=None, key_padding_mask=None):
    """Multi-head attention (no biases): self-attention, or cross-attention with ``memory``.

        Q = x W_q,  K = m W_k,  V = m W_v            m = x (self) or memory (cross)
        head_h = Attention(Q_h, K_h, V_h)             Q_h = columns of head h
        out = concat(head_1, ..., head_H) W_o         (..., n, d_model)

    Identical to running scaled dot-product attention on each head's
    columns ``[h*d_head : (h+1)*d_head]`` of Q, K, V separately and
    concatenating the results before ``w_o``.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        The sequence the queries come from.
    w_q, w_k, w_v, w_o : array_like, shape (d_model, d_model)
        Applied on the right, as ``x @ w``.
    n_heads : int
        Must divide d_model; each head has ``d_head = d_model // n_heads``.
    mask : array_like of bool, broadcastable to (..., n_heads, n, n_kv), optional
        True = may attend; e.g. ``causal_mask(n)`` of shape (n, n) applies
        to every head. A per-example mask for a batch needs a head axis of
        size 1: shape (batch, 1, n, n_kv).
    memory : array_like, shape (..., n_kv, d_model), optional
        Cross-attention: keys and values come from ``memory`` (in the paper,
        the encoder's output) instead of from ``x``. ``n_kv`` may differ from
        ``n``; ``d_model`` must not. Default: ``x`` itself (self-attention),
        so ``n_kv = n``.
    key_padding_mask : array_like of bool, shape (..., n_kv), optional
        True = this key is a real token, False = padding that no query may
        look at. Works for self- and cross-attention; combined with ``mask``
        by "and".

    Returns
    -------
    out : ndarray, shape (..., n, d_model)
    weights : ndarray, shape (..., n_heads, n, n_kv)
        Each head's attention weights.

    Example
    -------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(5, 8))                     # (n=5, d_model=8)
    >>> w_q, w_k, w_v, w_o = rng.normal(size=(4, 8, 8))
    >>> out, weights = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=2,
    ...                                     mask=causal_mask(5))
    >>> out.shape, weights.shape
    ((5, 8), (2, 5, 5))
    >>> print(weights.sum(axis=-1))
    [[1. 1. 1. 1. 1.]
     [1. 1. 1. 1. 1.]]
    >>> memory = rng.normal(size=(3, 8))                # (n_kv=3, d_model=8)
    >>> out, weights = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=2, memory=memory,
    ...                                     key_padding_mask=[True, True, False])
    >>> out.shape, weights.shape
    ((5, 8), (2, 5, 3))
    >>> print(weights[0, :, 2])                          # nobody looks at the padding
    [0. 0. 0. 0. 0.]
    """
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d_model)")
    *batch, n, d_model = x.shape
    n_heads = check_positive_int("n_heads", n_heads)
    check_divisible(d_model, n_heads)
    if memory is None:
        m = x
    else:
        m = as_float_array("memory", memory, min_ndim=2, layout="(..., n_kv, d_model)")
        if m.shape[-1] != d_model:
            raise ValueError(
                f"memory must have the same d_model as x: x has shape {x.shape} "
                f"(d_model={d_model}), memory has shape {m.shape} (d_model={m.shape[-1]})"
            )
        try:
            batch = list(np.broadcast_shapes(tuple(batch), m.shape[:-2]))
        except ValueError:
            raise ValueError(
                f"the leading batch dimensions of x and memory do not broadcast: "
                f"got x {x.shape} with batch {x.shape[:-2]} and memory {m.shape} "
                f"with batch {m.shape[:-2]}"
            ) from None
    n_kv = m.shape[-2]
    named = {"w_q": w_q, "w_k": w_k, "w_v": w_v, "w_o": w_o}
    for name, w in named.items():
        w = as_float_array(name, w)
        if w.shape != (d_model, d_model):
            raise ValueError(
                f"{name} must have shape (d_model, d_model) = {(d_model, d_model)} "
                f"to match x of shape {x.shape}, got shape {w.shape}"
            )
        named[name] = w
    w_q, w_k, w_v, w_o = named.values()
    target = (*batch, n_heads, n, n_kv)
    if mask is not None:
        what = "n, n" if memory is None else "n, n_kv"
        mask = as_mask(mask, target, f"the per-head scores (..., n_heads, {what})")
    if key_padding_mask is not None:
        mask = _with_key_padding(key_padding_mask, mask, target)

    with np.errstate(over="ignore", invalid="ignore"):
        q = x @ w_q                                 # (..., n, d_model) @ (d_model, d_model) -> (..., n, d_model)
        k = m @ w_k                                 # (..., n_kv, d_model)
        v = m @ w_v                                 # (..., n_kv, d_model)
    src = "x" if memory is None else "memory"
    for name, a in (("x @ w_q", q), (f"{src} @ w_k", k), (f"{src} @ w_v", v)):
        check_finite(name, a)

    q_h = split_heads(q, n_heads)                   # (..., n_heads, n, d_head)
    k_h = split_heads(k, n_heads)                   # (..., n_heads, n_kv, d_head)
    v_h = split_heads(v, n_heads)                   # (..., n_heads, n_kv, d_head)
    d_head = d_model // n_heads
    scale = 1.0 / math.sqrt(d_head)                 # each head scores with its own width d_head
    heads, weights = _attention(q_h, k_h, v_h, mask, scale)
    # heads: (..., n_heads, n, d_head)    weights: (..., n_heads, n, n_kv)
    concat = merge_heads(heads)                     # (..., n, d_model)
    with np.errstate(over="ignore", invalid="ignore"):
        out = concat @ w_o                          # (..., n, d_model) @ (d_model, d_model) -> (..., n, d_model)
    check_finite("the output concat(heads) @ w_o", out)
    return out, weights


def _with_key_padding(key_padding_mask, mask, target):
    """``mask`` (or None) and-ed with a key-padding mask (..., n_kv) -> shape ``target``."""
    *batch, n_heads, n, n_kv = target
    try:
        kpm = np.asarray(key_padding_mask)
    except (ValueError, TypeError):
        kpm = None
    if kpm is None or kpm.dtype != np.bool_ or kpm.ndim < 1 or kpm.shape[-1] != n_kv:
        got = (f"dtype {kpm.dtype} and shape {kpm.shape}" if kpm is not None
               else f"a ragged {type(key_padding_mask).__name__}")
        raise ValueError(
            f"key_padding_mask must be a boolean array of shape (..., n_kv) = "
            f"{(*batch, n_kv)} (True = a real token, False = padding), got {got}"
        )
    try:
        ok = np.broadcast_shapes(kpm.shape[:-1], tuple(batch)) == tuple(batch)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"key_padding_mask of shape {kpm.shape} does not match the batch: expected "
            f"(..., n_kv) = {(*batch, n_kv)}"
        )
    keep = np.broadcast_to(kpm[..., None, None, :], target)   # (..., n_heads, n, n_kv)
    return keep if mask is None else mask & keep


# --------------------------------------------------------------------------
# positional encoding
# --------------------------------------------------------------------------

def sinusoidal_positional_encoding(n_positions, d_model):
    """The sinusoidal positional encoding of "Attention Is All You Need".

        PE[p, 2i]   = sin(p / 10000**(2i / d_model))
        PE[p, 2i+1] = cos(p / 10000**(2i / d_model))

    Columns are interleaved: sin, cos, sin, cos, ... Column pair
    (2i, 2i+1) turns at the angular frequency ``10000**(-2i / d_model)``.

    An odd ``d_model`` is allowed: the formula is applied to every column
    that exists, so the last column ``d_model - 1 = 2i`` is a sine with no
    matching cosine.

    Parameters
    ----------
    n_positions : int
        Number of positions p = 0, 1, ..., n_positions - 1 (positive).
    d_model : int
        Width of the encoding (positive).

    Returns
    -------
    pe : ndarray, shape (n_positions, d_model)

    Example
    -------
    >>> pe = sinusoidal_positional_encoding(3, 4)
    >>> print(pe.round(4))
    [[ 0.      1.      0.      1.    ]
     [ 0.8415  0.5403  0.01    1.    ]
     [ 0.9093 -0.4161  0.02    0.9998]]
    """
    n_positions = check_positive_int("n_positions", n_positions)
    d_model = check_positive_int("d_model", d_model)
    p = np.arange(n_positions, dtype=float)[:, None]    # (n_positions, 1)
    j = np.arange(d_model)                              # (d_model,) column index
    two_i = j - j % 2                                   # (d_model,) 2i for both column 2i and 2i+1
    angle = p / 10000.0 ** (two_i / d_model)            # (n_positions, 1) / (d_model,) -> (n_positions, d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))  # (n_positions, d_model)


# --------------------------------------------------------------------------
# reading a row of weights
# --------------------------------------------------------------------------

def spread_evenly(row, ratio: float = 2.0) -> bool:
    """True if no weight in ``row`` (n,) reaches ``ratio`` times an even share 1/n.

    Such a row has no target: the word looked everywhere about equally, and a summary should
    say "spread evenly" rather than name the word that happens to be largest.

    >>> spread_evenly([0.25, 0.25, 0.25, 0.25]), spread_evenly([0.7, 0.1, 0.1, 0.1])
    (True, False)
    """
    row = as_float_array("row", row, min_ndim=1, layout="(n,)")
    if row.ndim != 1:
        raise ValueError(f"row must be one row of weights, shape (n,), got shape {row.shape}")
    return bool(row.max() < ratio / row.shape[0])
