"""Grouped-query attention (GQA): many query heads share a few key/value heads.

Multi-head attention gives every head its own queries, keys and values. At generation time the
keys and values of every past token sit in the KV cache, and they are most of its bytes. GQA
keeps ``n_heads`` query heads but only ``n_kv_heads`` key/value heads; each group of
``n_heads / n_kv_heads`` query heads reads the same keys and values:

    query head h  reads  key/value head  h // (n_heads / n_kv_heads)

- ``n_kv_heads = n_heads``: plain multi-head attention (MHA), :func:`attnkit.core.multi_head_attention`;
- ``n_kv_heads = 1``: multi-query attention (MQA), one key/value head for all;
- in between: GQA (Llama 3 8B: 32 query heads, 8 key/value heads), a cache 4 times smaller.

:func:`grouped_query_attention` is the attention layer of Llama, Mistral and gpt-oss:
projections (with optional biases), RoPE on queries and keys, the shared key/value heads, an
optional mask (causal, sliding window) and, as gpt-oss, an optional sink logit per head.
(Qwen3 and Gemma 3 also normalize each head's queries and keys, an RMSNorm this function
leaves out; their shapes, such as a head width apart from d_model / n_heads, it takes.)

    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(5, 8))                              # (n=5, d_model=8)
    >>> w_q, w_o = rng.normal(size=(2, 8, 8))                    # 4 heads of width 2
    >>> w_k, w_v = rng.normal(size=(2, 8, 2))                    # 1 key/value head: MQA
    >>> out, weights = grouped_query_attention(x, w_q, w_k, w_v, w_o, n_heads=4, n_kv_heads=1)
    >>> out.shape, weights.shape
    ((5, 8), (4, 5, 5))
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import as_float_array, as_mask, check_finite, check_positive_int, check_scale
from .core import merge_heads, scaled_dot_product_attention, split_heads
from .rope import apply_rope
from .sinks import attention_with_sink

__all__ = [
    "repeat_kv",
    "grouped_query_attention",
]


def _group_size(n_heads, n_kv_heads):
    n_heads = check_positive_int("n_heads", n_heads)
    n_kv_heads = check_positive_int("n_kv_heads", n_kv_heads)
    if n_heads % n_kv_heads:
        raise ValueError(
            f"n_kv_heads must divide n_heads (each key/value head serves a whole group of query "
            f"heads), got n_heads={n_heads} and n_kv_heads={n_kv_heads}"
        )
    return n_heads, n_kv_heads, n_heads // n_kv_heads


def repeat_kv(x, n_rep):
    """Repeat each key/value head ``n_rep`` times, so query head h meets key/value head h // n_rep.

    Parameters
    ----------
    x : array_like, shape (..., n_kv_heads, n, d_head)
    n_rep : int
        Query heads per key/value head, ``n_heads // n_kv_heads``.

    Returns
    -------
    ndarray, shape (..., n_kv_heads * n_rep, n, d_head)

    Example
    -------
    >>> kv = np.array([[[1.0]], [[2.0]]])                   # (n_kv_heads=2, n=1, d_head=1)
    >>> repeat_kv(kv, 3).ravel().tolist()                   # heads 0-2 read kv head 0, 3-5 head 1
    [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]
    """
    x = as_float_array("x", x, min_ndim=3, layout="(..., n_kv_heads, n, d_head)")
    n_rep = check_positive_int("n_rep", n_rep)
    return np.repeat(x, n_rep, axis=-3)                     # (..., n_kv_heads * n_rep, n, d_head)


def _weight(name, w, shape, why):
    w = as_float_array(name, w)
    if w.shape != shape:
        raise ValueError(f"{name} must have shape {why} = {shape}, got shape {w.shape}")
    return w


def _bias(name, b, size):
    if b is None:
        return 0.0
    b = as_float_array(name, b)
    if b.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), got shape {b.shape}")
    return b


def grouped_query_attention(x, w_q, w_k, w_v, w_o, n_heads, n_kv_heads, mask=None, *,
                            rope=None, sink=None, b_q=None, b_k=None, b_v=None, b_o=None,
                            scale=None):
    """Grouped-query attention, as in Llama / Mistral / gpt-oss.

        Q = x W_q + b_q          (..., n, n_heads * d_head)      cut into n_heads heads
        K = x W_k + b_k          (..., n, n_kv_heads * d_head)   cut into n_kv_heads heads
        V = x W_v + b_v          (..., n, n_kv_heads * d_head)
        Q, K turned by RoPE      (if ``rope`` is given)
        head_h = Attention(Q_h, K_g, V_g)   with g = h // (n_heads / n_kv_heads)
        out = concat(head_1, ..., head_H) W_o + b_o

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
    w_q : array_like, shape (d_model, n_heads * d_head)
        ``d_head`` is read from here; it need not be ``d_model / n_heads`` (Qwen3, Gemma).
    w_k, w_v : array_like, shape (d_model, n_kv_heads * d_head)
    w_o : array_like, shape (n_heads * d_head, d_model)
    n_heads, n_kv_heads : int
        ``n_kv_heads`` must divide ``n_heads``.
    mask : array_like of bool, broadcastable to (..., n_heads, n, n), optional
        True = may attend: ``causal_mask(n)``, ``sliding_window_mask(n, w)``.
    rope : (cos, sin), each array_like of shape (n, d_head), optional
        From :func:`attnkit.rope.rope_cos_sin`; turns queries and keys ("half" pairing).
    sink : array_like, shape (n_heads,), optional
        gpt-oss's learned sink logit per head (:func:`attnkit.sinks.attention_with_sink`).
    b_q, b_k, b_v, b_o : array_like, optional
        Biases (gpt-oss has them; Llama does not), shapes (n_heads * d_head,),
        (n_kv_heads * d_head,) twice and (d_model,).
    scale : float, optional
        Default ``1 / sqrt(d_head)``.

    Returns
    -------
    out : ndarray, shape (..., n, d_model)
    weights : ndarray, shape (..., n_heads, n, n)

    Example
    -------
    >>> from attnkit.core import causal_mask, multi_head_attention
    >>> rng = np.random.default_rng(1)
    >>> x = rng.normal(size=(4, 6))
    >>> w_q, w_k, w_v, w_o = rng.normal(size=(4, 6, 6))
    >>> gqa, _ = grouped_query_attention(x, w_q, w_k, w_v, w_o, 3, 3, causal_mask(4))
    >>> mha, _ = multi_head_attention(x, w_q, w_k, w_v, w_o, 3, causal_mask(4))
    >>> bool(np.abs(gqa - mha).max() < 1e-12)              # n_kv_heads = n_heads is MHA
    True
    """
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d_model)")
    *batch, n, d_model = x.shape
    n_heads, n_kv_heads, n_rep = _group_size(n_heads, n_kv_heads)
    w_q = as_float_array("w_q", w_q, min_ndim=2, layout="(d_model, n_heads * d_head)")
    if w_q.ndim != 2 or w_q.shape[0] != d_model or w_q.shape[1] % n_heads:
        raise ValueError(
            f"w_q must have shape (d_model, n_heads * d_head) with d_model={d_model} and a width "
            f"divisible by n_heads={n_heads}, got shape {w_q.shape}"
        )
    d_head = w_q.shape[1] // n_heads
    kv = (d_model, n_kv_heads * d_head)
    w_k = _weight("w_k", w_k, kv, "(d_model, n_kv_heads * d_head)")
    w_v = _weight("w_v", w_v, kv, "(d_model, n_kv_heads * d_head)")
    w_o = _weight("w_o", w_o, (n_heads * d_head, d_model), "(n_heads * d_head, d_model)")
    b_q = _bias("b_q", b_q, n_heads * d_head)
    b_k, b_v = _bias("b_k", b_k, n_kv_heads * d_head), _bias("b_v", b_v, n_kv_heads * d_head)
    b_o = _bias("b_o", b_o, d_model)
    if mask is not None:
        mask = as_mask(mask, (*batch, n_heads, n, n), "the per-head scores (..., n_heads, n, n)")
    scale = 1.0 / math.sqrt(d_head) if scale is None else check_scale(scale)

    q = split_heads(x @ w_q + b_q, n_heads)                 # (..., n, H * d_head) -> (..., H, n, d_head)
    k = split_heads(x @ w_k + b_k, n_kv_heads)              # (..., n, G * d_head) -> (..., G, n, d_head)
    v = split_heads(x @ w_v + b_v, n_kv_heads)              # (..., G, n, d_head)
    if rope is not None:
        if not isinstance(rope, (tuple, list)) or len(rope) != 2:
            raise ValueError(
                f"rope must be a pair (cos, sin) from rope_cos_sin(n, d_head), got {type(rope).__name__}"
            )
        cos, sin = rope
        q = apply_rope(q, cos, sin)                         # (..., H, n, d_head), turned by position
        k = apply_rope(k, cos, sin)                         # (..., G, n, d_head)
    k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)         # (..., H, n, d_head): head h reads group h // n_rep
    if sink is None:
        heads, weights = scaled_dot_product_attention(q, k, v, mask=mask, scale=scale)
    else:
        sink = as_float_array("sink", sink)
        if sink.shape != (n_heads,):
            raise ValueError(f"sink must be one logit per head, shape ({n_heads},), got shape {sink.shape}")
        heads, weights = attention_with_sink(q, k, v, sink, mask=mask, scale=scale)
    # heads: (..., H, n, d_head)    weights: (..., H, n, n)
    out = merge_heads(heads) @ w_o + b_o                    # (..., n, H * d_head) @ (H * d_head, d_model)
    check_finite("the output", out)
    return out, weights
