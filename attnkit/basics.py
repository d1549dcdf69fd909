"""Chapter 0: the few ideas the book uses before attention.

Vectors are numbers in a row; a dot product multiplies two rows entry by entry
and adds up; a matrix product is many dot products at once. A model learns by
nudging its parameters against the slope (the derivative) of its loss:

    loss(w)  = mean((w * x - y) ** 2)          one parameter w, data (x, y)
    slope(w) = d loss / d w = mean(2 * (w * x - y) * x)
    w       <- w - lr * slope(w)               one step of gradient descent

Example
-------
>>> dot([1, 2, 3], [4, 0, -1])
1.0
>>> fit = fit_line([1, 2, 3], [4, 8, 12], w0=0.0, lr=0.05, steps=30)
>>> print(f"w: {fit.w[0]:.1f} -> {fit.w[-1]:.3f}   loss: {fit.loss[0]:.1f} -> {fit.loss[-1]:.5f}")
w: 0.0 -> 4.000   loss: 74.7 -> 0.00000
"""

from __future__ import annotations

import math
import numbers
from typing import Callable, NamedTuple

import numpy as np

from ._checks import as_float_array, check_positive_int

__all__ = [
    "dot",
    "angle_degrees",
    "matmul_by_dots",
    "line_loss",
    "line_loss_slope",
    "nudge_slope",
    "fit_line",
    "LineFit",
    "relu",
]


def _vector(name, v):
    v = as_float_array(name, v, min_ndim=1, layout="(n,)")
    if v.ndim != 1:
        raise ValueError(f"{name} must be one vector of shape (n,), got shape {v.shape}")
    return v


def dot(a, b) -> float:
    """The dot product a · b = a_1 b_1 + a_2 b_2 + ... : multiply entry by entry, then add.

    Positive when the angle between a and b is under 90°, 0 at a right angle, negative
    over 90° (see angle_degrees).

    Example
    -------
    >>> dot([1, 0], [3, 4]), dot([1, 0], [0, 4]), dot([1, 0], [-3, 4])
    (3.0, 0.0, -3.0)
    """
    a, b = _vector("a", a), _vector("b", b)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.shape[0]} and {b.shape[0]}")
    return float(sum(a_i * b_i for a_i, b_i in zip(a, b)))     # one product per entry, then the sum


def angle_degrees(a, b) -> float:
    """The angle between a and b in degrees, from cos(angle) = a · b / (|a| |b|).

    The sign of the dot product says only which side of 90° the angle is on: a small negative
    dot product can belong to two vectors that are nearly at right angles.

    Example
    -------
    >>> angle_degrees([1, 0], [1, 1]), angle_degrees([1, 0], [0, 4]), angle_degrees([1, 0], [-2, 0])
    (45.0, 90.0, 180.0)
    >>> round(angle_degrees([2, -1, 0], [1, 3, 5]), 1)      # dot product -1, yet nearly at right angles
    94.3
    """
    a, b = _vector("a", a), _vector("b", b)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.shape[0]} and {b.shape[0]}")
    len_a, len_b = np.sqrt(dot(a, a)), np.sqrt(dot(b, b))    # |a|, |b|
    if len_a == 0 or len_b == 0:
        raise ValueError("a and b must both be non-zero vectors: a zero vector has no direction, so no angle")
    u, v = a / len_a, b / len_b                               # (n,) unit vectors
    # arccos(u · v) loses digits near 0° and 180°; this equal form (Kahan's) does not
    angle = 2 * np.arctan2(np.sqrt(dot(u - v, u - v)), np.sqrt(dot(u + v, u + v)))
    return float(np.round(np.degrees(angle), 12))


