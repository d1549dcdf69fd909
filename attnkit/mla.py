"""Multi-head latent attention (MLA), DeepSeek-V2/V3: keys and values from one small latent.

GQA shrinks the KV cache by sharing key/value heads. MLA keeps every head's own keys and values
but makes all of them from one short vector per token, the *latent* ``c`` (width
``kv_lora_rank``, 512 in DeepSeek-V3, against 128 heads x (192 + 128) numbers of keys and values):

    c       = RMSNorm(x W_dkv)                (n, d_c)           down to the latent: the cache
    k_h     = [c W_uk_h , k_rope]             (n, d_nope + d_rope)
    v_h     = c W_uv_h                        (n, d_v)
    k_rope  = RoPE(x W_kr)                    (n, d_rope)        one RoPE key shared by all heads

RoPE cannot go on ``c W_uk_h`` (see below), so position travels in a separate, "decoupled" part
of every key: ``k_rope``, shared by the heads and cached beside ``c``. Queries have the same two
parts, optionally through their own low-rank step (``q_lora_rank``, 1536 in DeepSeek-V3):

    c_q     = RMSNorm(x W_dq)                 (n, d_cq)          (or x itself without q_lora)
    q_h     = [c_q W_uq_h , RoPE(c_q W_qr_h)]

The cache holds ``c`` and ``k_rope``: ``kv_lora_rank + qk_rope_head_dim`` numbers per token per
layer (:func:`mla_cache_numbers`). At inference the per-head up-projections need not be applied
to the cache at all ("absorbed", :func:`mla_attention_absorbed`):

    q_h . (c W_uk_h)   = (q_h W_uk_h^T) . c          W_uk absorbed into the query
    sum_j a_j (c_j W_uv_h) = (sum_j a_j c_j) W_uv_h     W_uv applied after the weighted sum (and
                                                      it could be folded into W_o as well)

This is also why RoPE must stay apart: a rotation between ``q_h`` and ``W_uk_h`` would depend
on the key's position, and could not be folded into one matrix per head.

    >>> w = init_mla(d_model=16, n_heads=4, kv_lora_rank=6, qk_nope_head_dim=4,
    ...              qk_rope_head_dim=2, v_head_dim=3, q_lora_rank=8, seed=0)
    >>> x = np.random.default_rng(0).normal(size=(5, 16))
    >>> from attnkit.core import causal_mask
    >>> plain, _ = mla_attention(x, w, causal_mask(5))
    >>> absorbed, _ = mla_attention_absorbed(x, w, causal_mask(5))
    >>> bool(np.abs(plain - absorbed).max() < 1e-12), mla_cache_numbers(w)
    (True, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, as_mask, check_positive_int, check_scale
from .core import merge_heads, scaled_dot_product_attention, softmax, split_heads
from .rope import apply_rope, rope_cos_sin

__all__ = [
    "MLAWeights",
    "init_mla",
    "rms_norm",
    "mla_latent",
    "mla_queries",
    "mla_attention",
    "mla_attention_absorbed",
    "mla_cache_numbers",
    "mha_cache_numbers",
]


@dataclass
class MLAWeights:
    """The weights of one MLA layer; all act on the right (``x @ w``).

    ``w_dq``, ``q_norm``: (d_model, d_cq) and (d_cq,), or None without a query low-rank step.
    ``w_uq``: (d_cq or d_model, n_heads * d_nope); ``w_qr``: (d_cq or d_model, n_heads * d_rope).
    ``w_dkv``: (d_model, d_c); ``kv_norm``: (d_c,); ``w_kr``: (d_model, d_rope).
    ``w_uk``: (d_c, n_heads * d_nope); ``w_uv``: (d_c, n_heads * d_v); ``w_o``: (n_heads * d_v, d_model).
    """

    n_heads: int
    w_uq: np.ndarray
    w_qr: np.ndarray
    w_dkv: np.ndarray
    kv_norm: np.ndarray
    w_kr: np.ndarray
    w_uk: np.ndarray
    w_uv: np.ndarray
    w_o: np.ndarray
    w_dq: np.ndarray | None = None
    q_norm: np.ndarray | None = None
    eps: float = 1e-6

    @property
    def d_model(self):
        return self.w_dkv.shape[0]

    @property
    def kv_lora_rank(self):
        return self.w_dkv.shape[1]

    @property
    def d_rope(self):
        return self.w_kr.shape[1]

    @property
    def d_nope(self):
        return self.w_uk.shape[1] // self.n_heads

    @property
    def d_v(self):
        return self.w_uv.shape[1] // self.n_heads


def init_mla(d_model, n_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
             q_lora_rank=None, *, seed=0):
    """Random MLA weights (normal, scaled by 1/sqrt(fan-in); norm weights near 1).

    Parameters
    ----------
    d_model, n_heads : int
    kv_lora_rank : int
        The latent's width d_c; narrower than d_model (that is the point).
    qk_nope_head_dim, qk_rope_head_dim, v_head_dim : int
        Per head: the key part made from the latent, the shared RoPE part (even), the value.
    q_lora_rank : int, optional
        The queries' own latent width; None = queries straight from x (DeepSeek-V2-Lite).
    seed : int

    Returns
    -------
    MLAWeights

    Example
    -------
    >>> w = init_mla(32, 4, 8, 4, 2, 4, seed=1)
    >>> w.w_dkv.shape, w.w_uk.shape, w.w_uv.shape, w.w_dq is None
    ((32, 8), (8, 16), (8, 16), True)
    """
    d_model = check_positive_int("d_model", d_model)
    n_heads = check_positive_int("n_heads", n_heads)
    d_c = check_positive_int("kv_lora_rank", kv_lora_rank)
    d_nope = check_positive_int("qk_nope_head_dim", qk_nope_head_dim)
    d_rope = check_positive_int("qk_rope_head_dim", qk_rope_head_dim)
    d_v = check_positive_int("v_head_dim", v_head_dim)
    if d_rope % 2:
        raise ValueError(f"qk_rope_head_dim must be even (RoPE turns pairs), got {d_rope}")
    if d_c >= d_model:
        raise ValueError(
            f"kv_lora_rank must be smaller than d_model (the latent compresses x), "
            f"got kv_lora_rank={d_c} and d_model={d_model}"
        )
    d_cq = None if q_lora_rank is None else check_positive_int("q_lora_rank", q_lora_rank)
    if d_cq is not None and d_cq >= d_model:
        raise ValueError(
            f"q_lora_rank must be smaller than d_model, got q_lora_rank={d_cq} and d_model={d_model}"
        )
    rng = np.random.default_rng(seed)
    w = lambda rows, cols: rng.normal(scale=rows ** -0.5, size=(rows, cols))   # noqa: E731
    d_in = d_model if d_cq is None else d_cq
    return MLAWeights(
        n_heads=n_heads,
        w_dq=None if d_cq is None else w(d_model, d_cq),
        q_norm=None if d_cq is None else 1 + 0.1 * rng.normal(size=d_cq),
        w_uq=w(d_in, n_heads * d_nope), w_qr=w(d_in, n_heads * d_rope),
        w_dkv=w(d_model, d_c), kv_norm=1 + 0.1 * rng.normal(size=d_c), w_kr=w(d_model, d_rope),
        w_uk=w(d_c, n_heads * d_nope), w_uv=w(d_c, n_heads * d_v), w_o=w(n_heads * d_v, d_model),
    )


def rms_norm(x, weight, eps=1e-6):
    """Root-mean-square normalization: ``x / sqrt(mean(x**2) + eps) * weight`` over the last axis.

    x (..., d) and weight (d,) give an array of shape (..., d). DeepSeek normalizes both
    latents with it (eps 1e-6); it has no mean subtraction and no bias, unlike LayerNorm.

    >>> print(rms_norm([[3.0, 4.0]], [1.0, 1.0], eps=0.0).round(4))
    [[0.8485 1.1314]]
    """
    x = as_float_array("x", x, min_ndim=1, layout="(..., d)")
    weight = as_float_array("weight", weight, min_ndim=1, layout="(d,)")
    if weight.shape != x.shape[-1:]:
        raise ValueError(f"weight must have shape (d,) = {x.shape[-1:]} to match x {x.shape}, "
                         f"got shape {weight.shape}")
    return x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps) * weight   # (..., d)


def _check(x, weights):
    if not isinstance(weights, MLAWeights):
        raise ValueError(f"weights must be MLAWeights (see init_mla), got {type(weights).__name__}")
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d_model)")
    if x.shape[-1] != weights.d_model:
        raise ValueError(f"x must have d_model={weights.d_model} columns to match the weights, "
                         f"got shape {x.shape}")
    if weights.kv_lora_rank >= weights.d_model:
        raise ValueError(
            f"the latent must be narrower than the model: kv_lora_rank={weights.kv_lora_rank}, "
            f"d_model={weights.d_model}"
        )
    return x


def _rope(rope, n, d_rope):
    if rope is None:
        return rope_cos_sin(n, d_rope)                      # positions 0..n-1, base 10000
    if not isinstance(rope, (tuple, list)) or len(rope) != 2:
        raise ValueError(f"rope must be a pair (cos, sin) from rope_cos_sin(n, qk_rope_head_dim), "
                         f"got {type(rope).__name__}")
    return rope


def mla_latent(x, weights, rope=None, pairing="half"):
    """What MLA caches for each token: the latent ``c`` and the shared RoPE key.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
    weights : MLAWeights
    rope : (cos, sin), each (n, qk_rope_head_dim), optional
        Default: positions 0..n-1 with base 10000 (:func:`attnkit.rope.rope_cos_sin`).
    pairing : "half" or "interleaved" (DeepSeek's released weights use interleaved)

    Returns
    -------
    c : ndarray, shape (..., n, kv_lora_rank)
    k_rope : ndarray, shape (..., n, qk_rope_head_dim)

    Example
    -------
    >>> w = init_mla(16, 4, 6, 4, 2, 3, seed=0)
    >>> c, k_rope = mla_latent(np.ones((5, 16)), w)
    >>> c.shape, k_rope.shape
    ((5, 6), (5, 2))
    """
    x = _check(x, weights)
    cos, sin = _rope(rope, x.shape[-2], weights.d_rope)
    c = rms_norm(x @ weights.w_dkv, weights.kv_norm, weights.eps)       # (..., n, d_c)
    k_rope = apply_rope(x @ weights.w_kr, cos, sin, pairing)            # (..., n, d_rope)
    return c, k_rope


def mla_queries(x, weights, rope=None, pairing="half"):
    """Each head's query, in its two parts: ``q_nope`` (..., H, n, d_nope), ``q_rope`` (..., H, n, d_rope).

    >>> w = init_mla(16, 4, 6, 4, 2, 3, q_lora_rank=8, seed=0)
    >>> q_nope, q_rope = mla_queries(np.ones((5, 16)), w)
    >>> q_nope.shape, q_rope.shape
    ((4, 5, 4), (4, 5, 2))
    """
    x = _check(x, weights)
    cos, sin = _rope(rope, x.shape[-2], weights.d_rope)
    c_q = x if weights.w_dq is None else rms_norm(x @ weights.w_dq, weights.q_norm, weights.eps)  # (..., n, d_cq)
    q_nope = split_heads(c_q @ weights.w_uq, weights.n_heads)           # (..., H, n, d_nope)
    q_rope = split_heads(c_q @ weights.w_qr, weights.n_heads)           # (..., H, n, d_rope)
    return q_nope, apply_rope(q_rope, cos, sin, pairing)


def _scale(weights, scale):
    return 1.0 / math.sqrt(weights.d_nope + weights.d_rope) if scale is None else check_scale(scale)


def mla_attention(x, weights, mask=None, *, rope=None, pairing="half", scale=None):
    """MLA the plain way: expand the latent into every head's keys and values, then attend.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
    weights : MLAWeights
    mask : array_like of bool, broadcastable to (..., n_heads, n, n), optional
    rope, pairing : see :func:`mla_latent`
    scale : float, optional
        Default ``1 / sqrt(qk_nope_head_dim + qk_rope_head_dim)``, a whole key's width.

    Returns
    -------
    out : ndarray, shape (..., n, d_model)
    weights : ndarray, shape (..., n_heads, n, n)

    Example
    -------
    >>> w = init_mla(16, 4, 6, 4, 2, 3, seed=0)
    >>> out, a = mla_attention(np.random.default_rng(1).normal(size=(5, 16)), w)
    >>> out.shape, a.shape
    ((5, 16), (4, 5, 5))
    """
    x = _check(x, weights)
    H = weights.n_heads
    c, k_rope = mla_latent(x, weights, rope, pairing)                   # (..., n, d_c), (..., n, d_rope)
    q_nope, q_rope = mla_queries(x, weights, rope, pairing)             # (..., H, n, d_nope), (..., H, n, d_rope)
    k_nope = split_heads(c @ weights.w_uk, H)                           # (..., H, n, d_nope)
    v = split_heads(c @ weights.w_uv, H)                                # (..., H, n, d_v)
    k_rope = np.broadcast_to(k_rope[..., None, :, :], (*k_nope.shape[:-1], weights.d_rope))  # shared by the heads
    q = np.concatenate([q_nope, q_rope], axis=-1)                       # (..., H, n, d_nope + d_rope)
    k = np.concatenate([k_nope, k_rope], axis=-1)                       # (..., H, n, d_nope + d_rope)
    heads, a = scaled_dot_product_attention(q, k, v, mask=mask, scale=_scale(weights, scale))
    return merge_heads(heads) @ weights.w_o, a                          # (..., n, H * d_v) @ (H * d_v, d_model)


def mla_attention_absorbed(x, weights, mask=None, *, rope=None, pairing="half", scale=None):
    """MLA as run at inference: attend to the cached latent directly, no per-head keys or values.

        score_h(i, j) = (q_nope_h[i] W_uk_h^T) . c[j]  +  q_rope_h[i] . k_rope[j]
        out_h[i]      = (sum_j a_h(i, j) c[j]) W_uv_h

    Equal to :func:`mla_attention` (same arguments, same results) up to rounding: x
    (..., n, d_model) gives out (..., n, d_model) and weights (..., n_heads, n, n). No
    (n, n_heads * d_nope) keys or (n, n_heads * d_v) values are ever made; the queries are
    carried into the latent's space instead, (..., n_heads, n, kv_lora_rank).

    Example
    -------
    >>> w = init_mla(16, 4, 6, 4, 2, 3, seed=0)
    >>> x = np.random.default_rng(1).normal(size=(5, 16))
    >>> bool(np.abs(mla_attention_absorbed(x, w)[0] - mla_attention(x, w)[0]).max() < 1e-12)
    True
    """
    x = _check(x, weights)
    H = weights.n_heads
    c, k_rope = mla_latent(x, weights, rope, pairing)                   # the cache: (..., n, d_c), (..., n, d_rope)
    q_nope, q_rope = mla_queries(x, weights, rope, pairing)
    w_uk = weights.w_uk.reshape(weights.kv_lora_rank, H, weights.d_nope).transpose(1, 2, 0)  # (H, d_nope, d_c)
    w_uv = weights.w_uv.reshape(weights.kv_lora_rank, H, weights.d_v).transpose(1, 0, 2)     # (H, d_c, d_v)
    q_latent = q_nope @ w_uk                                            # (..., H, n, d_nope) @ (H, d_nope, d_c) -> (..., H, n, d_c)
    c_t = c[..., None, :, :].swapaxes(-1, -2)                           # (..., 1, d_c, n)
    scores = (q_latent @ c_t                                            # (..., H, n, n) from the latent
              + q_rope @ k_rope[..., None, :, :].swapaxes(-1, -2)) * _scale(weights, scale)
    if mask is not None:
        mask = as_mask(mask, scores.shape, "the per-head scores (..., n_heads, n, n)")
    a = softmax(scores, mask=mask)                                      # (..., H, n, n)
    read = a @ c[..., None, :, :]                                       # (..., H, n, n) @ (..., 1, n, d_c) -> (..., H, n, d_c)
    heads = read @ w_uv                                                 # (..., H, n, d_c) @ (H, d_c, d_v) -> (..., H, n, d_v)
    return merge_heads(heads) @ weights.w_o, a


def mla_cache_numbers(weights_or_kv_lora_rank, qk_rope_head_dim=None):
    """Numbers MLA caches per token per layer: ``kv_lora_rank + qk_rope_head_dim``.

    >>> mla_cache_numbers(512, 64)                 # DeepSeek-V3
    576
    """
    if isinstance(weights_or_kv_lora_rank, MLAWeights):
        return weights_or_kv_lora_rank.kv_lora_rank + weights_or_kv_lora_rank.d_rope
    return (check_positive_int("kv_lora_rank", weights_or_kv_lora_rank)
            + check_positive_int("qk_rope_head_dim", qk_rope_head_dim))


def mha_cache_numbers(n_heads, qk_head_dim, v_head_dim):
    """Numbers per token per layer if every head cached its own key and value: ``n_heads * (d_k + d_v)``.

    >>> mha_cache_numbers(128, 192, 128)           # DeepSeek-V3's heads, expanded
    40960
    """
    return check_positive_int("n_heads", n_heads) * (check_positive_int("qk_head_dim", qk_head_dim)
                                                     + check_positive_int("v_head_dim", v_head_dim))
