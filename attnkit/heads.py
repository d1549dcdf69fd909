"""Why attention heads specialise: two heads, trained by plain gradient descent, measured.

The task needs two different relations at once. A sentence is ``n`` tokens on a ring; each
token is a vector ``x_i = [content one-hot (n_words) ; position one-hot (n)]``. The target for
token ``i`` puts the content of its LEFT neighbour in the first half and the content of its
RIGHT neighbour in the second half:

    t_i = [c_{i-1} ; c_{i+1}]                       (2 * n_words numbers, positions mod n)

The model is two attention heads whose outputs are added (``concat(head_1, head_2) @ W_O``
with ``W_O`` folded into each head's ``W_V``):

    head_h = softmax((x W_Q^h)(x W_K^h)^T / sqrt(d_k)) (x W_V^h)        (n, 2 * n_words)
    y      = head_1 + head_2,     loss = mean((y - t)^2)

The loss is symmetric in the two heads: swapping them changes nothing. So two heads that
start with the SAME weights get the SAME gradients at every step and stay equal forever; the
pair behaves like one head and cannot look left and right at once. Heads that start from
DIFFERENT random weights get different gradients, drift apart, and each takes one relation.

    >>> same = train_two_heads("same", steps=50)
    >>> float(same.head_gap.max())                 # identical at every one of the 50 steps
    0.0
    >>> bool(train_two_heads("random", steps=50).head_gap[-1] > 0)
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, check_positive, check_positive_int, check_seed
from .core import softmax
from .training import sgd_step

__all__ = [
    "TASK",
    "STARTS",
    "make_task",
    "init_heads",
    "head_forward",
    "two_heads_loss_and_grads",
    "TrainRun",
    "train_two_heads",
    "neighbour_share",
    "worked_dimensions",
    "source_loss",
    "source_loss_optimum",
    "source_loss_descent",
]

TASK = {"n": 6, "n_words": 4, "d_k": 6, "n_sentences": 64}
PARAMS = ("w_q", "w_k", "w_v")
STARTS = ("same", "nudged", "random")


def make_task(n=TASK["n"], n_words=TASK["n_words"], n_sentences=TASK["n_sentences"], seed=0):
    """Random sentences on a ring and their targets: ``(x, t)``.

    x (S, n, n_words + n): content one-hot, then position one-hot.
    t (S, n, 2 * n_words): [content of the left neighbour ; content of the right neighbour].

    >>> x, t = make_task(n_sentences=3)
    >>> x.shape, t.shape
    ((3, 6, 10), (3, 6, 8))
    """
    n = check_positive_int("n", n)
    n_words = check_positive_int("n_words", n_words)
    n_sentences = check_positive_int("n_sentences", n_sentences)
    if n < 3:
        raise ValueError(f"n must be at least 3 so that the left and right neighbours differ, got {n}")
    rng = np.random.default_rng(check_seed(seed))
    words = rng.integers(0, n_words, size=(n_sentences, n))          # (S, n) word ids
    c = np.eye(n_words)[words]                                        # (S, n, n_words)
    pos = np.broadcast_to(np.eye(n), (n_sentences, n, n))             # (S, n, n)
    x = np.concatenate([c, pos], axis=-1)                             # (S, n, n_words + n)
    t = np.concatenate([np.roll(c, 1, axis=1), np.roll(c, -1, axis=1)], axis=-1)  # (S, n, 2 n_words)
    return x, t


def init_heads(start, d_model, d_k, d_out, *, scale=0.3, seed=0, nudge=1e-6):
    """Weights of two heads: a list of two dicts with ``w_q``, ``w_k`` (d_model, d_k), ``w_v`` (d_model, d_out).

    ``start="same"``: head 2 is an exact copy of head 1 (both drawn once, N(0, scale^2)).
    ``start="nudged"``: head 2 is head 1 plus noise of size ``nudge`` (1e-6): almost the same.
    ``start="random"``: each head drawn independently.

    >>> a, b = init_heads("same", 4, 2, 3)
    >>> all(np.array_equal(a[p], b[p]) for p in ("w_q", "w_k", "w_v"))
    True
    """
    if start not in STARTS:
        raise ValueError(f"start must be one of {STARTS}, got {start!r}")
    d_model, d_k, d_out = (check_positive_int(name, value) for name, value in
                           (("d_model", d_model), ("d_k", d_k), ("d_out", d_out)))
    scale, nudge = check_positive("scale", scale), check_positive("nudge", nudge)
    rng = np.random.default_rng(check_seed(seed))

    def draw():
        return {"w_q": rng.normal(0, scale, (d_model, d_k)),
                "w_k": rng.normal(0, scale, (d_model, d_k)),
                "w_v": rng.normal(0, scale, (d_model, d_out))}

    first = draw()
    if start == "random":
        second = draw()
    else:
        size = 0.0 if start == "same" else nudge
        second = {p: w + rng.normal(0, size, w.shape) for p, w in first.items()}
    return [first, second]


def head_forward(x, w_q, w_k, w_v):
    """One head on a batch: returns ``(out, weights, cache)``.

    x (S, n, d_model) -> out (S, n, d_out), weights (S, n, n).
    """
    q = x @ w_q                                   # (S, n, d_model) @ (d_model, d_k) -> (S, n, d_k)
    k = x @ w_k                                   # (S, n, d_k)
    v = x @ w_v                                   # (S, n, d_out)
    c = 1.0 / math.sqrt(q.shape[-1])
    a = softmax(q @ k.swapaxes(-1, -2) * c)       # (S, n, n)
    return a @ v, a, (x, q, k, v, a, c)           # (S, n, n) @ (S, n, d_out) -> (S, n, d_out)


def _head_backward(d_out, cache):
    """Gradients of one head's weights from ``d_out`` = dLoss/d(out), (S, n, d_out)."""
    x, q, k, v, a, c = cache
    d_a = d_out @ v.swapaxes(-1, -2)                           # (S, n, d_out) @ (S, d_out, n) -> (S, n, n)
    d_v = a.swapaxes(-1, -2) @ d_out                           # (S, n, n) @ (S, n, d_out) -> (S, n, d_out)
    d_s = a * (d_a - (d_a * a).sum(-1, keepdims=True))         # (S, n, n) softmax backward
    d_q = d_s @ k * c                                          # (S, n, d_k)
    d_k = d_s.swapaxes(-1, -2) @ q * c                         # (S, n, d_k)
    xt = x.swapaxes(-1, -2)                                    # (S, d_model, n)
    return {"w_q": (xt @ d_q).sum(0), "w_k": (xt @ d_k).sum(0), "w_v": (xt @ d_v).sum(0)}


