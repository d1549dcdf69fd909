"""Sliding-window attention: each token looks back over a window of w tokens, itself included.

    query i may attend to key j   if   i - w < j <= i

This is the convention of transformers' Mistral, Gemma 3 and gpt-oss (``masking_utils``:
``kv_idx > q_idx - sliding_window`` and ``kv_idx <= q_idx``): a window of w holds exactly w keys,
the query's own among them, so a layer's KV cache never needs more than w positions. Other code
counts differently: PyTorch's attn-gym (``generate_sliding_window``) keeps ``q_idx - kv_idx <=
w``, that is w + 1 keys. The two differ by one key per query, so check which one a number means.

A window limits one layer, not the model: layer 2 reads outputs of layer 1 that already mixed
in their own windows, so after L layers the last token can draw on ``L * (w - 1) + 1``
positions (:func:`receptive_field`, computed by following the masks layer by layer).

    >>> print(sliding_window_mask(5, 2).astype(int))
    [[1 0 0 0 0]
     [1 1 0 0 0]
     [0 1 1 0 0]
     [0 0 1 1 0]
     [0 0 0 1 1]]
    >>> receptive_field(n_layers=3, window=4)
    10
"""

from __future__ import annotations

import numpy as np

from ._checks import check_positive_int

__all__ = [
    "sliding_window_mask",
    "receptive_field",
    "receptive_field_by_depth",
    "receptive_field_formula",
    "receptive_field_of_layers",
]


def check_window(window):
    """``window`` as an int >= 1, or a ValueError that says what came instead (used by tiled.py too).

    >>> check_window(0)
    Traceback (most recent call last):
    ...
    ValueError: window must be a whole number >= 1 (how many keys a query sees, itself included), got 0 (int)
    """
    if isinstance(window, (bool, np.bool_)) or not isinstance(window, (int, np.integer)) or window < 1:
        raise ValueError(
            f"window must be a whole number >= 1 (how many keys a query sees, itself included), "
            f"got {window!r} ({type(window).__name__})"
        )
    return int(window)


def sliding_window_mask(n, window, n_k=None):
    """The sliding-window mask: query i may attend to key j when ``i - window < j <= i``.

    Parameters
    ----------
    n : int
        Number of queries.
    window : int
        Keys each query sees, itself included (>= 1). ``window >= n`` gives the causal mask.
    n_k : int, optional
        Number of keys (default n). With ``n_k > n`` the queries are the last n positions,
        as when new tokens read a cache: query i stands at position ``i + n_k - n``.

    Returns
    -------
    mask : ndarray of bool, shape (n, n_k)

    Example
    -------
    >>> print(sliding_window_mask(2, 2, n_k=4).astype(int))
    [[0 1 1 0]
     [0 0 1 1]]
    """
    n = check_positive_int("n", n)
    window = check_window(window)
    n_k = n if n_k is None else check_positive_int("n_k", n_k)
    if n_k < n:
        raise ValueError(
            f"n_k must be at least n (the queries are the last n of the n_k positions), "
            f"got n={n} and n_k={n_k}"
        )
    i = np.arange(n)[:, None] + (n_k - n)                   # (n, 1) position of each query
    j = np.arange(n_k)[None, :]                             # (1, n_k) position of each key
    return (j <= i) & (j > i - window)                      # (n, n_k)


def receptive_field_by_depth(n_layers, window, n=None):
    """How many positions the last token can draw on after 0, 1, ..., n_layers layers.

    Computed by following the masks: ``reach`` starts as "each position holds itself" (the
    identity); each layer replaces a position's reach by the union of the reaches of the keys
    its window lets it read, ``reach = (mask @ reach) > 0``.

    Parameters
    ----------
    n_layers : int
    window : int
    n : int, optional
        Sequence length; default long enough that nothing is cut off at the start,
        ``n_layers * window + 1``.

    Returns
    -------
    counts : ndarray of int, shape (n_layers + 1,)

    Example
    -------
    >>> receptive_field_by_depth(4, 3).tolist()
    [1, 3, 5, 7, 9]
    """
    n_layers = check_positive_int("n_layers", n_layers)
    window = check_window(window)
    n = n_layers * window + 1 if n is None else check_positive_int("n", n)
    mask = sliding_window_mask(n, window).astype(np.int64)  # (n, n), 1 = may read
    reach = np.eye(n, dtype=np.int64)                       # (n, n): reach[i, p] = 1 if i draws on p
    counts = [1]
    for _ in range(n_layers):
        reach = (mask @ reach > 0).astype(np.int64)         # (n, n) @ (n, n) -> (n, n)
        counts.append(int(reach[-1].sum()))                 # the last token's reach
    return np.array(counts)


