"""Rotary position embedding (RoPE): turn each query and key by an angle set by its position.

Cut a vector of width d into d/2 pairs of numbers. Pair i is a point in a plane; at position p
it is turned by the angle ``p * w_i``, with one frequency per pair

    w_i = base ** (-2i / d)          i = 0, 1, ..., d/2 - 1     (base 10000; Llama 3: 500000)

Only queries and keys are turned, never values. A query turned by ``i * w`` and a key turned by
``j * w`` meet at the angle ``(i - j) * w``, so their dot product (the score) depends on the
offset ``i - j`` and not on where the two tokens stand (:func:`rope_score_table`).

Which numbers form a pair is a convention, and the two in use are not interchangeable:

- **half** (the book's, and transformers' Llama, Mistral, Qwen3, Gemma, gpt-oss):
  column i is paired with column ``i + d/2``; ``rope(x) = x * cos + rotate_half(x) * sin``,
  with cos/sin laid out as ``[angles, angles]``.
- **interleaved** (the RoFormer paper, Meta's original Llama code, DeepSeek's weights, and
  :func:`attnkit.position.rope` of chapter 4): column 2i is paired with column 2i + 1.

Both give a score that depends only on ``i - j``; they differ by a fixed permutation of the
columns, so weights trained for one are wrong for the other (tests/test_rope.py checks both).

Long contexts stretch the angles with a "scaling" (as transformers' ``rope_parameters``):

- ``{"rope_type": "linear", "factor": s}``: position interpolation, every ``w_i`` divided by s;
- ``{"rope_type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4,
  "original_max_position_embeddings": 8192}`` (Llama 3.1): pairs that turn fast (wavelength
  under 8192/4 tokens) are kept, pairs that turn slowly (wavelength over 8192/1) are divided by
  the factor, and the ones between are blended smoothly.

    >>> q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.7, 2.0, 1.0])
    >>> s = rope_score_table(q, k, 6)               # s[i, j]: q at position i, k at position j
    >>> bool(np.isclose(s[3, 1], s[5, 3]))           # the same offset 2, the same score
    True
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._checks import as_float_array, check_positive_int

__all__ = [
    "ROPE_BASE",
    "LLAMA3_SCALING",
    "rope_frequencies",
    "rope_wavelengths",
    "llama3_pair_groups",
    "rope_cos_sin",
    "rotate_half",
    "apply_rope",
    "rope",
    "rope_score_table",
    "offset_spread",
    "EXAMPLE_Q",
    "EXAMPLE_K",
    "rope_pairs",
    "pair_scores",
]

# Chapter 10.3's example (typed inputs): one query and one key of width 8, four pairs.
EXAMPLE_Q = (1.0, 0.6, -0.4, 0.9, 0.3, 0.8, 0.5, -0.2)
EXAMPLE_K = (0.9, -0.3, 0.7, 0.4, 0.5, 0.6, -0.6, 0.3)

# The base of the frequencies in the RoPE paper (Su et al. 2021) and most models since; Llama 3
# uses 500000 (config.json "rope_theta" of meta-llama/Meta-Llama-3-8B).
ROPE_BASE = 10000.0

# Llama 3.1's rope_scaling (config.json of meta-llama/Llama-3.1-8B: factor 8, low_freq_factor 1,
# high_freq_factor 4, original_max_position_embeddings 8192; rope_theta 500000).
LLAMA3_SCALING = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}

PAIRINGS = ("half", "interleaved")


def _check_even(name, d):
    d = check_positive_int(name, d)
    if d % 2:
        raise ValueError(
            f"{name} must be even (RoPE turns the numbers in pairs), got {d}"
        )
    return d


def _check_positive_real(name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
            or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _scaled(w, scaling):
    """The frequencies w (d/2,) after a long-context scaling (see the module docstring)."""
    if not isinstance(scaling, dict) or "rope_type" not in scaling:
        raise ValueError(
            f"scaling must be None or a dict with a 'rope_type' ('linear' or 'llama3'), "
            f"got {scaling!r}"
        )
    kind = scaling["rope_type"]
    if kind == "linear":
        factor = _check_positive_real("scaling['factor']", scaling.get("factor"))
        return w / factor                                   # positions squeezed by the factor
    if kind == "llama3":
        need = ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings")
        missing = [key for key in need if key not in scaling]
        if missing:
            raise ValueError(f"a 'llama3' scaling needs the keys {list(need)}, missing {missing}")
        factor, low, high, context = (_check_positive_real(f"scaling[{key!r}]", scaling[key])
                                      for key in need)
        if not high > low:
            raise ValueError(
                f"scaling['high_freq_factor'] must be larger than scaling['low_freq_factor'], "
                f"got {high} and {low}"
            )
        wavelength = 2 * math.pi / w                        # (d/2,) tokens per full turn
        smooth = (context / wavelength - low) / (high - low)        # 0 at the slow end, 1 at the fast end
        blended = (1 - smooth) * w / factor + smooth * w
        return np.where(wavelength < context / high, w,             # fast pairs: kept
                        np.where(wavelength > context / low, w / factor,   # slow pairs: stretched
                                 blended))                   # (d/2,)
    raise ValueError(f"scaling['rope_type'] must be 'linear' or 'llama3', got {kind!r}")


def rope_frequencies(d, base=ROPE_BASE, scaling=None):
    """The angular frequency of each pair: ``w_i = base ** (-2i / d)``, then scaled if asked.

    Parameters
    ----------
    d : int
        The rotated width (even): a head's width, or the part of it that is rotated.
    base : float
        10000 in most models, 500000 in Llama 3 (``rope_theta`` in a config.json).
    scaling : dict, optional
        A long-context scaling: ``{"rope_type": "linear", "factor": s}`` or a ``"llama3"``
        dict such as :data:`LLAMA3_SCALING`.

    Returns
    -------
    w : ndarray, shape (d/2,)
        Radians per position; ``w[0] = 1`` (unscaled), then smaller and smaller.

    Example
    -------
    >>> print(rope_frequencies(8).round(4))
    [1.    0.1   0.01  0.001]
    >>> print(rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4}).round(5))
    [0.25    0.025   0.0025  0.00025]
    """
    d = _check_even("d", d)
    base = _check_positive_real("base", base)
    w = base ** (-np.arange(0, d, 2) / d)                   # (d/2,)
    return w if scaling is None else _scaled(w, scaling)


def rope_wavelengths(d, base=ROPE_BASE, scaling=None):
    """How many positions each pair needs for one full turn: ``2 pi / w_i``, shape (d/2,).

    >>> print(rope_wavelengths(8).round(1))
    [   6.3   62.8  628.3 6283.2]
    """
    return 2 * math.pi / rope_frequencies(d, base, scaling)


def llama3_pair_groups(d, base=ROPE_BASE, scaling=None):
    """How a "llama3" scaling treats the d/2 pairs: ``(kept, blended, stretched)`` counts.

    Kept: wavelength under ``original_max_position_embeddings / high_freq_factor`` tokens, the
    frequency unchanged. Stretched: wavelength over ``original / low_freq_factor``, divided by
    ``factor``. Blended: in between.

    >>> llama3_pair_groups(128, 500000.0, LLAMA3_SCALING)    # Llama 3.1's head of 128
    (29, 6, 29)
    """
    scaling = LLAMA3_SCALING if scaling is None else scaling
    if not isinstance(scaling, dict) or scaling.get("rope_type") != "llama3":
        raise ValueError(f"scaling must be a 'llama3' scaling dict such as LLAMA3_SCALING, got {scaling!r}")
    _scaled(np.ones(1), scaling)                            # validates the dict
    wavelength = rope_wavelengths(d, base)                  # (d/2,) before scaling
    context = float(scaling["original_max_position_embeddings"])
    kept = int((wavelength < context / scaling["high_freq_factor"]).sum())
    stretched = int((wavelength > context / scaling["low_freq_factor"]).sum())
    return kept, len(wavelength) - kept - stretched, stretched


def _positions(positions, n=None):
    if positions is None:
        return np.arange(n, dtype=float)
    p = as_float_array("positions", positions, min_ndim=1, layout="(n,)")
    if p.ndim != 1:
        raise ValueError(f"positions must be one position per token, shape (n,), got shape {p.shape}")
    return p


def rope_cos_sin(positions, d, base=ROPE_BASE, scaling=None):
    """The cosines and sines that turn a vector at each position, in the "half" layout.

    Column c of each row holds the angle of pair ``c mod d/2``: ``[angles, angles]``, as
    transformers' ``LlamaRotaryEmbedding`` returns them (it computes the angles in float32;
    these are float64).

    Parameters
    ----------
    positions : array_like, shape (n,)
        Token positions, usually 0, 1, ..., n-1 (an int n means exactly that).
    d : int
        The rotated width (even).
    base, scaling : see :func:`rope_frequencies`.

    Returns
    -------
    cos, sin : ndarray, shape (n, d)

    Example
    -------
    >>> cos, sin = rope_cos_sin(3, 4)
    >>> print(sin.round(3))
    [[0.    0.    0.    0.   ]
     [0.841 0.01  0.841 0.01 ]
     [0.909 0.02  0.909 0.02 ]]
    """
    if isinstance(positions, numbers.Integral) and not isinstance(positions, (bool, np.bool_)):
        positions = _positions(None, check_positive_int("positions", positions))
    else:
        positions = _positions(positions)
    w = rope_frequencies(d, base, scaling)                  # (d/2,)
    angle = positions[:, None] * w[None, :]                 # (n, 1) * (1, d/2) -> (n, d/2)
    angle = np.concatenate([angle, angle], axis=-1)         # (n, d): pair i sits at i and i + d/2
    return np.cos(angle), np.sin(angle)


def rotate_half(x):
    """Swap the two halves of the last axis and negate the new first half: ``[-x2, x1]``.

    With pairs (x1[i], x2[i]), ``x * cos + rotate_half(x) * sin`` turns each pair by its angle:
    (a, b) -> (a cos - b sin, b cos + a sin).

    Parameters
    ----------
    x : array_like, shape (..., d), d even

    Returns
    -------
    ndarray, shape (..., d)

    Example
    -------
    >>> print(rotate_half([1.0, 2.0, 3.0, 4.0]))
    [-3. -4.  1.  2.]
    """
    x = as_float_array("x", x, min_ndim=1, layout="(..., d)")
    half = _check_even("the last dimension of x", x.shape[-1]) // 2
    x1, x2 = x[..., :half], x[..., half:]                   # (..., d/2) each
    return np.concatenate([-x2, x1], axis=-1)               # (..., d)


def apply_rope(x, cos, sin, pairing="half"):
    """Turn every pair of ``x`` by the angles in ``cos`` and ``sin`` (from :func:`rope_cos_sin`).

    Parameters
    ----------
    x : array_like, shape (..., n, d)
        Queries or keys, one row per position (any leading axes, such as heads).
    cos, sin : array_like, shape (n, d)
        In the "half" layout ``[angles, angles]`` that :func:`rope_cos_sin` returns.
    pairing : "half" or "interleaved"
        "half" (default): column i turns with column i + d/2, as transformers' Llama.
        "interleaved": column 2i turns with column 2i + 1, as the RoFormer paper, DeepSeek's
        weights and :func:`attnkit.position.rope` (same angles, other partners).

    Returns
    -------
    ndarray, shape (..., n, d)

    Example
    -------
    >>> cos, sin = rope_cos_sin([1], 2)                       # one pair, turned by 1 radian
    >>> print(apply_rope([[1.0, 0.0]], cos, sin).round(4))
    [[0.5403 0.8415]]
    """
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d)")
    cos = as_float_array("cos", cos, min_ndim=2, layout="(n, d)")
    sin = as_float_array("sin", sin, min_ndim=2, layout="(n, d)")
    d = _check_even("the last dimension of x", x.shape[-1])
    if cos.shape != sin.shape or cos.shape != x.shape[-2:]:
        raise ValueError(
            f"cos and sin must both have shape (n, d) = {x.shape[-2:]} to match x of shape "
            f"{x.shape}, got cos {cos.shape} and sin {sin.shape}"
        )
    if pairing == "half":
        return x * cos + rotate_half(x) * sin               # (..., n, d)
    if pairing == "interleaved":
        c, s = cos[:, : d // 2], sin[:, : d // 2]           # (n, d/2): one angle per pair
        a, b = x[..., 0::2], x[..., 1::2]                   # (..., n, d/2) each: pair i = (2i, 2i+1)
        out = np.empty_like(x)
        out[..., 0::2] = a * c - b * s
        out[..., 1::2] = b * c + a * s
        return out
    raise ValueError(f"pairing must be one of {PAIRINGS}, got {pairing!r}")


def rope(x, positions=None, base=ROPE_BASE, scaling=None, pairing="half"):
    """Rotary position embedding of ``x`` (n, d): each row turned by its position.

    Parameters
    ----------
    x : array_like, shape (..., n, d), d even
    positions : array_like, shape (n,), optional
        Default 0, 1, ..., n-1.
    base, scaling : see :func:`rope_frequencies`.
    pairing : see :func:`apply_rope`.

    Returns
    -------
    ndarray, shape (..., n, d)

    Example
    -------
    >>> x = np.ones((2, 4))
    >>> print(rope(x).round(3))                 # position 0 is not turned
    [[ 1.     1.     1.     1.   ]
     [-0.301  0.99   1.382  1.01 ]]
    """
    x = as_float_array("x", x, min_ndim=2, layout="(..., n, d)")
    n, d = x.shape[-2:]
    _check_even("the last dimension of x", d)
    p = _positions(positions, n)
    if p.shape != (n,):
        raise ValueError(
            f"positions must give one position per row of x: x has n={n} rows, "
            f"positions has shape {p.shape}"
        )
    cos, sin = rope_cos_sin(p, d, base, scaling)            # (n, d) each
    return apply_rope(x, cos, sin, pairing)


def rope_score_table(q, k, n, base=ROPE_BASE, pairing="half"):
    """Every score between one query vector and one key vector placed at positions 0..n-1.

    ``table[i, j] = rope(q at i) . rope(k at j)``. Because only the offset survives the two
    turns, the table is constant along each diagonal (same ``i - j``): see
    :func:`offset_spread`.

    Parameters
    ----------
    q, k : array_like, shape (d,)
    n : int
        Number of positions.

    Returns
    -------
    table : ndarray, shape (n, n)

    Example
    -------
    >>> t = rope_score_table([1.0, 0.0], [1.0, 0.0], 3)
    >>> print(t.round(3))                        # cos((i - j) * 1 rad)
    [[ 1.     0.54  -0.416]
     [ 0.54   1.     0.54 ]
     [-0.416  0.54   1.   ]]
    """
    q = as_float_array("q", q, min_ndim=1, layout="(d,)")
    k = as_float_array("k", k, min_ndim=1, layout="(d,)")
    if q.ndim != 1 or q.shape != k.shape:
        raise ValueError(
            f"q and k must be two vectors of the same width d, shape (d,), "
            f"got q {q.shape} and k {k.shape}"
        )
    n = check_positive_int("n", n)
    rq = rope(np.broadcast_to(q, (n, q.shape[0])), base=base, pairing=pairing)   # (n, d): q at 0..n-1
    rk = rope(np.broadcast_to(k, (n, k.shape[0])), base=base, pairing=pairing)   # (n, d)
    return rq @ rk.T                                        # (n, d) @ (d, n) -> (n, n)


def offset_spread(table):
    """The largest difference between two scores with the same offset i - j in a (n, n) table.

    Zero (up to rounding) for RoPE's scores: they depend on the offset only.

    >>> offset_spread(rope_score_table([1.0, 2.0, 0.5, -1.0], [0.3, -0.7, 2.0, 1.0], 50)) < 1e-12
    True
    >>> offset_spread([[1.0, 2.0], [3.0, 4.0]])            # 1 and 4 share the offset 0
    3.0
    """
    table = as_float_array("table", table, min_ndim=2, layout="(n, n)")
    if table.ndim != 2 or table.shape[0] != table.shape[1]:
        raise ValueError(f"table must be square, shape (n, n), got shape {table.shape}")
    return float(np.abs(table[1:, 1:] - table[:-1, :-1]).max(initial=0.0))


def rope_pairs(x, position, base=ROPE_BASE):
    """The pairs of one vector ``x`` (d,) after RoPE at ``position``, as points in their planes.

    In the "half" layout pair i is (x[i], x[i + d/2]); each is turned by ``position * w_i``.

    Returns
    -------
    pairs : ndarray, shape (d/2, 2)

    Example
    -------
    >>> print(rope_pairs([1.0, 1.0, 0.0, 0.0], 1).round(3))   # pair 0 by 1 rad, pair 1 by 0.01
    [[0.54  0.841]
     [1.    0.01 ]]
    """
    x = as_float_array("x", x, min_ndim=1, layout="(d,)")
    if x.ndim != 1:
        raise ValueError(f"x must be one vector, shape (d,), got shape {x.shape}")
    half = _check_even("the width of x", x.shape[0]) // 2
    turned = rope(x[None], positions=[position], base=base)[0]      # (d,)
    return np.stack([turned[:half], turned[half:]], axis=-1)       # (d/2, 2)


def pair_scores(q, k, i, j, base=ROPE_BASE):
    """Each pair's share of the score of q at position i and k at position j, shape (d/2,).

    Their sum is ``rope(q at i) . rope(k at j)``; pair p's share is its two turned points'
    dot product, ``|q_p| |k_p| cos(angle between them)``, and that angle is the pairs' own
    angle plus ``(i - j) * w_p``.

    >>> s = pair_scores(EXAMPLE_Q, EXAMPLE_K, 5, 2)
    >>> bool(np.isclose(s.sum(), rope_score_table(EXAMPLE_Q, EXAMPLE_K, 6)[5, 2]))
    True
    """
    return (rope_pairs(q, i, base) * rope_pairs(k, j, base)).sum(axis=-1)   # (d/2, 2) -> (d/2,)
