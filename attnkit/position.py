"""Order and position: what self-attention cannot see, and how a positional encoding fixes it.

- :func:`order_demo` runs the same self-attention on 猫追狗 and 狗追猫 (cat chases dog / dog
  chases cat): without positions the outputs are the same rows in another order.
- :func:`shift_matrix` is the fixed linear map that moves a sinusoidal encoding ``k`` places:
  ``PE[p + k] = PE[p] @ shift_matrix(k, d_model)`` for every p; one 2x2 rotation per frequency.
- :func:`rope` is the rotary encoding: rotate q and k by their positions, and the score q . k
  depends only on the offset between them.
- :func:`order_heads` is section 4.3's two-head toy: "the animal before me" and "the animal
  after me", each needing both what a word is and where it is.

    >>> d = order_demo()
    >>> d.same_rows, d.same_rows_with_position
    (True, False)
    >>> float(shift_error(3, 16, 50)) < 1e-12
    True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, check_positive_int, check_seed
from .core import scaled_dot_product_attention, sinusoidal_positional_encoding
from .toy import FEATURES, embed

__all__ = [
    "ORDER_SENTENCES",
    "OrderDemo",
    "order_demo",
    "frequencies",
    "shift_matrix",
    "shift_error",
    "pe_similarity",
    "rope",
    "rope_scores",
    "counting_encoding",
    "OrderHeads",
    "order_heads",
    "ORDER_HEAD_NAMES",
]

# The same three words in two orders; each language's own sentence.
ORDER_SENTENCES = {
    "zh": (["猫", "追", "狗"], ["狗", "追", "猫"]),
    "en": (["cat", "chased", "dog"], ["dog", "chased", "cat"]),
}


@dataclass
class OrderDemo:
    """Self-attention outputs for sentence a and its reordering b (rows = tokens)."""

    out_a: np.ndarray
    out_b: np.ndarray
    perm: np.ndarray                 # b[i] is a[perm[i]]
    same_rows: bool                  # out_b == out_a[perm], no positions
    same_rows_with_position: bool    # the same test after adding a positional encoding
    gap_with_position: float         # largest |out_b - out_a[perm]| with positions


def order_demo(d_model=8, seed=0):
    """Self-attention (random W_Q, W_K, W_V) on "cat chased dog" and "dog chased cat".

    The word vectors are random (seeded), one per word, the same in both sentences.
    """
    rng = np.random.default_rng(check_seed(seed))
    words = {w: rng.normal(size=d_model) for w in ("cat", "chased", "dog")}   # (d_model,) each
    w_q, w_k, w_v = rng.normal(0, 1 / np.sqrt(d_model), size=(3, d_model, d_model))
    a = np.stack([words[w] for w in ("cat", "chased", "dog")])               # (3, d_model)
    perm = np.array([2, 1, 0])
    b = a[perm]                                                               # (3, d_model) dog chased cat

    def self_attention(x):
        out, _ = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v)    # (3, d_model)
        return out

    out_a, out_b = self_attention(a), self_attention(b)
    pe = sinusoidal_positional_encoding(3, d_model)                          # (3, d_model)
    pos_a, pos_b = self_attention(a + pe), self_attention(b + pe)
    gap = float(np.abs(pos_b - pos_a[perm]).max())
    return OrderDemo(out_a=out_a, out_b=out_b, perm=perm,
                     same_rows=bool(np.allclose(out_b, out_a[perm])),
                     same_rows_with_position=bool(np.allclose(pos_b, pos_a[perm])),
                     gap_with_position=gap)


def frequencies(d_model):
    """The angular frequency of each sin/cos column pair: ``10000 ** (-2i / d_model)``.

    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])
    """
    d_model = check_positive_int("d_model", d_model)
    i = np.arange(d_model // 2)
    return 10000.0 ** (-2 * i / d_model)


def shift_matrix(k, d_model):
    """The (d_model, d_model) matrix M_k with ``PE[p + k] = PE[p] @ M_k`` for every position p.

    Block-diagonal: for each column pair (sin, cos) at frequency w, the 2x2 block
    ``[[cos wk, -sin wk], [sin wk, cos wk]]`` turns (sin wp, cos wp) into
    (sin w(p+k), cos w(p+k)). It depends on k, never on p. ``d_model`` must be even.

    >>> shift_matrix(1, 2).round(3)
    array([[ 0.54 , -0.841],
           [ 0.841,  0.54 ]])
    """
    d_model = check_positive_int("d_model", d_model)
    if d_model % 2:
        raise ValueError(f"d_model must be even (sin/cos pairs), got {d_model}")
    m = np.zeros((d_model, d_model))
    for i, w in enumerate(frequencies(d_model)):
        c, s = np.cos(w * k), np.sin(w * k)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, -s], [s, c]]   # (2, 2) rotation by angle w k
    return m


def shift_error(k, d_model, n_positions):
    """Largest ``|PE[p + k] - PE[p] @ M_k|`` over all positions p that fit.

    >>> float(shift_error(5, 8, 20)) < 1e-12
    True
    """
    n_positions = check_positive_int("n_positions", n_positions)
    pe = sinusoidal_positional_encoding(n_positions + abs(k), d_model)       # (n + |k|, d_model)
    p = np.arange(max(0, -k), n_positions + abs(k) - max(0, k))              # positions with p + k in range
    moved = pe[p] @ shift_matrix(k, d_model)                                 # (len(p), d_model)
    return np.abs(pe[p + k] - moved).max()


def pe_similarity(n_positions, d_model):
    """``PE @ PE.T``: the dot product of every pair of positions, shape (n, n).

    It equals the sum of cos(w (p - q)) over the frequencies, so it depends only on p - q.

    >>> s = pe_similarity(10, 16)
    >>> bool(np.isclose(s[2, 5], s[6, 9]))
    True
    """
    pe = sinusoidal_positional_encoding(n_positions, d_model)    # (n, d_model)
    return pe @ pe.T                                              # (n, d_model) @ (d_model, n) -> (n, n)


def counting_encoding(n_positions):
    """The naive encoding "1, 2, 3, ...": position p is the number p + 1, shape (n, 1).

    >>> counting_encoding(3).ravel()
    array([1., 2., 3.])
    """
    return np.arange(1, check_positive_int("n_positions", n_positions) + 1, dtype=float)[:, None]


def rope(x, positions=None, base=10000.0):
    """Rotary position embedding: turn each column pair of x by ``position * w_i``.

    x (n, d) with d even; positions (n,) default 0, 1, ..., n-1. Returns (n, d).
    Applied to q and k (not to v): then ``rope(q)[i] . rope(k)[j]`` depends on i - j only.

    >>> q = np.ones((1, 2))
    >>> rope(q, [0]).round(3), rope(q, [1]).round(3)
    (array([[1., 1.]]), array([[-0.301,  1.382]]))
    """
    x = as_float_array("x", x, min_ndim=2, layout="(n, d)")
    n, d = x.shape
    if d % 2:
        raise ValueError(f"the last dimension of x must be even (pairs of columns), got {d}")
    pos = np.arange(n, dtype=float) if positions is None else np.asarray(positions, dtype=float)
    w = base ** (-2 * np.arange(d // 2) / d)                      # (d/2,) one frequency per pair
    angle = pos[:, None] * w[None, :]                             # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    even, odd = x[:, 0::2], x[:, 1::2]                            # (n, d/2) each
    out = np.empty_like(x)
    out[:, 0::2] = even * c - odd * s                             # rotate each (even, odd) pair
    out[:, 1::2] = even * s + odd * c
    return out


def rope_scores(q, k, i, j, base=10000.0):
    """The score between query vector q placed at position i and key vector k at position j.

    >>> q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.7, 2.0, 1.0])
    >>> bool(np.isclose(rope_scores(q, k, 3, 1), rope_scores(q, k, 10, 8)))
    True
    """
    rq = rope(np.asarray(q, dtype=float)[None, :], [i], base)     # (1, d)
    rk = rope(np.asarray(k, dtype=float)[None, :], [j], base)     # (1, d)
    return float(rq[0] @ rk[0])


# --------------------------------------------------------------------------
# section 4.3: two heads that need both what a word is and where it is
# --------------------------------------------------------------------------

ORDER_HEAD_NAMES = {
    "zh": ["头 1：我前面的动物", "头 2：我后面的动物"],
    "en": ["head 1: the animal before me", "head 2: the animal after me"],
}
OFFSETS = (-1, +1)      # head 1 looks one place back, head 2 one place ahead
D_PE = 16               # width of the positional part
CONTENT = 4.0           # how much a head prefers animals
PLACE = 3.0             # how much a head prefers the right place


@dataclass
class OrderHeads:
    tokens: list[str]
    weights: np.ndarray      # (2, n, n) the two heads' attention weights

    def top(self, head: int, token: str) -> str:
        return self.tokens[int(np.argmax(self.weights[head, self.tokens.index(token)]))]


def order_heads(tokens, lang, use_position=True):
    """Section 4.3's two heads on ``tokens``.

    Each query asks "an animal?" (content) and "at my position + offset?" (place):
    ``q_i = [CONTENT ; PLACE * PE[i] @ M_offset]``, ``k_j = [animate_j ; PE[j]]``, so
    ``q_i . k_j = CONTENT * animate_j + PLACE * PE[i + offset] . PE[j]``.
    With ``use_position=False`` the place part is dropped.

    >>> r = order_heads(["猫", "追", "狗"], "zh")
    >>> r.top(0, "追"), r.top(1, "追")
    ('猫', '狗')
    """
    x = embed(list(tokens), lang)                                  # (n, d_features)
    n = x.shape[0]
    animate = x[:, FEATURES.index("animate")][:, None]             # (n, 1)
    pe = sinusoidal_positional_encoding(n, D_PE)                   # (n, D_PE)
    weights = []
    for offset in OFFSETS:
        place = PLACE * (pe @ shift_matrix(offset, D_PE)) if use_position else np.zeros_like(pe)
        q = np.concatenate([np.full((n, 1), CONTENT), place], axis=1)    # (n, 1 + D_PE)
        k = np.concatenate([animate, pe], axis=1)                         # (n, 1 + D_PE)
        _, w = scaled_dot_product_attention(q, k, x, scale=1.0)           # (n, n)
        weights.append(w)
    return OrderHeads(tokens=list(tokens), weights=np.stack(weights))
