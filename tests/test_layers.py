"""attnkit.layers: layer norm (forward, backward), ReLU, feed-forward, residual."""

import numpy as np
import pytest

from attnkit import kvcache, layers, story, tinygpt
from attnkit.layers import feed_forward, layer_norm, layer_norm_backward, layer_norm_forward, relu, residual


def test_layer_norm_gives_mean_zero_variance_one_per_row():
    x = np.random.default_rng(0).normal(3.0, 5.0, size=(4, 7))
    y = layer_norm(x)
    assert np.allclose(y.mean(axis=-1), 0)
    assert np.allclose(y.var(axis=-1), 1, atol=1e-5)
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    assert np.allclose(y, ref)
    assert np.allclose(layer_norm(x, gamma=2.0, beta=1.0), 2 * ref + 1)


def test_layer_norm_rejects_bad_input():
    with pytest.raises(ValueError, match="eps must be a positive finite number, got 0"):
        layer_norm([[1.0, 2.0]], eps=0)
    with pytest.raises(ValueError, match="x contains NaN"):
        layer_norm([[1.0, np.nan]])


def test_feed_forward_is_relu_sandwich():
    rng = np.random.default_rng(1)
    x, w_1, b_1, w_2, b_2 = (rng.normal(size=s) for s in [(3, 4), (4, 6), (6,), (6, 4), (4,)])
    assert np.allclose(feed_forward(x, w_1, b_1, w_2, b_2), np.maximum(0, x @ w_1 + b_1) @ w_2 + b_2)
    assert np.allclose(relu([-2.0, 0.0, 3.0]), [0.0, 0.0, 3.0])
    with pytest.raises(ValueError, match="w_1 must have d_model = 4 rows"):
        feed_forward(x, w_1[:3], b_1, w_2, b_2)
    with pytest.raises(ValueError, match="w_2 must have d_ff = 6 rows"):
        feed_forward(x, w_1, b_1, w_2[:5], b_2)


def test_residual_adds_and_checks_shapes():
    assert np.allclose(residual([[1.0, 2.0]], [[0.5, 0.5]]), [[1.5, 2.5]])
    with pytest.raises(ValueError, match="same shape"):
        residual([1.0, 2.0], [1.0])


def test_layer_norm_backward_matches_finite_differences():
    rng = np.random.default_rng(2)
    x, g, b, dy = rng.normal(size=(2, 3, 5)), rng.normal(size=5), rng.normal(size=5), rng.normal(size=(2, 3, 5))
    _, cache = layer_norm_forward(x, g, b)
    dx, dg, db = layer_norm_backward(dy, cache)
    loss = lambda x, g, b: float((layer_norm_forward(x, g, b)[0] * dy).sum())   # noqa: E731
    h = 1e-6
    for value, grad in ((x, dx), (g, dg), (b, db)):
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            old = value[index]
            value[index] = old + h
            plus = loss(x, g, b)
            value[index] = old - h
            minus = loss(x, g, b)
            value[index] = old
            numeric[index] = (plus - minus) / (2 * h)
        assert np.allclose(grad, numeric, atol=1e-7)


def test_one_layer_norm_for_the_whole_library():
    """Chapter 7's story, the tiny GPT and its KV-cache step normalise with the same function."""
    x = np.random.default_rng(3).normal(size=(4, 6))
    assert np.array_equal(layer_norm(x), layer_norm_forward(x, 1.0, 0.0)[0])
    assert story.layer_norm is layers.layer_norm
    assert tinygpt.layer_norm_forward is layers.layer_norm_forward
    assert kvcache.layer_norm_forward is layers.layer_norm_forward
