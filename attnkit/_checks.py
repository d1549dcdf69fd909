"""Input validation shared by every public attnkit function.

Each helper either returns a cleaned-up value (a float64 array, a boolean
mask, a Python int) or raises ``ValueError`` with a message that names the
argument, what was received and what was expected. Errors are raised
``from None`` so the reader sees our message, not a traceback from deep
inside NumPy.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "as_float_array",
    "as_mask",
    "check_same_size",
    "check_batch_broadcast",
    "check_divisible",
    "check_positive_int",
    "check_scale",
    "check_axis",
    "check_finite",
    "check_positive",
    "check_seed",
    "check_lang",
    "as_token_ids",
]


def _kind(value) -> str:
    """A short description of what was received, for error messages."""
    if isinstance(value, np.ndarray):
        return f"array of dtype {value.dtype} and shape {value.shape}"
    return f"{value!r} ({type(value).__name__})"


def check_finite(name: str, arr: np.ndarray) -> None:
    """Raise if ``arr`` holds NaN or +-infinity.

    Example
    -------
    >>> check_finite("x", np.array([1.0, np.nan]))
    Traceback (most recent call last):
    ...
    ValueError: x contains NaN or infinity (1 non-finite entry, the first at index (1,))
    """
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.argwhere(~finite)
        count = len(bad)
        first = tuple(int(i) for i in bad[0])
        entries = "entry" if count == 1 else "entries"
        raise ValueError(
            f"{name} contains NaN or infinity "
            f"({count} non-finite {entries}, the first at index {first})"
        )


def as_float_array(name: str, value, *, min_ndim: int = 0, layout: str = "") -> np.ndarray:
    """Convert ``value`` to a finite float64 array with at least ``min_ndim`` dims.

    ``layout`` is the expected shape in the book's notation, e.g.
    ``"(..., n_q, d_k)"``; it appears in the error message. The last
    ``min_ndim`` dimensions (the "core" ones, such as ``n_q`` and ``d_k``)
    must not be empty.

    Example
    -------
    >>> as_float_array("q", [1, 2, 3], min_ndim=2, layout="(..., n_q, d_k)")
    Traceback (most recent call last):
    ...
    ValueError: q must have at least 2 dimensions (..., n_q, d_k), got shape (3,)
    """
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError):
        # e.g. a ragged nested list: rows of different lengths
        raise ValueError(
            f"{name} must be a rectangular array of real numbers, got a ragged "
            f"or malformed {type(value).__name__}"
        ) from None
    if raw.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must be an array of real numbers, got dtype {raw.dtype}"
        )
    arr = raw.astype(float, copy=False)
    if arr.ndim < min_ndim:
        dims = "dimension" if min_ndim == 1 else "dimensions"
        expected = f" {layout}" if layout else ""
        raise ValueError(
            f"{name} must have at least {min_ndim} {dims}{expected}, got shape {arr.shape}"
        )
    if min_ndim and 0 in arr.shape[arr.ndim - min_ndim:]:
        expected = f" {layout}" if layout else ""
        raise ValueError(
            f"{name} must have at least one entry along each of its last {min_ndim} "
            f"dimensions{expected}, got shape {arr.shape}"
        )
    check_finite(name, arr)
    return arr


def as_mask(mask, target_shape: tuple, target_name: str, *, meaning: str = "True = keep") -> np.ndarray:
    """Check that ``mask`` is boolean and broadcasts to ``target_shape``.

    Returns the mask broadcast to ``target_shape`` (a read-only view).
    ``target_name`` describes the target in messages, e.g. ``"the scores"``.

    Example
    -------
    >>> as_mask(np.ones((2, 3), dtype=bool), (4, 4), "the scores")
    Traceback (most recent call last):
    ...
    ValueError: mask of shape (2, 3) does not broadcast to the scores of shape (4, 4)
    """
    try:
        m = np.asarray(mask)
    except (ValueError, TypeError):
        raise ValueError(
            f"mask must be a rectangular boolean array ({meaning}), got a ragged "
            f"or malformed {type(mask).__name__}"
        ) from None
    if m.dtype != np.bool_:
        raise ValueError(
            f"mask must be a boolean array ({meaning}), got dtype {m.dtype}; "
            f"convert it with mask.astype(bool) or a comparison such as mask > 0"
        )
    target_shape = tuple(target_shape)
    try:
        broadcast = np.broadcast_shapes(m.shape, target_shape)
    except ValueError:
        broadcast = None
    if broadcast != target_shape:
        raise ValueError(
            f"mask of shape {m.shape} does not broadcast to {target_name} of shape {target_shape}"
        )
    return np.broadcast_to(m, target_shape)


def check_same_size(what: str, symbol: str, name_a: str, a: np.ndarray, axis_a: int,
                    name_b: str, b: np.ndarray, axis_b: int) -> None:
    """Raise unless ``a.shape[axis_a] == b.shape[axis_b]``.

    Example
    -------
    >>> check_same_size("last dimension", "d_k", "q", np.ones((3, 4)), -1, "k", np.ones((5, 8)), -1)
    Traceback (most recent call last):
    ...
    ValueError: q and k must have the same last dimension d_k: got q (3, 4) and k (5, 8)
    """
    if a.shape[axis_a] != b.shape[axis_b]:
        raise ValueError(
            f"{name_a} and {name_b} must have the same {what} {symbol}: "
            f"got {name_a} {a.shape} and {name_b} {b.shape}"
        )


def check_batch_broadcast(**arrays: np.ndarray) -> tuple:
    """Return the broadcast of the leading (batch) dims, all but the last two.

    Example
    -------
    >>> check_batch_broadcast(q=np.ones((2, 3, 4)), k=np.ones((5, 3, 4)))
    Traceback (most recent call last):
    ...
    ValueError: the leading batch dimensions do not broadcast: got q (2, 3, 4) with batch (2,) and k (5, 3, 4) with batch (5,)
    """
    batches = {name: a.shape[:-2] for name, a in arrays.items()}
    try:
        return np.broadcast_shapes(*batches.values())
    except ValueError:
        got = " and ".join(
            f"{name} {a.shape} with batch {batches[name]}" for name, a in arrays.items()
        )
        raise ValueError(
            f"the leading batch dimensions do not broadcast: got {got}"
        ) from None


def check_qkv(q, k, v) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple]:
    """Validate queries, keys and values for attention; return them as float arrays and their batch shape.

    ``q`` (..., n_q, d_k), ``k`` (..., n_k, d_k), ``v`` (..., n_k, d_v); the leading batch
    dimensions must broadcast.

    Example
    -------
    >>> check_qkv(np.ones((2, 4)), np.ones((3, 5)), np.ones((3, 1)))
    Traceback (most recent call last):
    ...
    ValueError: q and k must have the same last dimension d_k: got q (2, 4) and k (3, 5)
    """
    q = as_float_array("q", q, min_ndim=2, layout="(..., n_q, d_k)")
    k = as_float_array("k", k, min_ndim=2, layout="(..., n_k, d_k)")
    v = as_float_array("v", v, min_ndim=2, layout="(..., n_k, d_v)")
    check_same_size("last dimension", "d_k", "q", q, -1, "k", k, -1)
    check_same_size("number of rows", "n_k", "k", k, -2, "v", v, -2)
    return q, k, v, check_batch_broadcast(q=q, k=k, v=v)


def check_positive_int(name: str, value) -> int:
    """Return ``value`` as a Python int, or raise unless it is an integer >= 1.

    Floats (even ``3.0``) and booleans are refused.

    Example
    -------
    >>> check_positive_int("n", 0)
    Traceback (most recent call last):
    ...
    ValueError: n must be a positive integer, got 0 (int)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a positive integer, got {_kind(value)}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {_kind(int(value))}")
    return int(value)