def two_heads_loss_and_grads(heads, x, t):
    """Loss ``mean((head_1 + head_2 - t)^2)`` and the exact gradient of every weight.

    Returns ``(loss, grads, weights)``: grads is a list of two dicts like ``heads``; weights
    (2, S, n, n) are each head's attention weights.

    >>> x, t = make_task(n_sentences=8)
    >>> heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
    >>> loss, grads, _ = two_heads_loss_and_grads(heads, x, t)
    >>> all(np.array_equal(grads[0][p], grads[1][p]) for p in ("w_q", "w_k", "w_v"))
    True
    """
    outs = [head_forward(x, **h) for h in heads]
    y = outs[0][0] + outs[1][0]                                # (S, n, d_out)
    err = y - t                                                # (S, n, d_out)
    loss = float((err**2).mean())
    d_y = 2.0 * err / err.size                                 # dLoss/dy, (S, n, d_out)
    grads = [_head_backward(d_y, cache) for _, _, cache in outs]
    return loss, grads, np.stack([a for _, a, _ in outs])


@dataclass
class TrainRun:
    """One training run: a value per step in ``loss`` and ``head_gap``; final weights and attention."""

    start: str
    loss: np.ndarray        # (steps + 1,) loss before each step and after the last
    head_gap: np.ndarray    # (steps + 1,) largest |difference| between the two heads' weights
    heads: list             # final weights, two dicts
    weights: np.ndarray     # (2, n, n) each head's attention on the first sentence, after training
    lr: float


def train_two_heads(start, *, steps=800, lr=5.0, seed=3, task_seed=1):
    """Train two heads on :func:`make_task` with plain full-batch gradient descent
    (:func:`attnkit.training.sgd_step`, the update every chapter's training uses).

    ``start`` is ``"same"`` (head 2 a copy of head 1), ``"nudged"`` (a copy plus 1e-6 noise)
    or ``"random"`` (drawn independently).

    >>> run = train_two_heads("random", steps=20)
    >>> run.loss.shape, run.weights.shape
    ((21,), (2, 6, 6))
    """
    steps = check_positive_int("steps", steps)
    x, t = make_task(seed=task_seed)                           # (S, n, d_model), (S, n, d_out)
    heads = init_heads(start, x.shape[-1], TASK["d_k"], t.shape[-1], seed=seed)
    losses, gaps = [], []
    for _ in range(steps + 1):
        loss, grads, _ = two_heads_loss_and_grads(heads, x, t)
        losses.append(loss)
        gaps.append(max(np.abs(heads[0][p] - heads[1][p]).max() for p in PARAMS))
        if len(losses) > steps:
            break
        for h, g in zip(heads, grads):
            sgd_step(h, g, lr)                                 # w <- w - lr * dL/dw, every weight (chapter 8's step)
    _, _, weights = two_heads_loss_and_grads(heads, x[:1], t[:1])
    return TrainRun(start=start, loss=np.array(losses), head_gap=np.array(gaps), heads=heads,
                    weights=weights[:, 0], lr=lr)


