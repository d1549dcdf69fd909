"""attnkit.heads: exact gradients, the symmetry of identical heads, and the source course's loss."""

import numpy as np
import pytest

from attnkit.heads import (PARAMS, STARTS, init_heads, make_task, neighbour_share, source_loss, source_loss_descent,
                           source_loss_optimum, train_two_heads, two_heads_loss_and_grads, worked_dimensions)


def test_gradients_match_finite_differences():
    x, t = make_task(n_sentences=4, seed=2)
    heads = init_heads("random", x.shape[-1], 6, t.shape[-1], seed=5)
    _, grads, _ = two_heads_loss_and_grads(heads, x, t)
    rng = np.random.default_rng(0)
    eps = 1e-6
    for h in range(2):
        for p in PARAMS:
            for _ in range(3):
                idx = tuple(rng.integers(0, s) for s in heads[h][p].shape)
                old = heads[h][p][idx]
                heads[h][p][idx] = old + eps
                up = two_heads_loss_and_grads(heads, x, t)[0]
                heads[h][p][idx] = old - eps
                down = two_heads_loss_and_grads(heads, x, t)[0]
                heads[h][p][idx] = old
                assert grads[h][p][idx] == pytest.approx((up - down) / (2 * eps), rel=1e-5, abs=1e-9)


def test_identical_heads_stay_identical_and_random_heads_split_the_work():
    same, nudged, rnd = (train_two_heads(s) for s in STARTS)
    assert same.head_gap.max() == 0.0
    assert nudged.head_gap[0] < 1e-4 < 0.5 < nudged.head_gap[-1]
    assert rnd.loss[-1] < 0.01 < 0.05 < same.loss[-1]
    share = neighbour_share(rnd.weights)
    # one head looks mostly left, the other mostly right
    assert sorted(share.argmax(axis=1).tolist()) == [0, 1] and share.max(axis=1).min() > 0.6


def test_swapping_heads_changes_nothing():
    x, t = make_task(n_sentences=8)
    heads = init_heads("random", x.shape[-1], 6, t.shape[-1])
    a = two_heads_loss_and_grads(heads, x, t)
    b = two_heads_loss_and_grads(heads[::-1], x, t)
    assert a[0] == pytest.approx(b[0], rel=1e-14)


def test_worked_dimensions_match_the_paper_sizes():
    shapes = dict(worked_dimensions())
    assert shapes["split Q"] == (8, 4, 64) and shapes["weights"] == (8, 4, 4) and shapes["out = concat W_O"] == (4, 512)


def test_source_loss_optimum_pulls_together():
    a, b = source_loss_optimum(0.5)
    assert (a, b) == pytest.approx((3.5, 4.5))
    assert source_loss_optimum(1.0) == pytest.approx([11 / 3, 13 / 3])
    assert b - a < 2 < np.subtract(*source_loss_optimum(-0.25)[::-1])
    assert source_loss_descent(0.5, steps=300)[-1] == pytest.approx([3.5, 4.5])
    grid = np.linspace(0, 7, 141)
    aa, bb = np.meshgrid(grid, grid)
    i = np.unravel_index(np.argmin(source_loss(aa, bb, 0.5)), aa.shape)
    assert (aa[i], bb[i]) == pytest.approx((3.5, 4.5))


def test_bad_inputs():
    with pytest.raises(ValueError, match="start must be one of"):
        init_heads("twins", 4, 2, 2)
    with pytest.raises(ValueError, match="coupling must be > -0.5"):
        source_loss_optimum(-0.5)
    with pytest.raises(ValueError, match="at least 3"):
        make_task(n=2)


@pytest.mark.parametrize("weights, message", [
    (0, r"weights must have at least 3 dimensions \(heads, n, n\), got shape \(\)"),
    (np.ones((2, 3, 4)), r"weights must have shape \(heads, n, n\), got shape \(2, 3, 4\)"),
    (np.full((2, 3, 3), np.nan), "weights contains NaN or infinity"),
])
def test_neighbour_share_bad_input(weights, message):
    from attnkit.heads import neighbour_share
    with pytest.raises(ValueError, match=message):
        neighbour_share(weights)


@pytest.mark.parametrize("kwargs, message", [
    ({"scale": 0}, r"scale must be a positive finite number, got 0 \(int\)"),
    ({"nudge": -1e-6}, r"nudge must be a positive finite number, got -1e-06 \(float\)"),
    ({"seed": -1}, r"seed must be a non-negative integer, got -1 \(int\)"),
    ({"d_k": 0}, r"d_k must be a positive integer, got 0 \(int\)"),
])
def test_init_heads_bad_settings(kwargs, message):
    args = {"start": "nudged", "d_model": 4, "d_k": 2, "d_out": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        init_heads(**args)
