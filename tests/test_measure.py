"""The sqrt(d_k) measurements: variance grows like d_k, scaling undoes it, softmax saturates."""

import numpy as np
import pytest

from attnkit import softmax
from attnkit.measure import random_scores, scaling_experiment, softmax_jacobian

D_KS = [1, 4, 16, 64, 256]


def test_variance_grows_like_d_k_and_scaling_restores_one():
    m = scaling_experiment(D_KS)
    np.testing.assert_allclose(m.var_raw / m.d_k, 1.0, rtol=0.1)
    np.testing.assert_allclose(m.var_scaled, 1.0, rtol=0.1)


def test_softmax_saturates_without_scaling_and_not_with_it():
    m = scaling_experiment(D_KS)
    assert np.all(np.diff(m.max_raw) > 0)
    assert m.max_raw[-1] > 0.9
    assert np.ptp(m.max_scaled) < 0.1
    assert m.grad_raw[-1] < m.grad_scaled[-1] / 3


def test_same_seed_same_numbers():
    np.testing.assert_array_equal(random_scores(8, seed=3), random_scores(8, seed=3))
    assert not np.array_equal(random_scores(8, seed=3), random_scores(8, seed=4))


def test_jacobian_matches_finite_differences():
    rng = np.random.default_rng(0)
    s = rng.normal(size=5)
    eps = 1e-6
    numeric = np.stack([(softmax(s + eps * e) - softmax(s - eps * e)) / (2 * eps) for e in np.eye(5)], axis=1)
    np.testing.assert_allclose(softmax_jacobian(softmax(s)), numeric, atol=1e-8)


def test_one_hot_weights_have_zero_gradient():
    assert not softmax_jacobian([0.0, 1.0, 0.0]).any()


@pytest.mark.parametrize("bad", [0, -1, 2.0, True])
def test_bad_d_k(bad):
    with pytest.raises(ValueError, match="d_k must be a positive integer"):
        scaling_experiment([bad])


@pytest.mark.parametrize("p, message", [
    (0.5, r"p must have at least 1 dimension \(\.\.\., n\), got shape \(\)"),
    ([], r"p must have at least one entry along each of its last 1 dimensions"),
    ([0.5, np.nan], "p contains NaN or infinity"),
    (["a"], "p must be an array of real numbers, got dtype <U1"),
])
def test_softmax_jacobian_bad_input(p, message):
    with pytest.raises(ValueError, match=message):
        softmax_jacobian(p)