def neighbour_share(weights):
    """How much each head looks at the left and the right neighbour, averaged over tokens.

    weights (2, n, n) -> array (2, 2): row h = head h, columns = (left, right).

    >>> w = np.stack([np.roll(np.eye(4), -1, axis=1), np.roll(np.eye(4), 1, axis=1)])
    >>> neighbour_share(w)
    array([[1., 0.],
           [0., 1.]])
    """
    weights = as_float_array("weights", weights, min_ndim=3, layout="(heads, n, n)")
    if weights.ndim != 3 or weights.shape[1] != weights.shape[2]:
        raise ValueError(f"weights must have shape (heads, n, n), got shape {weights.shape}")
    n = weights.shape[-1]
    i = np.arange(n)
    left = weights[:, i, (i - 1) % n].mean(axis=-1)            # (2,)
    right = weights[:, i, (i + 1) % n].mean(axis=-1)           # (2,)
    return np.stack([left, right], axis=-1)


# --------------------------------------------------------------------------
# the worked dimensions of section 4.1
# --------------------------------------------------------------------------

def worked_dimensions(n=4, d_model=512, n_heads=8, seed=0):
    """Run multi-head attention step by step and return the shape after each step.

    Returns a list of ``(name, shape)`` and checks the result against
    :func:`attnkit.multi_head_attention`.

    >>> [s for _, s in worked_dimensions(n=3, d_model=8, n_heads=2)][-1]
    (3, 8)
    """
    from .core import merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads

    rng = np.random.default_rng(check_seed(seed))
    x = rng.normal(size=(n, d_model))
    w_q, w_k, w_v, w_o = rng.normal(0, 1 / math.sqrt(d_model), size=(4, d_model, d_model))
    q, k, v = x @ w_q, x @ w_k, x @ w_v                                    # (n, d_model) each
    q_h, k_h, v_h = (split_heads(a, n_heads) for a in (q, k, v))           # (h, n, d_head)
    heads, weights = scaled_dot_product_attention(q_h, k_h, v_h)           # (h, n, d_head), (h, n, n)
    concat = merge_heads(heads)                                            # (n, d_model)
    out = concat @ w_o                                                     # (n, d_model)
    reference, _ = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)
    if not np.allclose(out, reference):
        raise AssertionError("step-by-step multi-head attention disagrees with multi_head_attention")
    return [("x", x.shape), ("Q = x W_Q", q.shape), ("split Q", q_h.shape),
            ("weights", weights.shape), ("heads", heads.shape), ("concat", concat.shape),
            ("out = concat W_O", out.shape)]


# --------------------------------------------------------------------------
# the source course's two-number example, computed
# --------------------------------------------------------------------------

def source_loss(a, b, coupling=0.5, targets=(3.0, 5.0)):
    """``(a - 3)^2 + (b - 5)^2 + coupling * (a - b)^2`` (works on arrays too).

    >>> float(source_loss(3.0, 5.0))
    2.0
    """
    t_a, t_b = targets
    return (np.asarray(a) - t_a) ** 2 + (np.asarray(b) - t_b) ** 2 + coupling * (np.asarray(a) - np.asarray(b)) ** 2


def source_loss_optimum(coupling=0.5, targets=(3.0, 5.0)):
    """The minimum of :func:`source_loss`: solve gradient = 0, a 2x2 linear system.

        dL/da = 2(a - 3) + 2c(a - b) = 0
        dL/db = 2(b - 5) - 2c(a - b) = 0

    A minimum exists only for ``coupling > -0.5`` (otherwise the loss has no bottom).

    >>> source_loss_optimum(0.5)
    array([3.5, 4.5])
    >>> source_loss_optimum(-0.25)
    array([2., 6.])
    """
    c = float(coupling)
    if not c > -0.5:
        raise ValueError(f"coupling must be > -0.5 for the loss to have a minimum, got {coupling!r}")
    t_a, t_b = targets
    lhs = np.array([[2 + 2 * c, -2 * c],
                    [-2 * c, 2 + 2 * c]])          # (2, 2) the Hessian
    rhs = np.array([2 * t_a, 2 * t_b])             # (2,)
    return np.linalg.solve(lhs, rhs)               # (2,) [a, b]


def source_loss_descent(coupling=0.5, start=(0.0, 0.0), lr=0.1, steps=100, targets=(3.0, 5.0)):
    """Gradient descent on :func:`source_loss` from ``start``; returns the path, shape (steps + 1, 2).

    >>> source_loss_descent(0.5)[-1].round(4)
    array([3.5, 4.5])
    """
    c = float(coupling)
    t_a, t_b = targets
    path = [np.array(start, dtype=float)]
    for _ in range(check_positive_int("steps", steps)):
        a, b = path[-1]
        grad = np.array([2 * (a - t_a) + 2 * c * (a - b),
                         2 * (b - t_b) - 2 * c * (a - b)])
        path.append(path[-1] - lr * grad)
    return np.stack(path)
