"""Tests for attnkit.rnn: the tiny RNN, its exact Jacobians, and the counting helpers."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit.rnn import (
    RNNWeights,
    clip_by_norm,
    decay_curve,
    decay_curves,
    first_token_change,
    first_token_influence,
    first_token_jacobians,
    influence_on_last,
    init_rnn,
    pairwise_connections,
    path_length,
    random_tokens,
    rnn_forward,
    rnn_step,
    sequential_steps,
    tanh_slopes,
)


@pytest.fixture
def setup():
    w = init_rnn(3, 5, w_scale=1.2, seed=3)
    x = random_tokens(7, 3, seed=4)
    return x, w


def loop_reference(x, w_x, w_h, b):
    """Plain Python loops over scalars, independent of the vectorised code."""
    d_h = w_h.shape[0]
    h = [0.0] * d_h
    out = []
    for x_t in x:
        a = [sum(x_t[j] * w_x[j, i] for j in range(len(x_t))) + sum(h[k] * w_h[k, i] for k in range(d_h)) + b[i]
             for i in range(d_h)]
        h = [float(np.tanh(v)) for v in a]
        out.append(h)
    return np.array(out)


def test_forward_matches_loops_and_steps(setup):
    x, w = setup
    h = rnn_forward(x, *w)
    assert h.shape == (7, 5)
    np.testing.assert_allclose(h, loop_reference(x, *w), atol=1e-12)
    h_t = np.zeros(5)
    for t in range(7):
        h_t = rnn_step(x[t], h_t, *w)
        np.testing.assert_allclose(h_t, h[t], atol=1e-14)


def test_forward_with_initial_state(setup):
    x, w = setup
    h_0 = np.full(5, 0.3)
    h = rnn_forward(x, *w, h_0=h_0)
    np.testing.assert_allclose(h[0], np.tanh(x[0] @ w.w_x + h_0 @ w.w_h + w.b))


def test_init_is_deterministic_and_documented():
    a, b = init_rnn(4, 6, w_scale=0.7, seed=11), init_rnn(4, 6, w_scale=0.7, seed=11)
    assert isinstance(a, RNNWeights)
    for u, v in zip(a, b):
        assert np.array_equal(u, v)
    rng = np.random.default_rng(11)
    np.testing.assert_array_equal(a.w_x, rng.normal(0, 1 / 2, size=(4, 6)))
    np.testing.assert_array_equal(a.w_h, rng.normal(0, 0.7 / np.sqrt(6), size=(6, 6)))
    assert not a.b.any()
    assert not np.array_equal(init_rnn(4, 6, seed=12).w_h, a.w_h)


def test_jacobian_matches_finite_differences(setup):
    x, w = setup
    jac = first_token_jacobians(x, *w)                      # (n, d_h, d_in)
    assert jac.shape == (7, 5, 3)
    eps = 1e-6
    for j in range(3):
        up, down = x.copy(), x.copy()
        up[0, j] += eps
        down[0, j] -= eps
        numeric = (rnn_forward(up, *w) - rnn_forward(down, *w)) / (2 * eps)   # (n, d_h)
        np.testing.assert_allclose(jac[:, :, j], numeric, atol=1e-6)


def test_influence_is_the_spectral_norm(setup):
    x, w = setup
    jac = first_token_jacobians(x, *w)
    g = first_token_influence(x, *w)
    for t in range(7):
        assert g[t] == pytest.approx(np.linalg.svd(jac[t], compute_uv=False)[0], rel=1e-12)


def test_influence_bounded_by_weight_norms(setup):
    """tanh' <= 1, so ||dh_t/dx_1|| <= ||w_h||^(t-1) ||w_x||."""
    x, w = setup
    g = first_token_influence(x, *w)
    bound = np.linalg.norm(w.w_x, 2) * np.linalg.norm(w.w_h, 2) ** np.arange(7)
    assert np.all(g <= bound * (1 + 1e-12))


def test_influence_on_last_matches_finite_differences(setup):
    x, w = setup
    g = influence_on_last(x, *w)
    assert g.shape == (7,)
    eps = 1e-6
    for s in range(7):
        jac = np.empty((5, 3))
        for j in range(3):
            up, down = x.copy(), x.copy()
            up[s, j] += eps
            down[s, j] -= eps
            jac[:, j] = (rnn_forward(up, *w)[-1] - rnn_forward(down, *w)[-1]) / (2 * eps)
        assert g[s] == pytest.approx(np.linalg.norm(jac, 2), abs=1e-6)
    assert g[0] == pytest.approx(first_token_influence(x, *w)[-1], rel=1e-12)