def check_divisible(d_model: int, n_heads: int) -> int:
    """Return ``d_head = d_model // n_heads``, or raise if it does not divide.

    Example
    -------
    >>> check_divisible(10, 3)
    Traceback (most recent call last):
    ...
    ValueError: d_model=10 is not divisible by n_heads=3
    """
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    return d_model // n_heads


def check_scale(scale) -> float:
    """Return ``scale`` as a float, or raise unless it is a finite number > 0.

    The scores are multiplied by ``scale``: 0 would give every key the same weight and a
    negative scale would turn the ranking upside down, so neither is a scale.

    Example
    -------
    >>> check_scale(float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: scale must be a positive finite number (or None for 1/sqrt(d_k)), got inf (float)
    >>> check_scale(0)
    Traceback (most recent call last):
    ...
    ValueError: scale must be a positive finite number (or None for 1/sqrt(d_k)), got 0 (int)
    """
    if (isinstance(scale, (bool, np.bool_)) or not isinstance(scale, numbers.Real)
            or not math.isfinite(scale) or scale <= 0):
        raise ValueError(
            f"scale must be a positive finite number (or None for 1/sqrt(d_k)), got {_kind(scale)}"
        )
    return float(scale)


def check_axis(axis, ndim: int, shape: tuple, name: str = "x") -> int:
    """Return ``axis`` as a non-negative int, or raise if out of range.

    Example
    -------
    >>> check_axis(2, 2, (3, 4))
    Traceback (most recent call last):
    ...
    ValueError: axis=2 is out of range for x of shape (3, 4): expected an integer in [-2, 1]
    """
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral) \
            or not -ndim <= axis < ndim:
        raise ValueError(
            f"axis={axis!r} is out of range for {name} of shape {shape}: "
            f"expected an integer in [{-ndim}, {ndim - 1}]"
        )
    return int(axis) % ndim