def receptive_field(n_layers, window, n=None):
    """How many positions the last token can draw on after ``n_layers`` window layers.

    The same propagation as :func:`receptive_field_by_depth`, for the last token only and
    without (n, n) matrices, so it runs for real sizes: the set of positions reached grows, each
    layer, by every key that a reached position may read (``i - window < p <= i``). Equals
    :func:`receptive_field_formula` when the sequence is long enough.

    Parameters
    ----------
    n_layers, window : int
    n : int, optional
        Sequence length; default ``n_layers * window + 1`` (nothing cut off at the start).

    Example
    -------
    >>> receptive_field(32, 4096)                         # Mistral 7B: 32 layers, window 4096
    131041
    >>> receptive_field(32, 4096, n=1000)                 # a short text: all of it
    1000
    """
    n_layers = check_positive_int("n_layers", n_layers)
    window = check_window(window)
    n = n_layers * window + 1 if n is None else check_positive_int("n", n)
    reach = np.zeros(n, dtype=bool)                         # (n,) positions the last token draws on
    reach[-1] = True
    for _ in range(n_layers):
        i = np.flatnonzero(reach)                           # reached positions
        edges = np.zeros(n + 1, dtype=np.int64)             # +1 where a window starts, -1 past its end
        np.add.at(edges, np.maximum(i - window + 1, 0), 1)  # position i reads keys i-w+1 .. i
        np.add.at(edges, i + 1, -1)
        reach = np.cumsum(edges)[:n] > 0                    # (n,) inside at least one window
    return int(reach.sum())


def receptive_field_formula(n_layers, window):
    """``n_layers * (window - 1) + 1``: each layer reaches ``window - 1`` positions further back.

    >>> receptive_field_formula(3, 4)
    10
    """
    return check_positive_int("n_layers", n_layers) * (check_window(window) - 1) + 1


def receptive_field_of_layers(windows, n):
    """How many of n positions the last token can draw on through layers of mixed kinds.

    ``windows`` lists the layers bottom to top: an int is a sliding window, None a full
    (causal) layer. One full layer anywhere opens everything before the positions it reads,
    which is why models that mix them (Gemma 3: five local to one global; gpt-oss: alternate)
    keep the long reach while most layers cache only a window.

    Parameters
    ----------
    windows : sequence of int or None
    n : int
        Sequence length; the last token is at position n - 1.

    Returns
    -------
    int

    Example
    -------
    >>> receptive_field_of_layers([4, 4, 4], 100)           # three window layers: 3 * 3 + 1
    10
    >>> receptive_field_of_layers([4, None, 4], 100)        # one full layer: everything
    100
    """
    n = check_positive_int("n", n)
    windows = list(windows)
    if not windows:
        raise ValueError("windows must list at least one layer (an int window, or None for full)")
    reach = np.zeros(n, dtype=bool)                         # (n,) positions the last token draws on
    reach[-1] = True
    for window in reversed(windows):                        # from the top layer down to the input
        i = np.flatnonzero(reach)
        if window is None:                                  # full causal layer: every j <= i
            reach = np.arange(n) <= i.max()
            continue
        window = check_window(window)
        edges = np.zeros(n + 1, dtype=np.int64)
        np.add.at(edges, np.maximum(i - window + 1, 0), 1)
        np.add.at(edges, i + 1, -1)
        reach = np.cumsum(edges)[:n] > 0
    return int(reach.sum())