def test_first_token_change(setup):
    x, w = setup
    assert not first_token_change(x, x[0], *w).any()
    other = random_tokens(1, 3, seed=99)[0]
    change = first_token_change(x, other, *w)
    x_new = x.copy()
    x_new[0] = other
    np.testing.assert_allclose(change, np.linalg.norm(rnn_forward(x_new, *w) - rnn_forward(x, *w), axis=1))
    # a tiny change moves h_t by about influence * size, at most
    tiny = x[0] + 1e-7 * np.ones(3) / np.sqrt(3)
    assert np.all(first_token_change(x, tiny, *w) <= 1e-7 * first_token_influence(x, *w) * (1 + 1e-4))


def test_small_weights_make_token_1_fade():
    curves = decay_curves(40, w_scale=0.5, n_trials=5)
    assert curves.shape == (5, 40)
    assert np.all(curves[:, -1] < 1e-6 * curves[:, 0])
    np.testing.assert_array_equal(curves[2], decay_curve(40, w_scale=0.5, seed=2))


def test_large_weights_make_token_1_explode():
    curves = decay_curves(40, w_scale=3.0, n_trials=20)
    assert np.median(curves[:, -1]) > 10 * np.median(curves[:, 0])


def test_clip_by_norm_shortens_only_long_vectors_and_keeps_direction():
    g = np.array([[3.0, -4.0], [12.0, 0.0]])                  # length 13
    clipped = clip_by_norm(g, 1.3)
    np.testing.assert_allclose(clipped, g / 10)
    np.testing.assert_array_equal(clip_by_norm(g, 20.0), g)
    np.testing.assert_array_equal(clip_by_norm(np.zeros(3), 1.0), np.zeros(3))


def test_counting_helpers():
    assert [sequential_steps(n, "rnn") for n in (1, 10, 1000)] == [1, 10, 1000]
    assert [sequential_steps(n, "attention") for n in (1, 10, 1000)] == [1, 1, 1]
    assert pairwise_connections(1000, "attention") == 1_000_000
    assert pairwise_connections(6, "rnn") == 5
    assert path_length(0, 5, "rnn") == 5 and path_length(5, 0, "attention") == 1
    assert path_length(3, 3, "rnn") == path_length(3, 3, "attention") == 0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: init_rnn(0, 3), "d_in must be a positive integer"),
        (lambda: init_rnn(2, 3, w_scale=-1), "w_scale must be a finite number >= 0"),
        (lambda: init_rnn(2, 3, w_scale=float("nan")), "w_scale must be a finite number >= 0"),
        (lambda: rnn_forward(np.ones((4, 2)), *init_rnn(3, 5)), r"d_in=2 numbers but w_x expects d_in=3"),
        (lambda: rnn_forward(np.ones(3), *init_rnn(3, 5)), r"x must have at least 2 dimensions"),
        (lambda: rnn_forward(np.ones((2, 4, 3)), *init_rnn(3, 5)), r"one sentence of shape \(n, d_in\)"),
        (lambda: rnn_forward(np.ones((4, 3)), np.ones((3, 5)), np.ones((4, 4)), np.ones(5)), r"w_h must be \(5, 5\)"),
        (lambda: rnn_forward(np.ones((4, 3)), *init_rnn(3, 5), h_0=np.ones(4)), r"h_0 must have shape \(5,\)"),
        (lambda: rnn_forward([[1.0, np.nan, 0.0]], *init_rnn(3, 5)), "x contains NaN"),
        (lambda: rnn_step(np.ones(2), np.ones(5), *init_rnn(3, 5)), r"expected x_t \(3,\)"),
        (lambda: first_token_change(np.ones((4, 3)), np.ones(2), *init_rnn(3, 5)), r"x_1_new must be one token"),
        (lambda: sequential_steps(5, "cnn"), "model must be one of"),
        (lambda: sequential_steps(0, "rnn"), "n must be a positive integer"),
        (lambda: path_length(5, 2, "rnn"), "carries token 5 forward only"),
        (lambda: path_length(-1, 2, "rnn"), "i must be a token position"),
        (lambda: pairwise_connections(2.0, "rnn"), "n must be a positive integer"),
        (lambda: decay_curves(5, n_trials=0), "n_trials must be a positive integer"),
        (lambda: clip_by_norm([1.0, 2.0], 0), "max_norm must be a finite number > 0"),
        (lambda: clip_by_norm([1.0, np.inf], 1.0), "g contains"),
    ],
)
def test_bad_input_gives_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_tanh_slopes(setup):
    x, w = setup
    s = tanh_slopes(x, *w)
    np.testing.assert_allclose(s, 1 - rnn_forward(x, *w) ** 2)
    assert s.shape == (7, 5) and np.all((s > 0) & (s <= 1))


def test_clip_by_norm_of_a_huge_gradient_keeps_its_direction():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # no overflow warning
        clipped = clip_by_norm([1e308, 1e308, -1e308], 3.0)
    np.testing.assert_allclose(clipped, [np.sqrt(3), np.sqrt(3), -np.sqrt(3)])