def as_token_ids(name: str, ids, vocab_size: int, *, ndim: int = 1,
                 not_scored: bool = False) -> np.ndarray:
    """Return ``ids`` as an int64 array of token ids in [0, vocab_size), or raise.

    ``ndim`` 1 means one sequence (n,), 2 a batch (batch, n); every size must be at least 1.
    With ``not_scored=True`` the id -1 is allowed too (a target that is not scored).

    Example
    -------
    >>> as_token_ids("prompt", [], 8)
    Traceback (most recent call last):
    ...
    ValueError: prompt must have shape (n,) with n >= 1, got shape (0,)
    >>> as_token_ids("tokens", [[0, 9]], 8, ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: tokens must be token ids in [0, 7] (vocab_size = 8), got 9 at index (0, 1)
    """
    sizes = {1: ("n",), 2: ("batch", "n")}[ndim]
    layout = f"({sizes[0]},)" if ndim == 1 else f"({', '.join(sizes)})"
    try:
        raw = np.asarray(ids)
    except (ValueError, TypeError):
        raise ValueError(f"{name} must be a rectangular array of token ids {layout}, got a ragged "
                         f"or malformed {type(ids).__name__}") from None
    if raw.ndim != ndim or 0 in raw.shape:
        at_least = " and ".join(f"{size} >= 1" for size in sizes)
        raise ValueError(f"{name} must have shape {layout} with {at_least}, got shape {raw.shape}")
    if raw.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer token ids, got dtype {raw.dtype}")
    low = -1 if not_scored else 0
    bad = (raw < low) | (raw >= vocab_size)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        also = " or -1 for not scored" if not_scored else ""
        raise ValueError(f"{name} must be token ids in [0, {vocab_size - 1}]{also} (vocab_size = "
                         f"{vocab_size}), got {int(raw[where])} at index {where}")
    return raw.astype(np.int64)


def check_lang(lang) -> str:
    """Return ``lang`` if it is one of the book's languages, 'zh' or 'en', or raise.

    Example
    -------
    >>> check_lang("fr")
    Traceback (most recent call last):
    ...
    ValueError: lang must be 'zh' or 'en', got 'fr'
    """
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    return lang


def check_positive(name: str, value, *, why: str = "") -> float:
    """Return ``value`` as a float, or raise unless it is a finite real number > 0.

    ``why`` is added to the message, e.g. ``" (the learning rate)"``.

    Example
    -------
    >>> check_positive("lr", 0, why=" (the learning rate)")
    Traceback (most recent call last):
    ...
    ValueError: lr (the learning rate) must be a positive finite number, got 0 (int)
    """
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
            or not math.isfinite(value) or value <= 0):
        raise ValueError(f"{name}{why} must be a positive finite number, got {_kind(value)}")
    return float(value)


def check_seed(seed) -> int:
    """Return ``seed`` as a Python int, or raise unless it is an integer >= 0 (a random seed).

    Example
    -------
    >>> check_seed(1.5)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer, got 1.5 (float)
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {_kind(seed)}")
    return int(seed)
