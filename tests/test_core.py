"""Tests for attnkit.core: properties, independent references, bad input.

Three independent checks of the numbers:
  * properties that must hold for any input (rows sum to 1, masking, ...);
  * a plain-Python reference (math.exp and nested loops) in this file;
  * PyTorch (skipped when torch is not installed).
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import attnkit
from attnkit import (
    causal_mask,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    sinusoidal_positional_encoding,
    softmax,
    split_heads,
)

TOL = 1e-10


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)


def random_mha_weights(rng, d_model):
    """w_q, w_k, w_v, w_o, each (d_model, d_model), scaled like a real init."""
    return tuple(rng.normal(scale=1 / math.sqrt(d_model), size=(d_model, d_model)) for _ in range(4))


# ==========================================================================
# An independent plain-Python reference: lists, math.exp, nested loops.
# ==========================================================================

def py_softmax(row, keep=None):
    """softmax of a list of floats over the entries with keep[j] True."""
    kept = [j for j in range(len(row)) if keep is None or keep[j]]
    if not kept:
        return [0.0] * len(row)
    m = max(row[j] for j in kept)
    e = [math.exp(row[j] - m) if j in kept else 0.0 for j in range(len(row))]
    s = sum(e)
    return [ej / s for ej in e]


def py_matmul(a, b):
    return [[sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def py_attention(q, k, v, mask=None, scale=None):
    """Attention on 2-D lists: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v)."""
    n_q, d_k, n_k, d_v = len(q), len(q[0]), len(k), len(v[0])
    if scale is None:
        scale = 1.0 / math.sqrt(d_k)
    out, weights = [], []
    for i in range(n_q):
        scores = [scale * sum(q[i][t] * k[j][t] for t in range(d_k)) for j in range(n_k)]
        w = py_softmax(scores, None if mask is None else mask[i])
        weights.append(w)
        out.append([sum(w[j] * v[j][c] for j in range(n_k)) for c in range(d_v)])
    return out, weights


def py_multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=None):
    """MHA on 2-D lists, one head at a time on its slice of columns."""
    d_model = len(x[0])
    d_head = d_model // n_heads
    q, k, v = py_matmul(x, w_q), py_matmul(x, w_k), py_matmul(x, w_v)
    concat = [[] for _ in x]
    all_weights = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out_h, w_h = py_attention([r[cols] for r in q], [r[cols] for r in k],
                                  [r[cols] for r in v], mask)
        all_weights.append(w_h)
        for i, row in enumerate(out_h):
            concat[i].extend(row)
    return py_matmul(concat, w_o), all_weights


# ==========================================================================
# softmax
# ==========================================================================

class TestSoftmax:
    def test_matches_plain_python(self, rng):
        x = rng.normal(scale=3, size=(4, 7))
        keep = rng.random((4, 7)) < 0.6
        keep[:, 0] = True
        for i in range(4):
            np.testing.assert_allclose(softmax(x[i]), py_softmax(list(x[i])), rtol=0, atol=TOL)
            np.testing.assert_allclose(softmax(x[i], mask=keep[i]),
                                       py_softmax(list(x[i]), list(keep[i])), rtol=0, atol=TOL)

    def test_sums_to_one_and_in_unit_interval(self, rng):
        x = rng.normal(scale=5, size=(3, 4, 6))
        for axis in (0, 1, 2, -1):
            w = softmax(x, axis=axis)
            assert w.shape == x.shape
            np.testing.assert_allclose(w.sum(axis=axis), 1.0, rtol=0, atol=1e-12)
            assert ((w >= 0) & (w <= 1)).all()

    def test_axis_is_respected(self, rng):
        x = rng.normal(size=(3, 5))
        np.testing.assert_allclose(softmax(x, axis=0), softmax(x.T).T, rtol=0, atol=1e-15)
        assert not np.allclose(softmax(x, axis=0), softmax(x, axis=1))

    def test_shift_invariance(self, rng):
        x = rng.normal(size=(2, 5))
        np.testing.assert_allclose(softmax(x + 123.0), softmax(x), rtol=0, atol=1e-14)

    def test_masked_entries_are_exactly_zero(self, rng):
        x = rng.normal(size=(5, 6))
        keep = rng.random((5, 6)) < 0.5
        keep[:, 2] = True
        w = softmax(x, mask=keep)
        assert (w[~keep] == 0.0).all()
        np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)

    def test_mask_broadcasts(self, rng):
        x = rng.normal(size=(3, 4))
        keep_row = np.array([True, False, True, True])
        np.testing.assert_array_equal(softmax(x, mask=keep_row),
                                      softmax(x, mask=np.broadcast_to(keep_row, (3, 4))))

    def test_fully_masked_slice_is_all_zero_without_warning(self, rng):
        x = rng.normal(size=(3, 4))
        keep = np.ones((3, 4), dtype=bool)
        keep[1] = False
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                w = softmax(x, mask=keep)
        assert (w[1] == 0.0).all()
        assert not np.isnan(w).any()
        np.testing.assert_allclose(w[[0, 2]], softmax(x[[0, 2]]), rtol=0, atol=1e-15)

    def test_fully_masked_along_other_axis(self, rng):
        x = rng.normal(size=(3, 4))
        keep = np.ones((3, 4), dtype=bool)
        keep[:, 2] = False
        w = softmax(x, axis=0, mask=keep)
        assert (w[:, 2] == 0.0).all()
        np.testing.assert_allclose(w[:, [0, 1, 3]].sum(axis=0), 1.0, rtol=0, atol=1e-12)

    @pytest.mark.parametrize("logits", [
        [1e4, -1e4, 0.0],
        [-1e4, -1e4, -1e4],
        [1e4, 1e4],
        [0.0, -720.0, -740.0, -800.0],   # exp of these is subnormal or underflows
    ])
    def test_large_logits_are_stable(self, logits):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                w = softmax(logits)
        assert np.isfinite(w).all()
        assert w.sum() == pytest.approx(1.0, abs=1e-12)
        np.testing.assert_allclose(w, py_softmax(logits), rtol=0, atol=1e-15)

    def test_large_masked_logits_do_not_overflow(self):
        # the masked entry is 2e4 above the kept max: computing exp(x - max) for
        # it would overflow, so the implementation must not touch it
        x = np.array([1e4, -1e4, -1e4 + 1.0])
        keep = np.array([False, True, True])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                w = softmax(x, mask=keep)
        np.testing.assert_allclose(w, [0.0, 1 / (1 + math.e), math.e / (1 + math.e)], rtol=0, atol=1e-15)

    def test_shift_uses_the_max_of_the_kept_entries(self):
        # every kept logit is far below any "big negative" stand-in for -inf
        x = np.array([-1e10, -1e10 + 1.0, 5.0])
        keep = np.array([True, True, False])
        w = softmax(x, mask=keep)
        np.testing.assert_allclose(w, [1 / (1 + math.e), math.e / (1 + math.e), 0.0], rtol=0, atol=1e-15)

    def test_returns_float64_and_does_not_modify_input(self):
        x = np.array([1.0, 2.0, 3.0], dtype=np.float32)
        x_copy = x.copy()
        w = softmax(x)
        assert w.dtype == np.float64
        np.testing.assert_array_equal(x, x_copy)
        assert softmax([1, 2, 3]).dtype == np.float64


# ==========================================================================
# scaled dot-product attention
# ==========================================================================

class TestScaledDotProductAttention:
    def test_matches_plain_python(self, rng):
        q = rng.normal(size=(4, 3))
        k = rng.normal(size=(6, 3))
        v = rng.normal(size=(6, 5))
        out, w = scaled_dot_product_attention(q, k, v)
        ref_out, ref_w = py_attention(q.tolist(), k.tolist(), v.tolist())
        assert out.shape == (4, 5) and w.shape == (4, 6)
        np.testing.assert_allclose(out, ref_out, rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w, rtol=0, atol=TOL)

    def test_matches_plain_python_with_mask_and_scale(self, rng):
        q = rng.normal(size=(5, 4))
        k = rng.normal(size=(5, 4))
        v = rng.normal(size=(5, 2))
        mask = rng.random((5, 5)) < 0.5
        mask[:, 0] = True
        out, w = scaled_dot_product_attention(q, k, v, mask=mask, scale=0.7)
        ref_out, ref_w = py_attention(q.tolist(), k.tolist(), v.tolist(), mask.tolist(), 0.7)
        np.testing.assert_allclose(out, ref_out, rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w, rtol=0, atol=TOL)

    def test_batch_dims_broadcast(self, rng):
        q = rng.normal(size=(2, 1, 3, 4))      # batch (2, 1)
        k = rng.normal(size=(3, 5, 4))         # batch (3,)
        v = rng.normal(size=(3, 5, 2))         # batch (3,)
        mask = rng.random((3, 5)) < 0.7        # (n_q, n_k), shared
        mask[:, 1] = True
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        assert out.shape == (2, 3, 3, 2) and w.shape == (2, 3, 3, 5)
        for a in range(2):
            for b in range(3):
                ref_out, ref_w = py_attention(q[a, 0].tolist(), k[b].tolist(), v[b].tolist(),
                                              mask.tolist())
                np.testing.assert_allclose(out[a, b], ref_out, rtol=0, atol=TOL)
                np.testing.assert_allclose(w[a, b], ref_w, rtol=0, atol=TOL)

    def test_rows_sum_to_one_and_weights_in_unit_interval(self, rng):
        q = rng.normal(scale=4, size=(2, 6, 8))
        k = rng.normal(scale=4, size=(2, 7, 8))
        v = rng.normal(size=(2, 7, 3))
        _, w = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
        assert ((w >= 0) & (w <= 1)).all()

    def test_output_is_convex_combination_of_values(self, rng):
        q, k = rng.normal(size=(2, 5, 4))
        v = rng.normal(size=(5, 3))
        out, _ = scaled_dot_product_attention(q, k, v)
        assert (out <= v.max(axis=0) + 1e-12).all() and (out >= v.min(axis=0) - 1e-12).all()

    def test_default_scale_is_one_over_sqrt_d_k(self, rng):
        q = rng.normal(size=(4, 9))
        k = rng.normal(size=(6, 9))
        v = rng.normal(size=(6, 2))
        default = scaled_dot_product_attention(q, k, v)
        explicit = scaled_dot_product_attention(q, k, v, scale=1 / 3.0)
        unscaled = scaled_dot_product_attention(q, k, v, scale=1.0)
        for a, b in zip(default, explicit):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)
        assert not np.allclose(default[1], unscaled[1])

    def test_permuting_keys_and_values_together_changes_nothing(self, rng):
        q = rng.normal(size=(3, 4))
        k = rng.normal(size=(6, 4))
        v = rng.normal(size=(6, 2))
        perm = rng.permutation(6)
        out, w = scaled_dot_product_attention(q, k, v)
        out_p, w_p = scaled_dot_product_attention(q, k[perm], v[perm])
        np.testing.assert_allclose(out_p, out, rtol=0, atol=1e-12)
        np.testing.assert_allclose(w_p, w[:, perm], rtol=0, atol=1e-15)

    def test_masked_positions_get_exactly_zero_weight(self, rng):
        q = rng.normal(size=(2, 5, 4))
        k = rng.normal(size=(2, 5, 4))
        v = rng.normal(size=(2, 5, 3))
        mask = causal_mask(5)
        _, w = scaled_dot_product_attention(q, k, v, mask=mask)
        assert (w[:, ~mask] == 0.0).all()
        assert (w[:, mask] > 0.0).all()

    def test_masked_keys_and_values_do_not_matter(self, rng):
        q = rng.normal(size=(3, 4))
        k = rng.normal(size=(5, 4))
        v = rng.normal(size=(5, 2))
        mask = np.array([True, False, True, True, False])   # broadcasts over queries
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        k2, v2 = k.copy(), v.copy()
        k2[[1, 4]] = 1e3 * rng.normal(size=(2, 4))
        v2[[1, 4]] = 1e3 * rng.normal(size=(2, 2))
        out2, w2 = scaled_dot_product_attention(q, k2, v2, mask=mask)
        np.testing.assert_array_equal(w2, w)
        np.testing.assert_allclose(out2, out, rtol=0, atol=1e-12)

    def test_fully_masked_row_gives_zero_weights_and_zero_output(self, rng):
        q = rng.normal(size=(4, 3))
        k = rng.normal(size=(5, 3))
        v = rng.normal(size=(5, 2)) + 10.0   # nonzero everywhere
        mask = np.ones((4, 5), dtype=bool)
        mask[2] = False
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        assert (w[2] == 0.0).all() and (out[2] == 0.0).all()
        assert not np.isnan(out).any()
        rows = [0, 1, 3]
        ref_out, ref_w = scaled_dot_product_attention(q[rows], k, v)
        np.testing.assert_allclose(out[rows], ref_out, rtol=0, atol=1e-14)
        np.testing.assert_allclose(w[rows], ref_w, rtol=0, atol=1e-15)

    def test_large_logits_are_stable(self):
        q = np.array([[100.0, 0.0], [0.0, 100.0], [-100.0, -100.0]])
        k = np.array([[100.0, 0.0], [-100.0, 0.0], [0.0, 100.0]])   # scores up to +-1e4 / sqrt(2)
        v = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                out, w = scaled_dot_product_attention(q, k, v, scale=1.0)   # scores up to +-1e4
        assert np.isfinite(out).all() and np.isfinite(w).all()
        np.testing.assert_array_equal(w[0], [1.0, 0.0, 0.0])
        np.testing.assert_array_equal(w[1], [0.0, 0.0, 1.0])
        np.testing.assert_array_equal(w[2], [0.0, 1.0, 0.0])
        np.testing.assert_array_equal(out, [[1.0, 0.0], [2.0, 2.0], [0.0, 1.0]])

    def test_float32_input_gives_float64(self, rng):
        q = rng.normal(size=(3, 4)).astype(np.float32)
        out, w = scaled_dot_product_attention(q, q, q)
        assert out.dtype == np.float64 and w.dtype == np.float64


# ==========================================================================
# causal mask
# ==========================================================================

class TestCausalMask:
    def test_values(self):
        np.testing.assert_array_equal(causal_mask(1), [[True]])
        np.testing.assert_array_equal(
            causal_mask(3),
            [[True, False, False], [True, True, False], [True, True, True]])

    def test_matches_definition(self):
        m = causal_mask(6)
        assert m.dtype == np.bool_ and m.shape == (6, 6)
        for i in range(6):
            for j in range(6):
                assert m[i, j] == (j <= i)

    def test_accepts_numpy_integer(self):
        np.testing.assert_array_equal(causal_mask(np.int64(4)), causal_mask(4))

    def test_output_of_position_i_ignores_later_tokens(self, rng):
        n, d = 6, 4
        q, k, v = rng.normal(size=(3, n, d))
        out, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(n))
        for i in range(n - 1):
            q2, k2, v2 = q.copy(), k.copy(), v.copy()
            q2[i + 1:] = rng.normal(size=(n - i - 1, d))
            k2[i + 1:] = rng.normal(size=(n - i - 1, d))
            v2[i + 1:] = rng.normal(size=(n - i - 1, d))
            out2, _ = scaled_dot_product_attention(q2, k2, v2, mask=causal_mask(n))
            np.testing.assert_allclose(out2[:i + 1], out[:i + 1], rtol=0, atol=1e-14)
            assert not np.allclose(out2[i + 1:], out[i + 1:])   # later positions did change


# ==========================================================================
# split / merge heads and multi-head attention
# ==========================================================================

class TestHeads:
    def test_split_heads_takes_column_slices(self, rng):
        x = rng.normal(size=(2, 5, 12))
        heads = split_heads(x, 3)
        assert heads.shape == (2, 3, 5, 4)
        for h in range(3):
            np.testing.assert_array_equal(heads[:, h], x[..., h * 4:(h + 1) * 4])

    def test_merge_inverts_split(self, rng):
        x = rng.normal(size=(3, 2, 5, 12))
        for n_heads in (1, 2, 3, 4, 6, 12):
            np.testing.assert_array_equal(merge_heads(split_heads(x, n_heads)), x)

    def test_merge_heads_concatenates(self, rng):
        heads = rng.normal(size=(4, 5, 3))       # (n_heads, n, d_head)
        np.testing.assert_array_equal(merge_heads(heads), np.concatenate(list(heads), axis=-1))


class TestMultiHeadAttention:
    def test_matches_plain_python(self, rng):
        n, d_model, n_heads = 4, 6, 3
        x = rng.normal(size=(n, d_model))
        ws = random_mha_weights(rng, d_model)
        mask = causal_mask(n)
        out, w = multi_head_attention(x, *ws, n_heads=n_heads, mask=mask)
        ref_out, ref_w = py_multi_head_attention(x.tolist(), *(a.tolist() for a in ws),
                                                 n_heads, mask.tolist())
        assert out.shape == (n, d_model) and w.shape == (n_heads, n, n)
        np.testing.assert_allclose(out, ref_out, rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w, rtol=0, atol=TOL)

    @pytest.mark.parametrize("n_heads", [1, 2, 4, 8])
    def test_equals_per_head_loop_on_column_slices(self, rng, n_heads):
        n, d_model = 5, 8
        d_head = d_model // n_heads
        x = rng.normal(size=(2, n, d_model))
        w_q, w_k, w_v, w_o = random_mha_weights(rng, d_model)
        out, w = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        head_outs = []
        for h in range(n_heads):
            cols = slice(h * d_head, (h + 1) * d_head)
            out_h, w_h = scaled_dot_product_attention(q[..., cols], k[..., cols], v[..., cols])
            np.testing.assert_allclose(w[:, h], w_h, rtol=0, atol=1e-14)
            head_outs.append(out_h)
        expected = np.concatenate(head_outs, axis=-1) @ w_o
        np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)

    def test_heads_differ_from_single_head(self, rng):
        x = rng.normal(size=(5, 8))
        ws = random_mha_weights(rng, 8)
        out1, _ = multi_head_attention(x, *ws, n_heads=1)
        out4, _ = multi_head_attention(x, *ws, n_heads=4)
        assert not np.allclose(out1, out4)

    def test_permutation_equivariance_without_positions(self, rng):
        n, d_model = 6, 8
        x = rng.normal(size=(n, d_model))
        ws = random_mha_weights(rng, d_model)
        perm = rng.permutation(n)
        out, w = multi_head_attention(x, *ws, n_heads=2)
        out_p, w_p = multi_head_attention(x[perm], *ws, n_heads=2)
        np.testing.assert_allclose(out_p, out[perm], rtol=0, atol=1e-12)
        np.testing.assert_allclose(w_p, w[:, perm][:, :, perm], rtol=0, atol=1e-14)

    def test_adding_positions_breaks_permutation_equivariance(self, rng):
        n, d_model = 6, 8
        x = rng.normal(size=(n, d_model))
        pe = sinusoidal_positional_encoding(n, d_model)
        ws = random_mha_weights(rng, d_model)
        perm = np.roll(np.arange(n), 1)
        out, _ = multi_head_attention(x + pe, *ws, n_heads=2)
        out_p, _ = multi_head_attention(x[perm] + pe, *ws, n_heads=2)
        assert not np.allclose(out_p, out[perm])

    def test_mask_shapes_broadcast(self, rng):
        b, n, d_model, n_heads = 2, 4, 6, 3
        x = rng.normal(size=(b, n, d_model))
        ws = random_mha_weights(rng, d_model)
        m = causal_mask(n)
        out_a, w_a = multi_head_attention(x, *ws, n_heads=n_heads, mask=m)
        out_b, w_b = multi_head_attention(x, *ws, n_heads=n_heads,
                                          mask=np.broadcast_to(m, (b, 1, n, n)))
        assert w_a.shape == (b, n_heads, n, n)
        assert (w_a[..., ~m] == 0.0).all()
        np.testing.assert_array_equal(out_a, out_b)
        np.testing.assert_array_equal(w_a, w_b)

    def test_causal_output_ignores_later_tokens(self, rng):
        n, d_model = 5, 8
        x = rng.normal(size=(n, d_model))
        ws = random_mha_weights(rng, d_model)
        out, _ = multi_head_attention(x, *ws, n_heads=2, mask=causal_mask(n))
        x2 = x.copy()
        x2[3:] = rng.normal(size=(2, d_model))
        out2, _ = multi_head_attention(x2, *ws, n_heads=2, mask=causal_mask(n))
        np.testing.assert_allclose(out2[:3], out[:3], rtol=0, atol=1e-14)
        assert not np.allclose(out2[3:], out[3:])


# ==========================================================================
# sinusoidal positional encoding
# ==========================================================================

class TestPositionalEncoding:
    def test_shape(self):
        assert sinusoidal_positional_encoding(7, 10).shape == (7, 10)
        assert sinusoidal_positional_encoding(1, 1).shape == (1, 1)

    def test_position_zero_is_0_1_0_1(self):
        np.testing.assert_array_equal(sinusoidal_positional_encoding(3, 8)[0],
                                      [0, 1, 0, 1, 0, 1, 0, 1])

    def test_first_pair_is_sin_p_cos_p(self):
        pe = sinusoidal_positional_encoding(50, 6)
        p = np.arange(50)
        np.testing.assert_allclose(pe[:, 0], np.sin(p), rtol=0, atol=1e-15)
        np.testing.assert_allclose(pe[:, 1], np.cos(p), rtol=0, atol=1e-15)

    def test_hand_checked_values(self):
        pe = sinusoidal_positional_encoding(3, 4)
        # column 2 (i=1): p / 10000**(2/4) = p / 100
        assert pe[1, 2] == pytest.approx(math.sin(0.01), abs=1e-15)
        assert pe[2, 3] == pytest.approx(math.cos(0.02), abs=1e-15)
        assert pe[1, 0] == pytest.approx(0.8414709848078965, abs=1e-15)

    @pytest.mark.parametrize("d_model", [2, 8, 16, 5, 7])
    def test_paper_formula(self, d_model):
        n = 20
        pe = sinusoidal_positional_encoding(n, d_model)
        for p in range(n):
            for col in range(d_model):
                i = col // 2
                angle = p / 10000 ** (2 * i / d_model)
                expected = math.sin(angle) if col % 2 == 0 else math.cos(angle)
                assert pe[p, col] == pytest.approx(expected, abs=1e-12)

    def test_odd_d_model_ends_with_a_lone_sine(self):
        pe = sinusoidal_positional_encoding(10, 5)
        p = np.arange(10)
        np.testing.assert_allclose(pe[:, 4], np.sin(p / 10000 ** (4 / 5)), rtol=0, atol=1e-15)
        np.testing.assert_array_equal(pe[0], [0, 1, 0, 1, 0])

    def test_shift_is_a_rotation_of_each_pair(self):
        # [sin(a+b), cos(a+b)] = [[cos b, sin b], [-sin b, cos b]] @ [sin a, cos a]
        d_model, shift = 8, 3
        pe = sinusoidal_positional_encoding(20, d_model)
        for i in range(d_model // 2):
            b = shift / 10000 ** (2 * i / d_model)
            rot = np.array([[math.cos(b), math.sin(b)], [-math.sin(b), math.cos(b)]])
            pair = pe[:, 2 * i:2 * i + 2]                       # (20, 2) rows [sin, cos]
            np.testing.assert_allclose(pair[:-shift] @ rot.T, pair[shift:], rtol=0, atol=1e-12)

    def test_values_bounded(self):
        pe = sinusoidal_positional_encoding(200, 32)
        assert (np.abs(pe) <= 1.0).all()


# ==========================================================================
# PyTorch reference (skipped without torch)
# ==========================================================================

class TestAgainstPyTorch:
    @pytest.fixture(autouse=True)
    def _torch(self):
        self.torch = pytest.importorskip("torch")

    def test_scaled_dot_product_attention(self, rng):
        torch = self.torch
        F = torch.nn.functional
        q = rng.normal(size=(2, 3, 5, 4))
        k = rng.normal(size=(2, 3, 7, 4))
        v = rng.normal(size=(2, 3, 7, 6))
        mask = rng.random((5, 7)) < 0.6
        mask[:, 0] = True                    # no fully masked row: torch gives NaN there
        t = lambda a: torch.from_numpy(np.ascontiguousarray(a))   # noqa: E731
        for scale in (None, 0.3):
            kwargs = {} if scale is None else {"scale": scale}
            ref = F.scaled_dot_product_attention(t(q), t(k), t(v), attn_mask=t(mask), **kwargs)
            out, _ = scaled_dot_product_attention(q, k, v, mask=mask, scale=scale)
            assert ref.dtype == torch.float64
            np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=TOL)
        ref = F.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=False)
        out, _ = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=TOL)

    @pytest.mark.parametrize("use_mask", [False, True])
    def test_multi_head_attention(self, rng, use_mask):
        torch = self.torch
        b, n, d_model, n_heads = 2, 6, 8, 2
        x = rng.normal(size=(b, n, d_model))
        w_q, w_k, w_v, w_o = random_mha_weights(rng, d_model)
        mha = torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True,
                                          dtype=torch.float64)
        with torch.no_grad():
            # torch applies in_proj as x @ W.T, so it holds the transposes
            mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T])))
            mha.out_proj.weight.copy_(torch.from_numpy(np.ascontiguousarray(w_o.T)))
            xt = torch.from_numpy(x)
            mask = causal_mask(n) if use_mask else None
            # torch's MHA bool attn_mask has True = NOT allowed: the opposite of ours
            attn_mask = torch.from_numpy(~mask) if use_mask else None
            ref_out, ref_w = mha(xt, xt, xt, attn_mask=attn_mask, need_weights=True,
                                 average_attn_weights=False)
        out, w = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=mask)
        assert ref_w.shape == w.shape == (b, n_heads, n, n)
        np.testing.assert_allclose(out, ref_out.numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w.numpy(), rtol=0, atol=TOL)

    def test_softmax(self, rng):
        torch = self.torch
        x = rng.normal(scale=10, size=(3, 4, 5))
        for axis in (0, 1, -1):
            ref = torch.softmax(torch.from_numpy(x), dim=axis).numpy()
            np.testing.assert_allclose(softmax(x, axis=axis), ref, rtol=0, atol=TOL)


# ==========================================================================
# bad input: a clear ValueError naming what was received and what was expected
# ==========================================================================

ATTNKIT_DIR = Path(attnkit.__file__).resolve().parent


def raises_clean(message, func, *args, **kwargs):
    """Assert func raises ValueError matching `message` literally, raised by attnkit
    itself with no NumPy exception chained to it."""
    with pytest.raises(ValueError, match=re.escape(message)) as excinfo:
        func(*args, **kwargs)
    err = excinfo.value
    assert err.__context__ is None or err.__suppress_context__, "a NumPy error leaked through"
    assert Path(str(excinfo.traceback[-1].path)).resolve().parent == ATTNKIT_DIR
    return err


def sdpa(q=(3, 4), k=(5, 4), v=(5, 2), **kwargs):
    """Call scaled_dot_product_attention on arrays of ones of the given shapes."""
    mk = lambda s: np.ones(s) if isinstance(s, tuple) else s   # noqa: E731
    return scaled_dot_product_attention(mk(q), mk(k), mk(v), **kwargs)


def mha(x=(4, 10), w_shapes=None, n_heads=2, **kwargs):
    x = np.ones(x) if isinstance(x, tuple) else x
    d = x.shape[-1]
    ws = {name: np.eye(d) for name in ("w_q", "w_k", "w_v", "w_o")}
    for name, s in (w_shapes or {}).items():
        ws[name] = np.ones(s) if isinstance(s, tuple) else s
    return multi_head_attention(x, **ws, n_heads=n_heads, **kwargs)


class TestBadInput:
    # --- scaled_dot_product_attention -----------------------------------------
    def test_d_k_mismatch(self):
        raises_clean("q and k must have the same last dimension d_k: got q (3, 4) and k (5, 8)",
                     sdpa, q=(3, 4), k=(5, 8), v=(5, 2))

    def test_n_k_mismatch(self):
        raises_clean("k and v must have the same number of rows n_k: got k (5, 4) and v (6, 2)",
                     sdpa, k=(5, 4), v=(6, 2))

    @pytest.mark.parametrize("name, layout", [("q", "(..., n_q, d_k)"), ("k", "(..., n_k, d_k)"),
                                              ("v", "(..., n_k, d_v)")])
    def test_too_few_dimensions(self, name, layout):
        raises_clean(f"{name} must have at least 2 dimensions {layout}, got shape (4,)",
                     sdpa, **{name: (4,)})

    def test_scalar_q(self):
        raises_clean("q must have at least 2 dimensions (..., n_q, d_k), got shape ()",
                     sdpa, q=3.0)

    @pytest.mark.parametrize("name", ["q", "k", "v"])
    @pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
    def test_non_finite(self, name, bad):
        shapes = {"q": (3, 4), "k": (5, 4), "v": (5, 2)}
        a = np.ones(shapes[name])
        a[1, 1] = bad
        raises_clean(f"{name} contains NaN or infinity (1 non-finite entry, the first at index (1, 1))",
                     sdpa, **{name: a})

    def test_mask_wrong_shape(self):
        raises_clean("mask of shape (2, 3) does not broadcast to the scores of shape (4, 4)",
                     sdpa, q=(4, 2), k=(4, 2), v=(4, 2), mask=np.ones((2, 3), dtype=bool))

    def test_mask_would_grow_the_scores(self):
        raises_clean("mask of shape (3, 4, 4) does not broadcast to the scores of shape (4, 4)",
                     sdpa, q=(4, 2), k=(4, 2), v=(4, 2), mask=np.ones((3, 4, 4), dtype=bool))

    @pytest.mark.parametrize("mask, dtype", [(np.ones((3, 5), dtype=np.int64), "int64"),
                                             (np.ones((3, 5)), "float64")])
    def test_mask_not_boolean(self, mask, dtype):
        raises_clean(f"mask must be a boolean array (True = keep), got dtype {dtype}",
                     sdpa, mask=mask)

    def test_batch_dims_do_not_broadcast(self):
        raises_clean("the leading batch dimensions do not broadcast: got q (2, 3, 4) with batch "
                     "(2,) and k (3, 5, 4) with batch (3,) and v (3, 5, 2) with batch (3,)",
                     sdpa, q=(2, 3, 4), k=(3, 5, 4), v=(3, 5, 2))

    @pytest.mark.parametrize("scale, shown", [(float("nan"), "nan (float)"), (np.inf, "inf (float)"),
                                              ("0.5", "'0.5' (str)"), (True, "True (bool)"),
                                              (0, "0 (int)"), (-0.5, "-0.5 (float)")])
    def test_bad_scale(self, scale, shown):
        raises_clean(f"scale must be a positive finite number (or None for 1/sqrt(d_k)), got {shown}",
                     sdpa, scale=scale)

    def test_empty_axis(self):
        raises_clean("k must have at least one entry along each of its last 2 dimensions "
                     "(..., n_k, d_k), got shape (0, 4)", sdpa, k=(0, 4), v=(0, 2))

    def test_not_numbers(self):
        raises_clean("q must be an array of real numbers, got dtype <U1", sdpa, q=[["a", "b"]])
        raises_clean("q must be an array of real numbers, got dtype complex128",
                     sdpa, q=np.ones((3, 4), dtype=complex))
        raises_clean("q must be an array of real numbers, got dtype object",
                     sdpa, q=[[1.0, None]])

    def test_ragged(self):
        raises_clean("q must be a rectangular array of real numbers, got a ragged or malformed list",
                     sdpa, q=[[1.0, 2.0], [3.0]])

    def test_scores_overflow(self):
        raises_clean("the scores q @ k^T * scale overflowed to infinity", sdpa,
                     q=np.full((3, 4), 1e200), k=np.full((5, 4), 1e200))

    # --- softmax --------------------------------------------------------------
    def test_softmax_non_finite(self):
        raises_clean("x contains NaN or infinity (2 non-finite entries, the first at index (0, 1))",
                     softmax, [[1.0, -np.inf], [np.nan, 0.0]])

    def test_softmax_mask_wrong_shape(self):
        raises_clean("mask of shape (3,) does not broadcast to x of shape (2, 2)",
                     softmax, np.ones((2, 2)), mask=np.ones(3, dtype=bool))

    def test_softmax_mask_not_boolean(self):
        raises_clean("mask must be a boolean array (True = keep), got dtype int64",
                     softmax, np.ones(3), mask=np.array([1, 0, 1], dtype=np.int64))

    @pytest.mark.parametrize("axis", [2, -3, 1.0])
    def test_softmax_bad_axis(self, axis):
        raises_clean(f"axis={axis!r} is out of range for x of shape (3, 4): "
                     "expected an integer in [-2, 1]", softmax, np.ones((3, 4)), axis=axis)

    def test_softmax_scalar(self):
        raises_clean("x must have at least 1 dimension to take a softmax over, got a scalar",
                     softmax, 2.0)

    def test_softmax_empty_axis(self):
        raises_clean("x must have at least one entry along axis=1 to take a softmax over, "
                     "got shape (3, 0)", softmax, np.ones((3, 0)))

    # --- multi_head_attention, split / merge heads ---------------------------
    def test_not_divisible(self):
        raises_clean("d_model=10 is not divisible by n_heads=3", mha, x=(4, 10), n_heads=3)
        raises_clean("d_model=10 is not divisible by n_heads=3", split_heads, np.ones((4, 10)), 3)

    @pytest.mark.parametrize("name", ["w_q", "w_k", "w_v", "w_o"])
    def test_wrong_weight_shape(self, name):
        raises_clean(f"{name} must have shape (d_model, d_model) = (10, 10) to match x of shape "
                     "(4, 10), got shape (10, 5)", mha, w_shapes={name: (10, 5)})

    def test_non_finite_weight(self):
        w = np.eye(10)
        w[2, 3] = np.nan
        raises_clean("w_v contains NaN or infinity", mha, w_shapes={"w_v": w})

    def test_non_finite_x(self):
        x = np.ones((4, 10))
        x[3, 0] = np.inf
        raises_clean("x contains NaN or infinity (1 non-finite entry, the first at index (3, 0))",
                     mha, x=x)

    def test_mha_x_too_few_dimensions(self):
        raises_clean("x must have at least 2 dimensions (..., n, d_model), got shape (10,)",
                     mha, x=(10,))

    @pytest.mark.parametrize("n_heads, shown", [(0, "0 (int)"), (-2, "-2 (int)"),
                                                (2.0, "2.0 (float)"), (True, "True (bool)"),
                                                (None, "None (NoneType)")])
    def test_bad_n_heads(self, n_heads, shown):
        raises_clean(f"n_heads must be a positive integer, got {shown}", mha, n_heads=n_heads)

    def test_mha_mask_wrong_shape(self):
        raises_clean("mask of shape (3, 3) does not broadcast to the per-head scores "
                     "(..., n_heads, n, n) of shape (2, 4, 4)",
                     mha, mask=np.ones((3, 3), dtype=bool))

    def test_mha_batch_mask_without_head_axis(self):
        raises_clean("mask of shape (3, 4, 4) does not broadcast to the per-head scores "
                     "(..., n_heads, n, n) of shape (3, 2, 4, 4)",
                     mha, x=(3, 4, 10), mask=np.ones((3, 4, 4), dtype=bool))

    def test_mha_mask_not_boolean(self):
        raises_clean("mask must be a boolean array (True = keep), got dtype int64",
                     mha, mask=np.ones((4, 4), dtype=np.int64))

    def test_merge_heads_too_few_dimensions(self):
        raises_clean("x must have at least 3 dimensions (..., n_heads, n, d_head), got shape (4, 4)",
                     merge_heads, np.ones((4, 4)))

    # --- causal_mask, positional encoding ------------------------------------
    @pytest.mark.parametrize("n, shown", [(0, "0 (int)"), (-1, "-1 (int)"), (2.5, "2.5 (float)"),
                                          ("3", "'3' (str)"), (np.float64(3.0), "np.float64(3.0) (float64)")])
    def test_causal_mask_bad_n(self, n, shown):
        raises_clean(f"n must be a positive integer, got {shown}", causal_mask, n)

    @pytest.mark.parametrize("args, message", [
        ((0, 8), "n_positions must be a positive integer, got 0 (int)"),
        ((4, 0), "d_model must be a positive integer, got 0 (int)"),
        ((4.0, 8), "n_positions must be a positive integer, got 4.0 (float)"),
        ((4, -2), "d_model must be a positive integer, got -2 (int)"),
    ])
    def test_positional_encoding_bad_sizes(self, args, message):
        raises_clean(message, sinusoidal_positional_encoding, *args)


def test_public_api():
    assert sorted(attnkit.__all__) == sorted([
        "softmax", "scaled_dot_product_attention", "causal_mask", "split_heads",
        "merge_heads", "multi_head_attention", "sinusoidal_positional_encoding"])
    for name in attnkit.__all__:
        func = getattr(attnkit, name)
        assert func.__doc__ and "Example" in func.__doc__, name


# ==========================================================================
# cross-attention (memory=) and key-padding masks (chapter 9)
# ==========================================================================

class TestCrossAttention:
    def test_equals_attention_on_projections(self, rng):
        n, n_kv, d_model, n_heads = 4, 7, 6, 3
        x = rng.normal(size=(n, d_model))
        memory = rng.normal(size=(n_kv, d_model))
        w_q, w_k, w_v, w_o = random_mha_weights(rng, d_model)
        out, w = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, memory=memory)
        assert out.shape == (n, d_model) and w.shape == (n_heads, n, n_kv)
        q = split_heads(x @ w_q, n_heads)                 # (n_heads, n, d_head)
        k = split_heads(memory @ w_k, n_heads)            # (n_heads, n_kv, d_head)
        v = split_heads(memory @ w_v, n_heads)
        heads, w_ref = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(w, w_ref, rtol=0, atol=1e-14)
        np.testing.assert_allclose(out, merge_heads(heads) @ w_o, rtol=0, atol=1e-12)

    def test_memory_equal_to_x_is_self_attention(self, rng):
        x = rng.normal(size=(2, 5, 8))
        ws = random_mha_weights(rng, 8)
        m = causal_mask(5)
        out_a, w_a = multi_head_attention(x, *ws, n_heads=2, mask=m)
        out_b, w_b = multi_head_attention(x, *ws, n_heads=2, mask=m, memory=x)
        np.testing.assert_array_equal(out_a, out_b)
        np.testing.assert_array_equal(w_a, w_b)

    def test_output_does_not_depend_on_memory_order(self, rng):
        # keys and values move together, so reordering memory only reorders the weight columns
        x, memory = rng.normal(size=(3, 8)), rng.normal(size=(6, 8))
        ws = random_mha_weights(rng, 8)
        perm = rng.permutation(6)
        out, w = multi_head_attention(x, *ws, n_heads=2, memory=memory)
        out_p, w_p = multi_head_attention(x, *ws, n_heads=2, memory=memory[perm])
        np.testing.assert_allclose(out_p, out, rtol=0, atol=1e-12)
        np.testing.assert_allclose(w_p, w[..., perm], rtol=0, atol=1e-14)

    def test_batched_memory(self, rng):
        x, memory = rng.normal(size=(3, 4, 8)), rng.normal(size=(3, 5, 8))
        ws = random_mha_weights(rng, 8)
        out, w = multi_head_attention(x, *ws, n_heads=4, memory=memory)
        assert out.shape == (3, 4, 8) and w.shape == (3, 4, 4, 5)
        for b in range(3):
            out_b, w_b = multi_head_attention(x[b], *ws, n_heads=4, memory=memory[b])
            np.testing.assert_allclose(out[b], out_b, rtol=0, atol=1e-13)
            np.testing.assert_allclose(w[b], w_b, rtol=0, atol=1e-14)


class TestKeyPaddingMask:
    @pytest.mark.parametrize("cross", [False, True])
    def test_padding_gets_zero_weight_and_changes_nothing(self, rng, cross):
        b, n, n_kv, d_model = 2, 4, 6, 8
        x = rng.normal(size=(b, n, d_model))
        memory = rng.normal(size=(b, n_kv, d_model)) if cross else None
        n_keys = n_kv if cross else n
        lengths = [n_keys, n_keys - 2]                     # the second example is padded by 2
        keep = np.arange(n_keys)[None, :] < np.array(lengths)[:, None]   # (b, n_keys)
        ws = random_mha_weights(rng, d_model)
        out, w = multi_head_attention(x, *ws, n_heads=2, memory=memory, key_padding_mask=keep)
        assert (w[1][..., ~keep[1]] == 0.0).all()
        np.testing.assert_allclose(w.sum(-1), 1.0, rtol=0, atol=1e-14)
        # the padded example equals the same example with its padding cut off
        src = memory[1] if cross else x[1]
        short = src[:lengths[1]]
        out_s, w_s = multi_head_attention(x[1] if cross else short, *ws, n_heads=2,
                                          memory=short if cross else None)
        rows = slice(None) if cross else slice(0, lengths[1])
        np.testing.assert_allclose(out[1][rows], out_s, rtol=0, atol=1e-12)
        np.testing.assert_allclose(w[1][:, rows, :lengths[1]], w_s, rtol=0, atol=1e-14)
        # padding values do not leak: change them, nothing the real tokens see moves
        src2 = (memory if cross else x).copy()
        src2[1, lengths[1]:] = rng.normal(size=(n_keys - lengths[1], d_model))
        kw = dict(memory=src2) if cross else {}
        out2, _ = multi_head_attention(x if cross else src2, *ws, n_heads=2,
                                       key_padding_mask=keep, **kw)
        np.testing.assert_allclose(out2[1][rows], out[1][rows], rtol=0, atol=1e-14)

    def test_combines_with_causal_mask(self, rng):
        n = 5
        x = rng.normal(size=(n, 8))
        ws = random_mha_weights(rng, 8)
        keep = np.array([True, True, True, False, False])
        _, w = multi_head_attention(x, *ws, n_heads=2, mask=causal_mask(n), key_padding_mask=keep)
        allowed = causal_mask(n) & keep[None, :]
        assert (w[:, ~allowed] == 0.0).all() and (w[:, allowed] > 0).all()


class TestCrossAttentionAgainstPyTorch:
    @pytest.mark.parametrize("padded", [False, True])
    def test_matches_torch_multihead_attention(self, rng, padded):
        torch = pytest.importorskip("torch")
        b, n, n_kv, d_model, n_heads = 2, 5, 7, 8, 2
        x = rng.normal(size=(b, n, d_model))
        memory = rng.normal(size=(b, n_kv, d_model))
        w_q, w_k, w_v, w_o = random_mha_weights(rng, d_model)
        keep = np.ones((b, n_kv), dtype=bool)
        if padded:
            keep[1, 4:] = False
        mha_t = torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True,
                                            dtype=torch.float64)
        with torch.no_grad():
            mha_t.in_proj_weight.copy_(torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T])))
            mha_t.out_proj.weight.copy_(torch.from_numpy(np.ascontiguousarray(w_o.T)))
            xt, mt = torch.from_numpy(x), torch.from_numpy(memory)
            # torch's key_padding_mask has True = ignore: the opposite of ours
            ref_out, ref_w = mha_t(query=xt, key=mt, value=mt,
                                   key_padding_mask=torch.from_numpy(~keep) if padded else None,
                                   need_weights=True, average_attn_weights=False)
        out, w = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, memory=memory,
                                      key_padding_mask=keep if padded else None)
        assert w.shape == tuple(ref_w.shape) == (b, n_heads, n, n_kv)
        np.testing.assert_allclose(out, ref_out.numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w.numpy(), rtol=0, atol=TOL)


class TestCrossAttentionBadInput:
    def test_memory_d_model_mismatch(self):
        raises_clean("memory must have the same d_model as x: x has shape (4, 10) (d_model=10), "
                     "memory has shape (3, 6) (d_model=6)", mha, memory=np.ones((3, 6)))

    def test_memory_too_few_dimensions(self):
        raises_clean("memory must have at least 2 dimensions (..., n_kv, d_model), got shape (10,)",
                     mha, memory=np.ones(10))

    def test_memory_batch_mismatch(self):
        raises_clean("the leading batch dimensions of x and memory do not broadcast: got x "
                     "(2, 4, 10) with batch (2,) and memory (3, 5, 10) with batch (3,)",
                     mha, x=(2, 4, 10), memory=np.ones((3, 5, 10)))

    def test_memory_not_finite(self):
        memory = np.ones((3, 10))
        memory[1, 2] = np.nan
        raises_clean("memory contains NaN or infinity", mha, memory=memory)

    def test_cross_mask_shape_named(self):
        raises_clean("mask of shape (4, 4) does not broadcast to the per-head scores "
                     "(..., n_heads, n, n_kv) of shape (2, 4, 3)",
                     mha, memory=np.ones((3, 10)), mask=np.ones((4, 4), dtype=bool))

    @pytest.mark.parametrize("kpm, got", [
        (np.ones(3, dtype=bool), "dtype bool and shape (3,)"),
        (np.ones(4, dtype=np.int64), "dtype int64 and shape (4,)"),
        (np.ones((), dtype=bool), "dtype bool and shape ()"),
    ])
    def test_key_padding_mask_bad(self, kpm, got):
        raises_clean("key_padding_mask must be a boolean array of shape (..., n_kv) = (4,) "
                     f"(True = a real token, False = padding), got {got}", mha, key_padding_mask=kpm)

    def test_key_padding_mask_batch_mismatch(self):
        raises_clean("key_padding_mask of shape (3, 4) does not match the batch: expected "
                     "(..., n_kv) = (2, 4)", mha, x=(2, 4, 10), key_padding_mask=np.ones((3, 4), bool))
