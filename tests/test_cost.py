"""attnkit.cost: attention's influence does not fade with distance; the n x n matrix's size."""

import numpy as np
import pytest

from attnkit.cost import (attention_influence_on_last, influence_ratios, init_attention, score_bytes, score_matrix,
                          self_attention, time_rnn_and_attention, time_scores)
from attnkit.rnn import influence_on_last, init_rnn, random_tokens


def test_attention_influence_matches_an_analytic_case():
    # With w_q = w_k = 0 every weight is 1/n, so out_n = mean(x) @ w_v and d out_n / d x_s = w_v.T / n.
    d, n = 4, 5
    w_v = np.random.default_rng(0).normal(size=(d, d))
    zero = np.zeros((d, d))
    g = attention_influence_on_last(random_tokens(n, d), zero, zero, w_v)
    assert g == pytest.approx(np.full(n, np.linalg.norm(w_v, 2) / n), rel=1e-7)


def test_rnn_fades_and_attention_does_not():
    rnn, att = influence_ratios()
    assert rnn < 1e-6 and att > 1e-3
    x = random_tokens(40, 8, seed=1)
    g_att = attention_influence_on_last(x, *init_attention(8))
    g_rnn = influence_on_last(x, *init_rnn(8, 8, seed=0))
    assert 0.1 < g_att[:10].mean() / g_att[20:30].mean() < 10   # far and middle tokens: same order
    assert g_rnn[0] / g_rnn[19] < 1e-3


def test_score_matrix_size_grows_with_n_squared():
    for n in (8, 16, 32):
        assert score_matrix(n).nbytes == score_bytes(n) == n * n * 8
    assert np.allclose(score_matrix(10).sum(axis=1), 1)
    with pytest.raises(ValueError):
        score_bytes(0)


def test_timers_return_one_positive_number_per_length():
    """Shapes and signs only: timings are never asserted (they depend on the machine)."""
    rnn_s, att_s = time_rnn_and_attention([4, 8], d=4, repeats=1)
    seconds, nbytes = time_scores([4, 8], d_k=4, repeats=1)
    assert rnn_s.shape == att_s.shape == seconds.shape == (2,)
    assert (rnn_s > 0).all() and (att_s > 0).all() and list(nbytes) == [128, 512]
    assert self_attention(random_tokens(3, 4), *init_attention(4)).shape == (3, 4)


def test_wall_time_takes_the_fastest_run():
    """A run slowed down by a neighbour must not count: the median of these runs is ~20 ms."""
    import time as _time
    from attnkit.cost import wall_time
    sleeps = iter([0.0, 0.02, 0.02, 0.001, 0.02, 0.02])      # warm-up, then five runs
    assert wall_time(lambda: _time.sleep(next(sleeps)), repeats=5) < 0.01


def test_wall_times_take_turns():
    """Rounds run every function once in turn: a busy moment cannot land on one function's runs only."""
    from attnkit.cost import wall_times
    order = []
    wall_times([lambda: order.append("a"), lambda: order.append("b")], repeats=3)
    assert order == ["a", "b"] * 4                            # one warm-up round, then three


def test_score_macs_counts_both_products():
    from attnkit.cost import score_macs
    assert score_macs(3, 4) == 2 * 3 * 3 * 4
    assert score_macs(2048) / score_macs(1024) == 4
    with pytest.raises(ValueError):
        score_macs(0)


# ==========================================================================
# Table 1 of the paper and the split of one layer's work (chapter 9)
# ==========================================================================

from attnkit.cost import (  # noqa: E402
    TABLE1_KINDS,
    growth_when_doubled,
    layer_complexity,
    layer_macs,
    score_share,
    table1,
    table1_max_path,
)


class TestTable1:
    def test_formulas(self):
        n, d, k = 100, 64, 5
        t = table1(n, d, k=k, r=10)
        assert t["self-attention"] == (n * n * d, 1, 1)
        assert t["recurrent"] == (n * d * d, n, n)
        assert t["convolutional"] == (k * n * d * d, 1, 3)     # 5**3 = 125 >= 100 > 25
        assert t["restricted"] == (10 * n * d, 1, 10)

    @pytest.mark.parametrize("d", [64, 512, 1000])
    def test_crossover_is_n_equals_d(self, d):
        # self-attention is cheaper than a recurrent layer exactly while n < d
        for n in (d // 2, d - 1):
            assert layer_complexity("self-attention", n, d) < layer_complexity("recurrent", n, d)
        assert layer_complexity("self-attention", d, d) == layer_complexity("recurrent", d, d)
        assert layer_complexity("self-attention", d + 1, d) > layer_complexity("recurrent", d + 1, d)

    def test_conv_path_is_smallest_power(self):
        for n in range(1, 200):
            p = table1_max_path("convolutional", n, k=3)
            assert 3 ** p >= n and (p == 1 or 3 ** (p - 1) < n)

    def test_bad_kind(self):
        with pytest.raises(ValueError, match="kind must be one of"):
            layer_complexity("lstm", 3, 4)
        assert set(TABLE1_KINDS) == {"self-attention", "recurrent", "convolutional", "restricted"}


class TestLayerShare:
    def test_counts_by_brute_force(self):
        # count the multiply-adds of a real layer's matrix products from their shapes
        n, d, d_ff, h = 6, 8, 20, 2
        products = [(n, d, d)] * 4 + [(h, n, d // h, n), (h, n, n, d // h)] + [(n, d, d_ff), (n, d_ff, d)]
        total = sum(int(np.prod(p)) for p in products)
        assert layer_macs(n, d, d_ff)["total"] == total

    def test_shares_at_512_and_4096(self):
        assert score_share(512) == pytest.approx(2 * 512**3 / (4 * 512**3 + 2 * 512**3 + 2 * 512**2 * 2048))
        assert 0.1 < score_share(512) < 0.2 and 0.5 < score_share(4096) < 0.6
        assert score_share(100_000) > 0.95

    def test_doubling_is_not_fourfold_at_typical_lengths(self):
        assert 2 < growth_when_doubled(512) < 2.5
        assert growth_when_doubled(10**6) == pytest.approx(4, abs=0.01)
        assert growth_when_doubled(1) == pytest.approx(2, abs=0.01)
