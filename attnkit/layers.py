"""The pieces around attention in a Transformer layer: layer norm, ReLU, feed-forward, residual.

Chapter 7 introduces them and :mod:`attnkit.story` runs them on one sentence; the tiny GPT of
chapter 8 (:mod:`attnkit.tinygpt`) trains with the same layer norm, through its forward step
with a cache (:func:`layer_norm_forward`) and the backward step written beside it
(:func:`layer_norm_backward`).

    LN(x)     = gamma * (x - mean(x)) / sqrt(var(x) + eps) + beta     per row
    FFN(x)    = relu(x W_1 + b_1) W_2 + b_2                             the same on every row
    residual  = x + f(x)

    >>> h = layer_norm(residual([[1.0, 2.0, 3.0]], [[0.0, 0.0, 3.0]]))
    >>> h.round(3)
    array([[-0.926, -0.463,  1.389]])
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import as_float_array

__all__ = [
    "EPS",
    "layer_norm",
    "layer_norm_forward",
    "layer_norm_backward",
    "relu",
    "feed_forward",
    "residual",
]

EPS = 1e-5          # layer norm's epsilon: keeps the division finite for a constant row


def layer_norm_forward(x, g, b, eps=EPS):
    """Layer norm that also returns what its backward step needs: (y, cache).

        x_hat = (x - mean(x)) / sqrt(var(x) + eps)        per row: mean 0, variance ~1
        y     = g * x_hat + b

    x : (..., d); g, b : (d,) or scalars. No input checks: :func:`layer_norm` is the checked
    entry point; this one sits in the tiny GPT's training loop, whose inputs are checked once.

    >>> y, _ = layer_norm_forward(np.array([[1.0, 2.0, 3.0]]), np.ones(3), np.zeros(3))
    >>> y.round(3)
    array([[-1.225,  0.   ,  1.225]])
    """
    mean = x.mean(axis=-1, keepdims=True)              # (..., 1)
    rstd = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)   # (..., 1)
    x_hat = (x - mean) * rstd                          # (..., d)   mean 0, variance ~1
    return g * x_hat + b, (x_hat, rstd, g)             # (..., d)


def layer_norm_backward(dy, cache):
    """Gradients of :func:`layer_norm_forward`: returns (dx, dg, db) from dy = dL/dy (..., d).

    >>> x = np.array([[1.0, 2.0, 4.0]])
    >>> y, cache = layer_norm_forward(x, np.ones(3), np.zeros(3))
    >>> dx, dg, db = layer_norm_backward(np.ones((1, 3)), cache)
    >>> bool(np.abs(dx).max() < 1e-12), db.tolist()   # shifting every output moves no input
    (True, [1.0, 1.0, 1.0])
    """
    x_hat, rstd, g = cache
    axes = tuple(range(dy.ndim - 1))
    dg = (dy * x_hat).sum(axis=axes)                   # (d,)
    db = dy.sum(axis=axes)                             # (d,)
    dx_hat = dy * g                                    # (..., d)
    # x_hat depends on x directly and through the mean and the variance of the row:
    dx = rstd * (dx_hat - dx_hat.mean(axis=-1, keepdims=True)
                 - x_hat * (dx_hat * x_hat).mean(axis=-1, keepdims=True))   # (..., d)
    return dx, dg, db


def layer_norm(x, gamma=1.0, beta=0.0, eps: float = EPS) -> np.ndarray:
    """Layer normalisation: each row rescaled to mean 0 and variance 1, then ``gamma * . + beta``.

        LN(x) = gamma * (x - mean(x)) / sqrt(var(x) + eps) + beta      (per row)

    x : (..., d_model); gamma, beta : scalars or (d_model,). Returns (..., d_model).
    The arithmetic is :func:`layer_norm_forward`'s; this entry point checks its inputs.

    >>> layer_norm([[1.0, 2.0, 3.0]]).round(3)
    array([[-1.225,  0.   ,  1.225]])
    """
    x = as_float_array("x", x, min_ndim=1, layout="(..., d_model)")
    if isinstance(eps, (bool, np.bool_)) or not isinstance(eps, numbers.Real) \
            or not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a positive finite number, got {eps!r}")
    return layer_norm_forward(x, gamma, beta, eps)[0]  # (..., d_model)


def relu(x) -> np.ndarray:
    """max(0, x), element by element.

    >>> relu([-1.0, 0.5])
    array([0. , 0.5])
    """
    return np.maximum(0.0, as_float_array("x", x))


def feed_forward(x, w_1, b_1, w_2, b_2) -> np.ndarray:
    """The position-wise feed-forward network: the same two layers on every row.

        FFN(x) = relu(x W_1 + b_1) W_2 + b_2

    x : (n, d_model); w_1 : (d_model, d_ff); b_1 : (d_ff,); w_2 : (d_ff, d_model);
    b_2 : (d_model,). Returns (n, d_model).

    >>> feed_forward([[1.0, 1.0]], [[1.0], [1.0]], [-1.5], [[0.0, 2.0]], [0.0, 0.0])
    array([[0., 1.]])
    """
    x = as_float_array("x", x, min_ndim=2, layout="(n, d_model)")
    w_1 = as_float_array("w_1", w_1, min_ndim=2, layout="(d_model, d_ff)")
    w_2 = as_float_array("w_2", w_2, min_ndim=2, layout="(d_ff, d_model)")
    if w_1.shape[0] != x.shape[-1]:
        raise ValueError(f"w_1 must have d_model = {x.shape[-1]} rows (one per column of x), "
                         f"got shape {w_1.shape}")
    if w_2.shape[0] != w_1.shape[1]:
        raise ValueError(f"w_2 must have d_ff = {w_1.shape[1]} rows (one per column of w_1), "
                         f"got shape {w_2.shape}")
    hidden = relu(x @ w_1 + b_1)         # (n, d_model) @ (d_model, d_ff) -> (n, d_ff)
    return hidden @ w_2 + b_2            # (n, d_ff) @ (d_ff, d_model) -> (n, d_model)


def residual(x, sublayer_out) -> np.ndarray:
    """The residual connection: keep the input and add what the sub-layer found, x + f(x).

    >>> residual([1.0, 2.0], [0.5, -0.5])
    array([1.5, 1.5])
    """
    x = as_float_array("x", x)
    out = as_float_array("sublayer_out", sublayer_out)
    if x.shape != out.shape:
        raise ValueError(f"x and sublayer_out must have the same shape, got {x.shape} and {out.shape}")
    return x + out
