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
