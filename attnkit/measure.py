"""Measurements behind "divide by sqrt(d_k)": what unscaled dot products do to softmax.

Draw queries and keys whose entries are independent with mean 0 and variance 1 (what a
well-initialised network roughly produces), score every query against ``n_keys`` keys, and
measure, for each width d_k:

- the variance of the scores q . k (it grows like d_k);
- how saturated the softmax of one row of scores is (its largest weight);
- how large the softmax's gradient is (the norm of its Jacobian diag(p) - p p^T);

once for the raw scores and once for the scores divided by sqrt(d_k).

    >>> m = scaling_experiment([4, 64], n_samples=2000)
    >>> m.var_raw.round(0), m.var_scaled.round(1)
    (array([ 4., 64.]), array([1., 1.]))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, check_positive_int, check_seed
from .core import softmax

__all__ = ["ScalingMeasurement", "random_scores", "softmax_jacobian", "scaling_experiment"]


def random_scores(d_k: int, n_keys: int = 16, n_samples: int = 2000, seed: int = 0) -> np.ndarray:
    """Scores q . k of ``n_samples`` random queries against ``n_keys`` random keys each.

    Entries of q and k are standard normal (mean 0, variance 1). Returns shape
    (n_samples, n_keys), one row of scores per query. The same ``seed`` gives the same numbers.

    >>> random_scores(64).var().round(1)
    np.float64(64.1)
    """
    d_k = check_positive_int("d_k", d_k)
    n_keys = check_positive_int("n_keys", n_keys)
    n_samples = check_positive_int("n_samples", n_samples)
    rng = np.random.default_rng(check_seed(seed))
    q = rng.standard_normal((n_samples, 1, d_k))          # (S, 1, d_k)
    k = rng.standard_normal((n_samples, n_keys, d_k))     # (S, n_keys, d_k)
    return (q * k).sum(axis=-1)                           # (S, n_keys): q . k for every key


def softmax_jacobian(p) -> np.ndarray:
    """The Jacobian of softmax at weights ``p``: d p_i / d s_j = p_i (delta_ij - p_j).

    ``p`` has shape (..., n); the result has shape (..., n, n).

    >>> softmax_jacobian([0.5, 0.5])
    array([[ 0.25, -0.25],
           [-0.25,  0.25]])
    """
    p = as_float_array("p", p, min_ndim=1, layout="(..., n)")   # (..., n)
    diag = p[..., :, None] * np.eye(p.shape[-1])           # (..., n, n)
    return diag - p[..., :, None] * p[..., None, :]        # (..., n, n)


@dataclass
class ScalingMeasurement:
    """One entry per width d_k in each array (averages over all sampled rows)."""

    d_k: np.ndarray
    var_raw: np.ndarray        # variance of q . k
    var_scaled: np.ndarray     # variance of q . k / sqrt(d_k)
    max_raw: np.ndarray        # mean largest softmax weight of a row of raw scores
    max_scaled: np.ndarray     # ... of a row of scaled scores
    grad_raw: np.ndarray       # mean Frobenius norm of the softmax Jacobian, raw scores
    grad_scaled: np.ndarray    # ... scaled scores
    n_keys: int
    uniform_grad: float        # the Jacobian norm when all n_keys weights are equal


def scaling_experiment(d_ks, n_keys: int = 16, n_samples: int = 2000, seed: int = 0) -> ScalingMeasurement:
    """Measure score variance, softmax saturation and softmax gradient for each d_k in ``d_ks``.

    >>> m = scaling_experiment([1, 512])
    >>> m.max_raw.round(2), m.max_scaled.round(2)
    (array([0.21, 0.95]), array([0.21, 0.25]))
    """
    d_ks = [check_positive_int("d_k", d) for d in d_ks]
    rows = {name: [] for name in ("var_raw", "var_scaled", "max_raw", "max_scaled", "grad_raw", "grad_scaled")}
    for d_k in d_ks:
        scores = random_scores(d_k, n_keys, n_samples, seed)      # (S, n_keys)
        for kind, s in (("raw", scores), ("scaled", scores / np.sqrt(d_k))):
            p = softmax(s)                                         # (S, n_keys)
            jac = softmax_jacobian(p)                              # (S, n_keys, n_keys)
            rows[f"var_{kind}"].append(s.var())
            rows[f"max_{kind}"].append(p.max(axis=-1).mean())
            rows[f"grad_{kind}"].append(np.linalg.norm(jac, axis=(-2, -1)).mean())
    uniform = np.linalg.norm(softmax_jacobian(np.full(n_keys, 1.0 / n_keys)))
    return ScalingMeasurement(d_k=np.array(d_ks), n_keys=n_keys, uniform_grad=float(uniform),
                              **{name: np.array(values) for name, values in rows.items()})