def matmul_by_dots(a, b) -> np.ndarray:
    """a @ b computed the slow way: entry (i, j) is the dot product of row i of a and column j of b.

    a (n, m) @ b (m, p) -> (n, p). Gives the same numbers as ``a @ b``.

    Example
    -------
    >>> matmul_by_dots([[1, 2], [3, 4]], [[1, 0], [0, 1]])
    array([[1., 2.],
           [3., 4.]])
    """
    a = as_float_array("a", a, min_ndim=2, layout="(n, m)")
    b = as_float_array("b", b, min_ndim=2, layout="(m, p)")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(
            f"a (n, m) @ b (m, p) needs as many columns in a as rows in b: got a {a.shape} and b {b.shape}"
        )
    out = np.empty((a.shape[0], b.shape[1]))                  # (n, p)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            out[i, j] = dot(a[i], b[:, j])                    # row i of a · column j of b
    return out


def _data(x, y):
    x, y = _vector("x", x), _vector("y", y)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have one y per x, got {x.shape[0]} x and {y.shape[0]} y")
    return x, y


def _number(name, value):
    if not (isinstance(value, numbers.Real) and math.isfinite(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def line_loss(w, x, y) -> float:
    """The loss of the one-parameter model y ≈ w x: the mean squared error mean((w x - y)²).

    Example
    -------
    >>> line_loss(2.0, [1, 2], [2, 4]), line_loss(3.0, [1, 2], [2, 4])
    (0.0, 2.5)
    """
    x, y = _data(x, y)
    w = _number("w", w)
    return float(np.mean((w * x - y) ** 2))                  # (n,) errors -> one number


def line_loss_slope(w, x, y) -> float:
    """The derivative of ``line_loss`` with respect to w: mean(2 (w x - y) x).

    Its sign says which way the loss goes up; its size, how steeply.

    Example
    -------
    >>> line_loss_slope(3.0, [1, 2], [2, 4])
    5.0
    """
    x, y = _data(x, y)
    w = _number("w", w)
    return float(np.mean(2 * (w * x - y) * x))               # (n,) -> one number


def nudge_slope(f: Callable[[float], float], w, eps: float = 1e-6) -> float:
    """The slope of f at w measured by nudging: (f(w + eps) - f(w - eps)) / (2 eps).

    Example
    -------
    >>> round(nudge_slope(lambda w: w ** 2, 3.0), 6)
    6.0
    """
    w, eps = _number("w", w), _number("eps", eps)
    if eps <= 0:
        raise ValueError(f"eps must be > 0, got {eps!r}")
    return (f(w + eps) - f(w - eps)) / (2 * eps)


class LineFit(NamedTuple):
    """The path of gradient descent: w and the loss before each step (and after the last)."""

    w: np.ndarray      # (steps + 1,)
    loss: np.ndarray   # (steps + 1,)


def fit_line(x, y, *, w0=0.0, lr=0.05, steps=30) -> LineFit:
    """Train the one-parameter model y ≈ w x by gradient descent: w <- w - lr * slope(w).

    Deterministic: the same data and settings always give the same path.

    Example
    -------
    >>> fit_line([1, 2], [2, 4], w0=0.0, lr=0.1, steps=3).w.tolist()
    [0.0, 1.0, 1.5, 1.75]
    """
    x, y = _data(x, y)
    w, lr = _number("w0", w0), _number("lr", lr)
    if lr <= 0:
        raise ValueError(f"lr (the learning rate) must be > 0, got {lr!r}")
    steps = check_positive_int("steps", steps)
    ws, losses = [w], [line_loss(w, x, y)]
    for _ in range(steps):
        w = w - lr * line_loss_slope(w, x, y)                # step against the slope
        ws.append(w)
        losses.append(line_loss(w, x, y))
    return LineFit(np.array(ws), np.array(losses))


def relu(x) -> np.ndarray:
    """ReLU(x) = max(0, x) entry by entry: negative numbers become 0, the rest pass through.

    Example
    -------
    >>> relu([-2.0, -0.5, 0.0, 1.5])
    array([0. , 0. , 0. , 1.5])
    """
    x = as_float_array("x", x)
    return np.maximum(x, 0.0)                                # same shape as x
