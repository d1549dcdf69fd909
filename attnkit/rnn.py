"""A tiny vanilla RNN, to measure what "reading left to right" costs.

    h_t = tanh(x_t @ w_x + h_{t-1} @ w_h + b),    h_0 = 0

An RNN reads a sentence one token at a time: the hidden state ``h_t`` is all it
remembers, and the only way token 1 can reach step ``t`` is through ``t - 1``
multiplications by ``w_h`` and ``t`` squashes by ``tanh``. This module measures
how much of token 1 is still there after ``t`` steps, by the exact chain rule
(the Jacobian ``dh_t/dx_1``) and by simply changing token 1 and watching
``h_t``. It also counts the sequential steps and the connections that an RNN
and attention need for a sentence of ``n`` tokens.

Shapes: ``n`` tokens, each a vector of ``d_in`` numbers; a hidden state of
``d_h`` numbers. Positions in code are 0-based (``x[0]`` is token 1).

Example
-------
>>> w = init_rnn(d_in=4, d_h=8, seed=0)             # w_x (4, 8), w_h (8, 8), b (8,)
>>> x = random_tokens(n=5, d_in=4, seed=1)          # (5, 4)
>>> rnn_forward(x, *w).shape                        # one hidden state per token
(5, 8)
>>> first_token_influence(x, *w).shape              # one number per step
(5,)
>>> sequential_steps(5, "rnn"), sequential_steps(5, "attention")
(5, 1)
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np

from ._checks import as_float_array, check_positive_int, check_seed

__all__ = [
    "RNNWeights",
    "init_rnn",
    "random_tokens",
    "rnn_step",
    "rnn_forward",
    "tanh_slopes",
    "first_token_jacobians",
    "first_token_influence",
    "first_token_change",
    "influence_on_last",
    "decay_curve",
    "decay_curves",
    "clip_by_norm",
    "sequential_steps",
    "path_length",
    "pairwise_connections",
]

MODELS = ("rnn", "attention")


class RNNWeights(NamedTuple):
    """The three parameters of a vanilla RNN; unpack them with ``*w``."""

    w_x: np.ndarray   # (d_in, d_h)  input -> hidden
    w_h: np.ndarray   # (d_h, d_h)   previous hidden -> hidden
    b: np.ndarray     # (d_h,)       bias


# --------------------------------------------------------------------------
# weights and inputs
# --------------------------------------------------------------------------

def init_rnn(d_in, d_h, *, w_scale=1.0, seed=0):
    """Deterministic random weights for a vanilla RNN.

    ``rng = np.random.default_rng(seed)`` draws, in this order,
    ``w_x ~ N(0, 1/d_in)`` of shape (d_in, d_h) and ``w_h ~ N(0, w_scale^2/d_h)``
    of shape (d_h, d_h); ``b`` is zero. With ``w_scale = 1`` the eigenvalues of
    ``w_h`` fill a disc of radius about 1 (the usual "variance 1/d_h" start),
    ``w_scale < 1`` shrinks every step, ``w_scale > 1`` stretches.
    The same ``seed`` always gives the same weights.

    Example
    -------
    >>> w = init_rnn(3, 5, seed=7)
    >>> w.w_x.shape, w.w_h.shape, w.b.shape
    ((3, 5), (5, 5), (5,))
    >>> bool(np.all(init_rnn(3, 5, seed=7).w_h == w.w_h))
    True
    """
    d_in = check_positive_int("d_in", d_in)
    d_h = check_positive_int("d_h", d_h)
    if (isinstance(w_scale, (bool, np.bool_)) or not isinstance(w_scale, numbers.Real)
            or not math.isfinite(w_scale) or w_scale < 0):
        raise ValueError(f"w_scale must be a finite number >= 0, got {w_scale!r}")
    rng = np.random.default_rng(check_seed(seed))
    w_x = rng.normal(0.0, 1.0 / math.sqrt(d_in), size=(d_in, d_h))        # (d_in, d_h)
    w_h = rng.normal(0.0, w_scale / math.sqrt(d_h), size=(d_h, d_h))      # (d_h, d_h)
    b = np.zeros(d_h)                                                      # (d_h,)
    return RNNWeights(w_x, w_h, b)


def random_tokens(n, d_in, *, seed=0):
    """``n`` made-up token vectors, each entry ``N(0, 1)``: shape (n, d_in).

    Stand-ins for word embeddings: the RNN here is untrained, so any vectors
    of a realistic size do. ``np.random.default_rng(seed)`` makes them repeatable.

    Example
    -------
    >>> random_tokens(3, 2, seed=0).shape
    (3, 2)
    """
    n = check_positive_int("n", n)
    d_in = check_positive_int("d_in", d_in)
    return np.random.default_rng(check_seed(seed)).normal(size=(n, d_in))  # (n, d_in)


def _check_weights(w_x, w_h, b):
    w_x = as_float_array("w_x", w_x, min_ndim=2, layout="(d_in, d_h)")
    w_h = as_float_array("w_h", w_h, min_ndim=2, layout="(d_h, d_h)")
    b = as_float_array("b", b, min_ndim=1, layout="(d_h,)")
    if w_x.ndim != 2 or w_h.ndim != 2 or b.ndim != 1:
        raise ValueError(
            f"expected w_x (d_in, d_h), w_h (d_h, d_h) and b (d_h,), "
            f"got shapes {w_x.shape}, {w_h.shape} and {b.shape}"
        )
    d_h = w_x.shape[1]
    if w_h.shape != (d_h, d_h) or b.shape != (d_h,):
        raise ValueError(
            f"w_x has d_h={d_h} columns, so w_h must be ({d_h}, {d_h}) and b ({d_h},): "
            f"got w_h {w_h.shape} and b {b.shape}"
        )
    return w_x, w_h, b


def _check_x(x, w_x):
    """x, one sentence of token vectors (n, d_in) that fits w_x, as a float array, or ValueError."""
    x = as_float_array("x", x, min_ndim=2, layout="(n, d_in)")
    if x.ndim != 2:
        raise ValueError(f"x must be one sentence of shape (n, d_in), got shape {x.shape}")
    if x.shape[1] != w_x.shape[0]:
        raise ValueError(
            f"each token of x has d_in={x.shape[1]} numbers but w_x expects "
            f"d_in={w_x.shape[0]}: got x {x.shape} and w_x {w_x.shape}"
        )
    return x


# --------------------------------------------------------------------------
# reading a sentence
# --------------------------------------------------------------------------

def rnn_step(x_t, h_prev, w_x, w_h, b):
    """One step: ``h_t = tanh(x_t @ w_x + h_prev @ w_h + b)``.

    x_t (d_in,), h_prev (d_h,) -> h_t (d_h,)

    Example
    -------
    >>> w = init_rnn(2, 3, seed=0)
    >>> rnn_step(np.zeros(2), np.zeros(3), *w)     # nothing in, nothing remembered
    array([0., 0., 0.])
    """
    w_x, w_h, b = _check_weights(w_x, w_h, b)
    x_t = as_float_array("x_t", x_t, min_ndim=1, layout="(d_in,)")
    h_prev = as_float_array("h_prev", h_prev, min_ndim=1, layout="(d_h,)")
    if x_t.shape != (w_x.shape[0],) or h_prev.shape != (w_h.shape[0],):
        raise ValueError(
            f"expected x_t ({w_x.shape[0]},) and h_prev ({w_h.shape[0]},), "
            f"got {x_t.shape} and {h_prev.shape}"
        )
    return np.tanh(x_t @ w_x + h_prev @ w_h + b)     # (d_in,) @ (d_in, d_h) + (d_h,) @ (d_h, d_h) -> (d_h,)


def _forward(x, w_x, w_h, b, h_0):
    n, d_h = x.shape[0], w_h.shape[0]
    h = np.empty((n, d_h))                           # (n, d_h) one row per step
    h_prev = h_0                                     # (d_h,)
    for t in range(n):                               # strictly one after another
        h_prev = np.tanh(x[t] @ w_x + h_prev @ w_h + b)   # (d_h,)
        h[t] = h_prev
    return h


def rnn_forward(x, w_x, w_h, b, h_0=None):
    """Read the sentence ``x`` left to right; return every hidden state.

    x (n, d_in) -> h (n, d_h), where ``h[t]`` is the state after token ``t + 1``.
    ``h_0`` (d_h,) is the state before the first token, zeros by default.

    Example
    -------
    >>> w = init_rnn(2, 3, seed=0)
    >>> h = rnn_forward(random_tokens(4, 2), *w)
    >>> h.shape, bool(np.all(np.abs(h) < 1))        # tanh keeps every entry in (-1, 1)
    ((4, 3), True)
    """
    w_x, w_h, b = _check_weights(w_x, w_h, b)
    x = _check_x(x, w_x)
    if h_0 is None:
        h_0 = np.zeros(w_h.shape[0])
    h_0 = as_float_array("h_0", h_0, min_ndim=1, layout="(d_h,)")
    if h_0.shape != (w_h.shape[0],):
        raise ValueError(f"h_0 must have shape ({w_h.shape[0]},), got {h_0.shape}")
    return _forward(x, w_x, w_h, b, h_0)


def tanh_slopes(x, w_x, w_h, b):
    """``tanh'(a_t) = 1 - h_t**2`` at every step: how much each step squashes.

    Shape (n, d_h), every entry in (0, 1]. A busy, saturated state (entries
    near +-1) has slopes near 0 and lets little of the past through.

    Example
    -------
    >>> w = init_rnn(2, 3, seed=0)
    >>> s = tanh_slopes(random_tokens(4, 2), *w)
    >>> s.shape, bool(np.all((s > 0) & (s <= 1)))
    ((4, 3), True)
    """
    h = rnn_forward(x, w_x, w_h, b)                          # (n, d_h)
    return 1.0 - h**2                                        # (n, d_h)


# --------------------------------------------------------------------------
# measuring what is left of token 1
# --------------------------------------------------------------------------

def first_token_jacobians(x, w_x, w_h, b):
    """The exact Jacobians ``dh_t/dx_1`` for every step t, by the chain rule.

    With ``a_t = x_t @ w_x + h_{t-1} @ w_h + b`` and ``h_t = tanh(a_t)``,
    ``tanh'(a_t) = 1 - h_t**2``, so

        dh_1/dx_1 = diag(1 - h_1**2) w_x^T
        dh_t/dx_1 = diag(1 - h_t**2) w_h^T  dh_{t-1}/dx_1

    Returns ``jac`` of shape (n, d_h, d_in): ``jac[t, i, j]`` is how fast entry
    ``i`` of ``h[t]`` moves when entry ``j`` of ``x[0]`` is nudged.

    Example
    -------
    >>> w = init_rnn(2, 3, seed=0)
    >>> first_token_jacobians(random_tokens(4, 2), *w).shape
    (4, 3, 2)
    """
    w_x, w_h, b = _check_weights(w_x, w_h, b)
    x = _check_x(x, w_x)
    h = _forward(x, w_x, w_h, b, np.zeros(w_h.shape[0]))     # (n, d_h)
    slope = 1.0 - h**2                                       # (n, d_h) tanh' at each step, in (0, 1]
    jac = np.empty((x.shape[0], w_h.shape[0], w_x.shape[0]))  # (n, d_h, d_in)
    jac[0] = slope[0][:, None] * w_x.T                       # (d_h, 1) * (d_h, d_in) -> (d_h, d_in)
    for t in range(1, x.shape[0]):
        jac[t] = slope[t][:, None] * (w_h.T @ jac[t - 1])    # (d_h, d_h) @ (d_h, d_in) -> (d_h, d_in)
    return jac


def first_token_influence(x, w_x, w_h, b):
    """How strongly token 1 still moves the hidden state after each step.

    ``influence[t] = ||dh_t/dx_1||_2``, the largest singular value of the
    Jacobian: nudge ``x[0]`` by a tiny ``eps`` in its most effective direction
    and ``h[t]`` moves by ``influence[t] * eps``. Shape (n,).

    Example
    -------
    >>> w = init_rnn(4, 8, w_scale=0.5, seed=0)
    >>> g = first_token_influence(random_tokens(10, 4, seed=1), *w)
    >>> bool(g[-1] < g[0])                          # it fades
    True
    """
    jac = first_token_jacobians(x, w_x, w_h, b)              # (n, d_h, d_in)
    return np.linalg.norm(jac, ord=2, axis=(1, 2))           # (n,) largest singular values


def first_token_change(x, x_1_new, w_x, w_h, b):
    """Swap token 1 for ``x_1_new`` and measure how far each hidden state moves.

    Returns ``||h_t(new sentence) - h_t(x)||`` for every step t, shape (n,):
    a plain measurement with no calculus, valid for big changes too
    (``x_1_new`` can be a completely different word).

    Example
    -------
    >>> w = init_rnn(2, 3, seed=0)
    >>> x = random_tokens(5, 2)
    >>> first_token_change(x, x[0], *w)             # same word: nothing changes
    array([0., 0., 0., 0., 0.])
    """
    w_x, w_h, b = _check_weights(w_x, w_h, b)
    x = _check_x(x, w_x)
    x_1_new = as_float_array("x_1_new", x_1_new, min_ndim=1, layout="(d_in,)")
    if x_1_new.shape != (x.shape[1],):
        raise ValueError(f"x_1_new must be one token of shape ({x.shape[1]},), got {x_1_new.shape}")
    x_new = x.copy()
    x_new[0] = x_1_new                                        # (n, d_in) only token 1 differs
    h_0 = np.zeros(w_h.shape[0])
    h, h_new = _forward(x, w_x, w_h, b, h_0), _forward(x_new, w_x, w_h, b, h_0)   # (n, d_h) each
    return np.linalg.norm(h_new - h, axis=1)                  # (n,)


def influence_on_last(x, w_x, w_h, b):
    """How strongly each token s moves the LAST hidden state: ``||dh_n/dx_s||_2``.

    Shape (n,). Entry 0 is token 1 (the oldest), entry n-1 the newest.
    This is the quantity that training sends backwards: if it is tiny for early
    tokens, the gradient that reaches them "vanishes". Computed by the chain
    rule from the end: ``dh_n/da_s = dh_n/da_{s+1} w_h^T diag(1 - h_s**2)``.

    Example
    -------
    >>> w = init_rnn(4, 8, w_scale=0.5, seed=0)
    >>> g = influence_on_last(random_tokens(10, 4, seed=1), *w)
    >>> bool(g[0] < g[-1])                          # the newest token counts most
    True
    """
    w_x, w_h, b = _check_weights(w_x, w_h, b)
    x = _check_x(x, w_x)
    n = x.shape[0]
    h = _forward(x, w_x, w_h, b, np.zeros(w_h.shape[0]))     # (n, d_h)
    slope = 1.0 - h**2                                       # (n, d_h)
    out = np.empty(n)
    d_a = np.diag(slope[-1])                                 # (d_h, d_h) dh_n/da_n
    for s in range(n - 1, -1, -1):
        out[s] = np.linalg.norm(d_a @ w_x.T, ord=2)          # (d_h, d_h) @ (d_h, d_in): dh_n/dx_s
        if s:
            d_a = (d_a @ w_h.T) * slope[s - 1]               # (d_h, d_h) dh_n/da_{s-1}
    return out


def decay_curve(n, *, w_scale=1.0, d_in=8, d_h=16, seed=0):
    """``first_token_influence`` for a fresh random RNN reading a random sentence.

    A one-call version for the book: weights ``init_rnn(d_in, d_h,
    w_scale=w_scale, seed=seed)`` read ``random_tokens(n, d_in, seed=seed + 1)``.
    Returns shape (n,).

    Example
    -------
    >>> g = decay_curve(30, w_scale=0.5)
    >>> print(f"step 1: {g[0]:.2f}   step 10: {g[9]:.1e}")
    step 1: 1.56   step 10: 3.6e-04
    """
    w = init_rnn(d_in, d_h, w_scale=w_scale, seed=seed)
    x = random_tokens(n, d_in, seed=seed + 1)
    return first_token_influence(x, *w)


def decay_curves(n, *, w_scale=1.0, n_trials=20, d_in=8, d_h=16):
    """``decay_curve`` for ``n_trials`` different random RNNs (seeds 0, 1, ...).

    Returns shape (n_trials, n). Take the median over axis 0 for the typical
    curve, so one lucky or unlucky draw of weights does not tell the story.

    Example
    -------
    >>> decay_curves(5, n_trials=3).shape
    (3, 5)
    """
    n_trials = check_positive_int("n_trials", n_trials)
    return np.stack([decay_curve(n, w_scale=w_scale, d_in=d_in, d_h=d_h, seed=s)
                     for s in range(n_trials)])             # (n_trials, n)


def clip_by_norm(g, max_norm):
    """Gradient clipping: shorten ``g`` to length ``max_norm`` if it is longer; keep its direction.

        g_clipped = g * min(1, max_norm / ||g||)

    The usual remedy for exploding gradients (gates, as in the LSTM, are the one for
    vanishing ones). ``g`` is any array, its length the norm of all its entries;
    the result has the same shape.

    Example
    -------
    >>> clip_by_norm([30.0, 40.0], 5.0)          # length 50 -> 5, same direction
    array([3., 4.])
    >>> clip_by_norm([0.3, 0.4], 5.0)            # already short enough: unchanged
    array([0.3, 0.4])
    """
    g = as_float_array("g", g)
    if not (isinstance(max_norm, numbers.Real) and math.isfinite(max_norm) and max_norm > 0):
        raise ValueError(f"max_norm must be a finite number > 0, got {max_norm!r}")
    with np.errstate(over="ignore"):
        length = float(np.linalg.norm(g))                      # ||g|| over all entries
    if math.isinf(length):                                     # ||g|| overflows: certainly too long
        unit = g / float(np.abs(g).max())                      # same direction, entries <= 1
        return unit * (max_norm / float(np.linalg.norm(unit)))
    return g * min(1.0, max_norm / length) if length > 0 else g.copy()


# --------------------------------------------------------------------------
# counting: sequential steps, path lengths, connections
# --------------------------------------------------------------------------

def _check_model(model):
    if model not in MODELS:
        raise ValueError(f"model must be one of {MODELS}, got {model!r}")
    return model


def sequential_steps(n, model):
    """Steps that must run one after another to read ``n`` tokens (one layer).

    An RNN needs ``n``: step t waits for ``h_{t-1}``. Attention needs 1: every
    token's scores and output are independent of the others' results, so one
    layer is a single round of matrix products that can run all at once.

    Example
    -------
    >>> sequential_steps(1000, "rnn"), sequential_steps(1000, "attention")
    (1000, 1)
    """
    n = check_positive_int("n", n)
    return n if _check_model(model) == "rnn" else 1


def path_length(i, j, model):
    """Hops the information of token ``i`` needs to reach token ``j`` (0-based).

    RNN: ``j - i`` hand-offs through the hidden state, and only forwards
    (``i <= j``). Attention: 1 direct link between any two different tokens.
    A token reaches itself in 0 hops.

    Example
    -------
    >>> path_length(0, 39, "rnn"), path_length(0, 39, "attention")
    (39, 1)
    """
    _check_model(model)
    for name, value in (("i", i), ("j", j)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} must be a token position >= 0, got {value!r}")
    if i == j:
        return 0
    if model == "attention":
        return 1
    if i > j:
        raise ValueError(
            f"an RNN reading left to right carries token {i} forward only, "
            f"so it never reaches the earlier token {j}"
        )
    return int(j - i)


def pairwise_connections(n, model):
    """Direct connections between tokens for a sentence of ``n`` tokens.

    RNN: ``n - 1`` links, each token to the next. Attention: ``n * n`` scores,
    one for every (query, key) pair including a token with itself; this is
    the size of the attention-weight matrix, and it grows with n squared.

    Example
    -------
    >>> pairwise_connections(6, "rnn"), pairwise_connections(6, "attention")
    (5, 36)
    """
    n = check_positive_int("n", n)
    return n - 1 if _check_model(model) == "rnn" else n * n
