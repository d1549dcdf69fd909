"""attnkit.basics (chapter 0): dot products, matrix products, one-parameter gradient descent, ReLU."""

import numpy as np
import pytest

from attnkit.basics import angle_degrees, dot, fit_line, line_loss, line_loss_slope, matmul_by_dots, nudge_slope, relu


def test_dot_is_signed_and_matches_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 7))
    assert dot(a, b) == pytest.approx(a @ b)
    assert dot([1, 1], [2, 1]) > 0 and dot([1, 1], [1, -1]) == 0 and dot([1, 1], [-2, -1]) < 0


def test_angle_follows_the_cosine_and_the_sign_of_the_dot_product():
    rng = np.random.default_rng(0)
    for a, b in rng.normal(size=(20, 2, 5)):
        expected = np.degrees(np.arccos(a @ b / np.linalg.norm(a) / np.linalg.norm(b)))
        assert angle_degrees(a, b) == pytest.approx(expected)
        assert (angle_degrees(a, b) > 90) == (dot(a, b) < 0)
    assert angle_degrees([3, 1], [6, 2]) == 0.0 and angle_degrees([3, 1], [-3, -1]) == 180.0


def test_matmul_is_many_dot_products():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 2))
    np.testing.assert_allclose(matmul_by_dots(a, b), a @ b)


@pytest.mark.parametrize("w", [-1.0, 0.0, 2.5, 4.0, 7.0])
def test_loss_slope_matches_finite_differences(w):
    x, y = [1.0, 2.0, 3.0], [4.1, 7.9, 12.2]
    assert line_loss_slope(w, x, y) == pytest.approx(nudge_slope(lambda v: line_loss(v, x, y), w), rel=1e-6)


def test_gradient_descent_lowers_the_loss_and_is_deterministic():
    fit = fit_line([1, 2, 3], [4.1, 7.9, 12.2], w0=0.0, lr=0.05, steps=30)
    assert fit.w.shape == fit.loss.shape == (31,)
    assert np.all(np.diff(fit.loss) <= 0)
    best = np.dot([1, 2, 3], [4.1, 7.9, 12.2]) / np.dot([1, 2, 3], [1, 2, 3])   # least squares
    assert fit.w[-1] == pytest.approx(best, abs=1e-3)
    np.testing.assert_array_equal(fit.w, fit_line([1, 2, 3], [4.1, 7.9, 12.2], w0=0.0, lr=0.05, steps=30).w)


def test_relu():
    np.testing.assert_array_equal(relu([[-1.0, 2.0], [0.0, -3.0]]), [[0.0, 2.0], [0.0, 0.0]])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: dot([1, 2], [1, 2, 3]), "same length, got 2 and 3"),
        (lambda: angle_degrees([0, 0], [1, 2]), "non-zero vectors: a zero vector has no direction"),
        (lambda: dot([[1, 2]], [1, 2]), r"a must be one vector of shape \(n,\)"),
        (lambda: matmul_by_dots(np.ones((2, 3)), np.ones((2, 3))), r"got a \(2, 3\) and b \(2, 3\)"),
        (lambda: line_loss(1.0, [1, 2], [1]), "one y per x"),
        (lambda: line_loss(float("nan"), [1], [1]), "w must be a finite number"),
        (lambda: fit_line([1], [1], lr=0), "learning rate"),
        (lambda: fit_line([1], [1], steps=0), "steps must be a positive integer"),
        (lambda: nudge_slope(abs, 1.0, eps=0), "eps must be > 0"),
        (lambda: relu("abc"), "real numbers"),
    ],
)
def test_bad_input_gives_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
