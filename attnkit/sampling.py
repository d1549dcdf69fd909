"""Choosing the next token: temperature, top-k and top-p (nucleus) sampling.

A language model gives, for the next token, a score per token of the vocabulary (the logits,
shape (V,)). Decoding turns them into one token:

    p = softmax(logits / T)                  temperature T > 0: T < 1 sharpens, T > 1 flattens
    keep the k most likely tokens            top-k (k = 1 is greedy: always the most likely)
    keep the fewest most likely tokens       top-p (nucleus, Holtzman et al. 2020): their
        whose probabilities add up to >= p   probabilities, summed, reach p
    renormalise what is kept, draw one token

The draw uses a small random generator, mulberry32 (:class:`Mulberry32`), that JavaScript
computes bit for bit the same, so the sampling widget of chapter 12 and this module write
the same text from the same seed.

    >>> p = next_distribution(np.log([0.5, 0.3, 0.15, 0.05]), temperature=1.0, top_p=0.8)
    >>> p.round(3).tolist()                  # 0.5 + 0.3 reach 0.8: the other two are dropped
    [0.625, 0.375, 0.0, 0.0]
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._checks import as_float_array, check_positive_int, check_seed
from .core import softmax_unchecked
from .tinygpt import config_of, forward

__all__ = [
    "with_temperature",
    "top_k_filter",
    "top_p_filter",
    "next_distribution",
    "Mulberry32",
    "draw",
    "generate",
]


def _check_temperature(temperature):
    if isinstance(temperature, (bool, np.bool_)) or not isinstance(temperature, numbers.Real) \
            or not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a finite number > 0 (1 leaves the model's "
                         f"probabilities as they are), got {temperature!r}")
    return float(temperature)


def _check_top_k(top_k, vocab_size):
    if top_k is None:
        return vocab_size
    if isinstance(top_k, (bool, np.bool_)) or not isinstance(top_k, numbers.Integral) or top_k < 1:
        raise ValueError(f"top_k must be an integer >= 1 (1 keeps only the most likely token) "
                         f"or None (keep all), got {top_k!r}")
    return min(int(top_k), vocab_size)


def _check_top_p(top_p):
    if isinstance(top_p, (bool, np.bool_)) or not isinstance(top_p, numbers.Real) \
            or not 0 < top_p <= 1:
        raise ValueError(f"top_p must be a number in (0, 1] (1 keeps every token), got {top_p!r}")
    return float(top_p)


def _check_probs(p):
    p = as_float_array("p", p, min_ndim=1, layout="(V,)")
    if p.ndim != 1 or (p < 0).any() or not math.isclose(p.sum(), 1.0, abs_tol=1e-9):
        raise ValueError(f"p must be a probability distribution of shape (V,): non-negative, "
                         f"summing to 1; got shape {p.shape} summing to {p.sum():.6g}")
    return p


def with_temperature(logits, temperature):
    """softmax(logits / T): (V,) probabilities.

    >>> with_temperature([2.0, 1.0, 0.0], 1.0).round(3).tolist()
    [0.665, 0.245, 0.09]
    >>> with_temperature([2.0, 1.0, 0.0], 0.5).round(3).tolist()     # sharper
    [0.867, 0.117, 0.016]
    """
    logits = as_float_array("logits", logits, min_ndim=1, layout="(V,)")
    if logits.ndim != 1:
        raise ValueError(f"logits must have shape (V,), got shape {logits.shape}")
    t = _check_temperature(temperature)
    scaled = (logits - logits.max()) / t             # (V,), the largest is 0: exp cannot overflow
    return softmax_unchecked(scaled, -1, None)


def _order(p):
    """Token ids from most to least likely; equal probabilities: the smaller id first."""
    return np.argsort(-p, kind="stable")


def top_k_filter(p, top_k):
    """Keep the ``top_k`` most likely tokens of ``p`` (V,), renormalised; the rest get 0.

    >>> top_k_filter([0.5, 0.2, 0.3], 2).round(3).tolist()
    [0.625, 0.0, 0.375]
    """
    p = _check_probs(p)
    k = _check_top_k(top_k, len(p))
    kept = np.zeros_like(p)
    best = _order(p)[:k]
    kept[best] = p[best]
    return kept / kept.sum()


def top_p_filter(p, top_p):
    """Keep the fewest most likely tokens whose probabilities add up to at least ``top_p``, renormalised.

    >>> top_p_filter([0.1, 0.6, 0.3], 0.7).round(3).tolist()      # 0.6 < 0.7, 0.6 + 0.3 >= 0.7
    [0.0, 0.667, 0.333]
    >>> top_p_filter([0.1, 0.6, 0.3], 1.5)
    Traceback (most recent call last):
    ...
    ValueError: top_p must be a number in (0, 1] (1 keeps every token), got 1.5
    """
    p = _check_probs(p)
    top_p = _check_top_p(top_p)
    order = _order(p)
    total = np.cumsum(p[order])                       # (V,) probability of the i most likely
    n_kept = int(np.searchsorted(total, top_p * total[-1] - 1e-12)) + 1
    kept = np.zeros_like(p)
    best = order[:min(n_kept, len(p))]
    kept[best] = p[best]
    return kept / kept.sum()


def next_distribution(logits, temperature=1.0, top_k=None, top_p=1.0):
    """The distribution a token is drawn from: temperature, then top-k, then top-p. (V,)

    >>> next_distribution([3.0, 1.0, 2.0], top_k=1).tolist()         # greedy
    [1.0, 0.0, 0.0]
    """
    p = with_temperature(logits, temperature)
    top_k = _check_top_k(top_k, len(p))
    top_p = _check_top_p(top_p)
    if top_k < len(p):
        p = top_k_filter(p, top_k)
    if top_p < 1:
        p = top_p_filter(p, top_p)
    return p


class Mulberry32:
    """A tiny random generator (mulberry32, 32-bit state) that JavaScript reproduces exactly.

    >>> rng = Mulberry32(1)
    >>> [round(rng.random(), 6) for _ in range(3)]
    [0.627074, 0.002736, 0.527447]
    """

    MASK = 0xFFFFFFFF

    def __init__(self, seed=0):
        self.state = check_seed(seed) & self.MASK

    def random(self):
        """The next number, uniform in [0, 1)."""
        m = self.MASK
        self.state = (self.state + 0x6D2B79F5) & m
        a = self.state
        t = ((a ^ (a >> 15)) * (1 | a)) & m
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & m)) & m) ^ t
        return ((t ^ (t >> 14)) & m) / 4294967296


def draw(p, u):
    """The token that the uniform number ``u`` in [0, 1) picks from ``p`` (V,): the first id
    whose cumulative probability exceeds u (ids in vocabulary order).

    >>> draw([0.2, 0.5, 0.3], 0.1), draw([0.2, 0.5, 0.3], 0.65), draw([0.2, 0.5, 0.3], 0.95)
    (0, 1, 2)
    """
    p = np.asarray(p, dtype=float)
    total = np.cumsum(p)                              # (V,)
    i = int(np.searchsorted(total, u * total[-1], side="right"))
    return min(i, len(p) - 1)


def generate(params, prompt, n_new, temperature=1.0, top_k=None, top_p=1.0, seed=0):
    """Continue ``prompt`` (a list of ids) by ``n_new`` sampled tokens. Returns the new ids.

    Each step: the model's logits for the next token (only the last n_ctx tokens are seen),
    :func:`next_distribution`, then :func:`draw` with the next number of ``Mulberry32(seed)``.
    ``top_k=1`` is greedy decoding.

    >>> from attnkit.tinygpt import init
    >>> params = init(vocab_size=5, d_model=8, n_heads=2, n_layers=1, n_ctx=6, seed=0)
    >>> len(generate(params, [0, 1], 4, seed=3))
    4
    >>> generate(params, [0, 1], 4, temperature=0)
    Traceback (most recent call last):
    ...
    ValueError: temperature must be a finite number > 0 (1 leaves the model's probabilities as they are), got 0
    """
    cfg = config_of(params)
    _check_temperature(temperature)
    _check_top_k(top_k, cfg["vocab_size"])
    _check_top_p(top_p)
    n_new = check_positive_int("n_new", n_new)
    seq = [int(t) for t in prompt]
    if not seq:
        raise ValueError("prompt must hold at least one token id, got none")
    rng = Mulberry32(seed)
    new = []
    for _ in range(n_new):
        logits, _ = forward(params, [seq[-cfg["n_ctx"]:]])      # (1, n, V)
        p = next_distribution(logits[0, -1], temperature, top_k, top_p)
        token = draw(p, rng.random())
        seq.append(token)
        new.append(token)
    return new
