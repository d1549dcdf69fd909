"""Tests for attnkit.tiled: tiled attention equals full attention, and never builds the table."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit.core import causal_mask, scaled_dot_product_attention, softmax
from attnkit.tiled import attention_peak_bytes, online_softmax_trace, peak_bytes, tiled_attention

from test_core import raises_clean

TOL = 1e-12


@pytest.fixture
def rng():
    return np.random.default_rng(9)


def bottom_right_causal(n_q, n_k):
    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)


class TestEqualsFullAttention:
    @pytest.mark.parametrize("n", [1, 2, 7, 16, 33, 100])
    @pytest.mark.parametrize("block_size", [1, 3, 16, 64, 1000])
    def test_any_length_any_block(self, rng, n, block_size):
        q, k = rng.normal(size=(2, n, 8))
        v = rng.normal(size=(n, 5))
        ref, _ = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(tiled_attention(q, k, v, block_size=block_size), ref,
                                   rtol=0, atol=TOL)

    @pytest.mark.parametrize("n_q, n_k", [(9, 9), (4, 13), (1, 10), (13, 4)])
    @pytest.mark.parametrize("block_size", [1, 4, 5])
    def test_causal(self, rng, n_q, n_k, block_size):
        q = rng.normal(size=(n_q, 6))
        k, v = rng.normal(size=(2, n_k, 6))
        ref, _ = scaled_dot_product_attention(q, k, v, mask=bottom_right_causal(n_q, n_k))
        out = tiled_attention(q, k, v, block_size=block_size, causal=True)
        np.testing.assert_allclose(out, ref, rtol=0, atol=TOL)

    def test_causal_square_is_causal_mask(self, rng):
        q, k, v = rng.normal(size=(3, 11, 4))
        ref, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(11))
        np.testing.assert_allclose(tiled_attention(q, k, v, block_size=3, causal=True), ref,
                                   rtol=0, atol=TOL)

    @pytest.mark.parametrize("causal", [False, True])
    def test_masks_and_fully_masked_rows(self, rng, causal):
        n = 12
        q, k, v = rng.normal(size=(3, n, 4))
        mask = rng.random((n, n)) < 0.4
        mask[2] = False                                # a query that may look at nothing
        full_mask = mask & causal_mask(n) if causal else mask
        ref, _ = scaled_dot_product_attention(q, k, v, mask=full_mask)
        out = tiled_attention(q, k, v, block_size=5, mask=mask, causal=causal)
        np.testing.assert_allclose(out, ref, rtol=0, atol=TOL)
        assert (out[2] == 0.0).all() and np.isfinite(out).all()

    def test_a_whole_block_masked_for_some_rows(self, rng):
        # row 0 sees nothing in the first two blocks: m stays -inf there, then recovers
        n = 10
        q, k, v = rng.normal(size=(3, n, 4))
        mask = np.ones((n, n), dtype=bool)
        mask[0, :8] = False
        ref, _ = scaled_dot_product_attention(q, k, v, mask=mask)
        np.testing.assert_allclose(tiled_attention(q, k, v, block_size=4, mask=mask), ref,
                                   rtol=0, atol=TOL)

    def test_batched_with_broadcast(self, rng):
        q = rng.normal(size=(2, 3, 7, 4))              # (batch, heads, n_q, d_k)
        k = rng.normal(size=(2, 1, 9, 4))              # shared by every head
        v = rng.normal(size=(2, 1, 9, 6))
        mask = rng.random((2, 1, 7, 9)) < 0.7
        ref, _ = scaled_dot_product_attention(q, k, v, mask=mask)
        out = tiled_attention(q, k, v, block_size=4, mask=mask)
        assert out.shape == (2, 3, 7, 6)
        np.testing.assert_allclose(out, ref, rtol=0, atol=TOL)

    def test_large_logits_and_scale(self, rng):
        q, k, v = rng.normal(scale=30, size=(3, 20, 4))
        for scale in (None, 2.0):
            ref, _ = scaled_dot_product_attention(q, k, v, scale=scale)
            out = tiled_attention(q, k, v, block_size=6, scale=scale)
            np.testing.assert_allclose(out, ref, rtol=0, atol=1e-10 * np.abs(v).max())

    def test_against_torch(self, rng):
        torch = pytest.importorskip("torch")
        q, k, v = rng.normal(size=(3, 2, 3, 17, 8))
        t = torch.from_numpy
        ref = torch.nn.functional.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True)
        out = tiled_attention(q, k, v, block_size=5, causal=True)
        np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=1e-10)


class TestNeverBuildsTheTable:
    def test_scores_never_wider_than_a_block(self, rng, monkeypatch):
        # every matmul that tiled_attention makes has at most block_size columns of keys
        import attnkit.tiled as tiled
        widths = []
        real_exp = np.exp

        def spy_exp(a, *args, **kwargs):
            widths.append(np.shape(a)[-1])
            return real_exp(a, *args, **kwargs)

        monkeypatch.setattr(tiled.np, "exp", spy_exp)
        q, k, v = rng.normal(size=(3, 50, 4))
        tiled_attention(q, k, v, block_size=8)
        monkeypatch.undo()
        assert widths and max(widths) <= 8

    def test_measured_memory_grows_like_n_times_block(self):
        ns = [256, 512, 1024]
        full, tiled = attention_peak_bytes(ns, d_k=16, block_size=32)
        # full attention holds (n, n) float64 arrays: at least 8 n^2 bytes at its peak
        assert all(f >= 8 * n * n for f, n in zip(full, ns))
        # doubling n roughly quadruples the full peak and only doubles the tiled one
        assert full[2] / full[1] > 3.5 and tiled[2] / tiled[1] < 2.5
        # tiled: a few (n, block) and (n, d) arrays, far below one (n, n) table
        assert all(t < 8 * n * (32 + 16) * 4 for t, n in zip(tiled, ns))
        assert tiled[2] * 10 < full[2]

    def test_peak_bytes_counts_a_temporary(self):
        assert peak_bytes(lambda: np.ones(10_000).sum()) >= 80_000


class TestOnlineSoftmaxTrace:
    @pytest.mark.parametrize("block_size", [1, 2, 3, 7, 20])
    def test_final_weights_are_softmax(self, rng, block_size):
        scores = rng.normal(scale=3, size=17)
        t = online_softmax_trace(scores, block_size)
        np.testing.assert_allclose(t.weights, softmax(scores), rtol=0, atol=1e-15)
        assert len(t) == -(-17 // block_size)

    def test_running_max_and_sum_after_each_block(self, rng):
        scores = rng.normal(scale=3, size=10)
        t = online_softmax_trace(scores, 3)
        for b, stop in enumerate(t.stops):
            seen = scores[:stop]
            assert t.running_max[b] == seen.max()
            np.testing.assert_allclose(t.running_sum[b], np.exp(seen - seen.max()).sum(),
                                       rtol=1e-14, atol=0)
        assert (np.diff(t.running_max) >= 0).all()


class TestBadInput:
    @pytest.mark.parametrize("block_size, shown", [(0, "0 (int)"), (-3, "-3 (int)"),
                                                   (2.0, "2.0 (float)"), (True, "True (bool)")])
    def test_block_size(self, block_size, shown):
        q = np.ones((3, 2))
        raises_clean(f"block_size must be a positive integer (how many keys one block holds), "
                     f"got {shown}", tiled_attention, q, q, q, block_size=block_size)
        raises_clean("block_size must be a positive integer", online_softmax_trace, [1.0], block_size)

    def test_shapes(self):
        raises_clean("q and k must have the same last dimension d_k: got q (3, 4) and k (5, 8)",
                     tiled_attention, np.ones((3, 4)), np.ones((5, 8)), np.ones((5, 2)))
        raises_clean("k and v must have the same number of rows n_k: got k (5, 4) and v (6, 2)",
                     tiled_attention, np.ones((3, 4)), np.ones((5, 4)), np.ones((6, 2)))

    def test_mask_shape(self):
        q = np.ones((3, 2))
        raises_clean("mask of shape (2, 3) does not broadcast to the scores (..., n_q, n_k) of "
                     "shape (3, 3)", tiled_attention, q, q, q, mask=np.ones((2, 3), bool))

    def test_causal_not_bool(self):
        q = np.ones((3, 2))
        raises_clean("causal must be True or False, got 'yes' (str)", tiled_attention, q, q, q,
                     causal="yes")

    def test_trace_needs_one_row(self):
        raises_clean("scores must be one row of shape (n,), got shape (2, 2)",
                     online_softmax_trace, np.ones((2, 2)), 1)
