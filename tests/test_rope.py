"""Tests for attnkit.rope: rotary position embedding, against its definition and transformers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnkit import position
from attnkit.rope import (
    LLAMA3_SCALING,
    apply_rope,
    llama3_pair_groups,
    offset_spread,
    rope,
    rope_cos_sin,
    rope_frequencies,
    rope_score_table,
    rope_wavelengths,
    rotate_half,
)

from hf_reference import hf, tensor
from test_core import raises_clean

TOL = 1e-12


@pytest.fixture
def rng():
    return np.random.default_rng(25)


def rotate_pairs_by_hand(x, positions, base, pairs):
    """Each pair (a, b) of columns turned by position * base**(-2i/d), with plain math."""
    n, d = x.shape
    out = np.array(x, dtype=float)
    for row, p in enumerate(positions):
        for i, (ca, cb) in enumerate(pairs(d)):
            theta = p * base ** (-2 * i / d)
            a, b = x[row, ca], x[row, cb]
            out[row, ca] = a * math.cos(theta) - b * math.sin(theta)
            out[row, cb] = b * math.cos(theta) + a * math.sin(theta)
    return out


def half_pairs(d):
    return [(i, i + d // 2) for i in range(d // 2)]


def interleaved_pairs(d):
    return [(2 * i, 2 * i + 1) for i in range(d // 2)]


class TestDefinition:
    @pytest.mark.parametrize("pairing, pairs", [("half", half_pairs), ("interleaved", interleaved_pairs)])
    def test_each_pair_turned_by_its_angle(self, rng, pairing, pairs):
        x = rng.normal(size=(7, 10))
        positions = [0, 1, 2, 5, 9, 100, 4096]
        for base in (10000.0, 500000.0):
            expected = rotate_pairs_by_hand(x, positions, base, pairs)
            np.testing.assert_allclose(rope(x, positions, base=base, pairing=pairing), expected,
                                       rtol=0, atol=TOL)

    def test_the_two_pairings_differ(self, rng):
        # a deliberately wrong pairing must be caught: the conventions are not interchangeable
        x = rng.normal(size=(5, 8))
        assert np.abs(rope(x) - rope(x, pairing="interleaved")).max() > 0.1

    def test_interleaved_is_chapter_4s_rope(self, rng):
        x = rng.normal(size=(6, 8))
        np.testing.assert_allclose(rope(x, pairing="interleaved"), position.rope(x), rtol=0, atol=TOL)

    def test_pairings_are_a_column_permutation(self, rng):
        x = rng.normal(size=(6, 8))
        perm = np.array([c for pair in half_pairs(8) for c in pair])   # half pair i -> columns 2i, 2i+1
        np.testing.assert_allclose(rope(x)[:, perm], rope(x[:, perm], pairing="interleaved"),
                                   rtol=0, atol=TOL)

    def test_lengths_kept_and_position_zero_untouched(self, rng):
        x = rng.normal(size=(9, 6))
        r = rope(x)
        np.testing.assert_allclose(np.linalg.norm(r, axis=1), np.linalg.norm(x, axis=1), rtol=1e-13)
        np.testing.assert_array_equal(r[0], x[0])

    def test_rotate_half(self):
        np.testing.assert_array_equal(rotate_half([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]),
                                      [[-4.0, -5.0, -6.0, 1.0, 2.0, 3.0]])

    def test_leading_axes(self, rng):
        x = rng.normal(size=(2, 3, 5, 4))
        r = rope(x)
        for a in range(2):
            for h in range(3):
                np.testing.assert_allclose(r[a, h], rope(x[a, h]), rtol=0, atol=TOL)


class TestOnlyTheOffsetSurvives:
    @pytest.mark.parametrize("pairing", ["half", "interleaved"])
    def test_score_table_constant_along_diagonals(self, rng, pairing):
        q, k = rng.normal(size=(2, 16))
        table = rope_score_table(q, k, 60, pairing=pairing)
        assert offset_spread(table) < 1e-12
        # and it is not constant everywhere: the offset matters
        assert np.ptp(table) > 0.5

    def test_offset_zero_is_the_plain_dot_product(self, rng):
        q, k = rng.normal(size=(2, 8))
        table = rope_score_table(q, k, 5)                 # both turned by the same angle
        np.testing.assert_allclose(np.diag(table), np.full(5, q @ k), rtol=1e-12)

    def test_offset_spread_detects_absolute_position(self, rng):
        # adding an absolute encoding instead (chapter 4) makes the score depend on i, not i - j
        q, k = rng.normal(size=(2, 8))
        pe = position.sinusoidal_positional_encoding(20, 8)
        table = (q + pe) @ (k + pe).T
        assert offset_spread(table) > 0.1


class TestFrequencies:
    def test_base_and_wavelengths(self):
        w = rope_frequencies(128, base=500000.0)
        assert w[0] == 1.0 and w.shape == (64,)
        np.testing.assert_allclose(w, 500000.0 ** (-np.arange(0, 128, 2) / 128), rtol=1e-15)
        np.testing.assert_allclose(rope_wavelengths(128, 500000.0), 2 * np.pi / w, rtol=1e-15)

    def test_linear_scaling_is_position_interpolation(self, rng):
        x = rng.normal(size=(5, 8))
        positions = np.array([0, 3, 8, 13, 40])
        scaled = rope(x, positions, scaling={"rope_type": "linear", "factor": 4.0})
        np.testing.assert_allclose(scaled, rope(x, positions / 4.0), rtol=0, atol=TOL)

    def test_llama3_keeps_fast_pairs_and_stretches_slow_ones(self):
        w = rope_frequencies(128, 500000.0)
        s = rope_frequencies(128, 500000.0, LLAMA3_SCALING)
        wavelength = 2 * np.pi / w
        fast, slow = wavelength < 8192 / 4, wavelength > 8192 / 1
        assert fast.any() and slow.any() and (~fast & ~slow).any()
        np.testing.assert_array_equal(s[fast], w[fast])
        np.testing.assert_allclose(s[slow], w[slow] / 8, rtol=1e-15)
        mid = ~fast & ~slow
        assert np.all(s[mid] < w[mid]) and np.all(s[mid] > w[mid] / 8)


class TestAgainstTransformers:
    def test_apply_rotary_pos_emb(self, rng):
        torch, _ = hf()
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
        q = rng.normal(size=(2, 4, 9, 16))       # (batch, heads, n, d_head)
        k = rng.normal(size=(2, 2, 9, 16))
        positions = np.arange(9) + 3
        cos, sin = rope_cos_sin(positions, 16, base=500000.0)
        ref_q, ref_k = apply_rotary_pos_emb(tensor(q), tensor(k), tensor(cos)[None], tensor(sin)[None])
        assert ref_q.dtype == torch.float64
        np.testing.assert_allclose(apply_rope(q, cos, sin), ref_q.numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(apply_rope(k, cos, sin), ref_k.numpy(), rtol=0, atol=TOL)
        # the other pairing is not what Llama computes
        assert np.abs(apply_rope(q, cos, sin, pairing="interleaved") - ref_q.numpy()).max() > 0.1

    def test_interleaved_against_deepseek(self, rng):
        hf()
        from transformers.models.deepseek_v3.modeling_deepseek_v3 import apply_rotary_pos_emb_interleave
        q, k = rng.normal(size=(2, 1, 3, 7, 8))
        cos, sin = rope_cos_sin(7, 8)
        ref_q, ref_k = apply_rotary_pos_emb_interleave(tensor(q), tensor(k), tensor(cos)[None],
                                                       tensor(sin)[None])
        # DeepSeek's function also lays the turned pairs out as [firsts, seconds]
        perm = np.concatenate([np.arange(0, 8, 2), np.arange(1, 8, 2)])
        np.testing.assert_allclose(apply_rope(q, cos, sin, pairing="interleaved")[..., perm],
                                   ref_q.numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(apply_rope(k, cos, sin, pairing="interleaved")[..., perm],
                                   ref_k.numpy(), rtol=0, atol=TOL)

    @pytest.mark.parametrize("base, scaling", [
        (10000.0, None),
        (500000.0, None),
        (10000.0, {"rope_type": "linear", "factor": 4.0}),
        (500000.0, LLAMA3_SCALING),
    ])
    def test_rotary_embedding_tables(self, base, scaling):
        torch, transformers = hf()
        from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
        from hf_reference import tiny
        rope_parameters = {"rope_type": "default", "rope_theta": base}
        if scaling is not None:
            rope_parameters = {**scaling, "rope_theta": base}
        config = tiny(transformers.LlamaConfig, hidden_size=256, num_attention_heads=2,
                      num_key_value_heads=1, max_position_embeddings=131072,
                      rope_parameters=rope_parameters)
        emb = LlamaRotaryEmbedding(config).double()
        positions = np.array([0, 1, 2, 7, 50, 300, 1000, 5000])
        x = torch.zeros(1, len(positions), 128, dtype=torch.float64)
        ref_cos, ref_sin = emb(x, torch.from_numpy(positions)[None])
        cos, sin = rope_cos_sin(positions, 128, base, scaling)
        # the frequencies: transformers makes them in float32 (base ** (arange / d) in float32)
        np.testing.assert_allclose(rope_frequencies(128, base, scaling),
                                   emb.inv_freq.numpy(), rtol=3e-6, atol=0)
        # the tables: angles position * inv_freq in float32, then cos/sin: error ~ angle * 6e-8
        atol = 1e-7 * positions.max()
        np.testing.assert_allclose(cos, ref_cos[0].numpy(), rtol=0, atol=atol)
        np.testing.assert_allclose(sin, ref_sin[0].numpy(), rtol=0, atol=atol)
        # with transformers' own cos/sin as the input, the two rotations agree to float64
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
        q = np.random.default_rng(1).normal(size=(1, 2, len(positions), 128))
        ref_q, _ = apply_rotary_pos_emb(tensor(q), tensor(q), ref_cos, ref_sin)
        np.testing.assert_allclose(apply_rope(q, ref_cos[0].numpy(), ref_sin[0].numpy()), ref_q.numpy(),
                                   rtol=0, atol=TOL)

    def test_llama3_scaling_against_rope_init_functions(self):
        torch, transformers = hf()
        from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
        from hf_reference import tiny
        for head_dim, base, scaling in [
            (128, 500000.0, LLAMA3_SCALING),
            (64, 10000.0, {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
                           "high_freq_factor": 4.0, "original_max_position_embeddings": 512}),
        ]:
            config = tiny(transformers.LlamaConfig, hidden_size=2 * head_dim, num_attention_heads=2,
                          num_key_value_heads=1, rope_parameters={**scaling, "rope_theta": base})
            ref, attention_factor = ROPE_INIT_FUNCTIONS["llama3"](config, "cpu")
            assert attention_factor == 1.0
            np.testing.assert_allclose(rope_frequencies(head_dim, base, scaling), ref.numpy(),
                                       rtol=3e-6, atol=0)
            # the three groups, read off transformers' frequencies
            ratio = ref.numpy() / rope_frequencies(head_dim, base)
            kept = int(np.isclose(ratio, 1, rtol=1e-5).sum())
            stretched = int(np.isclose(ratio, 1 / scaling["factor"], rtol=1e-5).sum())
            assert llama3_pair_groups(head_dim, base, scaling) == (kept, len(ratio) - kept - stretched, stretched)
            # a scaling that stretched every pair (linear) would be far off
            linear = rope_frequencies(head_dim, base, {"rope_type": "linear", "factor": scaling["factor"]})
            assert np.abs(linear / ref.numpy() - 1).max() > 0.5


class TestBadInput:
    def test_odd_width(self):
        raises_clean("the last dimension of x must be even (RoPE turns the numbers in pairs), got 5",
                     rope, np.ones((3, 5)))
        raises_clean("the last dimension of x must be even (RoPE turns the numbers in pairs), got 3",
                     rotate_half, np.ones(3))
        raises_clean("d must be even (RoPE turns the numbers in pairs), got 7", rope_frequencies, 7)

    def test_positions_do_not_match(self):
        raises_clean("positions must give one position per row of x: x has n=3 rows, "
                     "positions has shape (2,)", rope, np.ones((3, 4)), [0, 1])

    def test_positions_shape(self):
        raises_clean("positions must be one position per token, shape (n,), got shape (2, 2)",
                     rope_cos_sin, np.zeros((2, 2)), 4)

    def test_cos_sin_shapes(self):
        cos, sin = rope_cos_sin(3, 4)
        raises_clean("cos and sin must both have shape (n, d) = (2, 4) to match x of shape (2, 4), "
                     "got cos (3, 4) and sin (3, 4)", apply_rope, np.ones((2, 4)), cos, sin)

    def test_pairing(self):
        cos, sin = rope_cos_sin(2, 4)
        raises_clean("pairing must be one of ('half', 'interleaved'), got 'rotate'",
                     apply_rope, np.ones((2, 4)), cos, sin, "rotate")

    def test_base(self):
        raises_clean("base must be a positive finite number, got 0", rope_frequencies, 4, 0)

    @pytest.mark.parametrize("scaling, message", [
        ("linear", "scaling must be None or a dict with a 'rope_type' ('linear' or 'llama3'), got 'linear'"),
        ({"rope_type": "yarn"}, "scaling['rope_type'] must be 'linear' or 'llama3', got 'yarn'"),
        ({"rope_type": "linear", "factor": -2}, "scaling['factor'] must be a positive finite number, got -2"),
        ({"rope_type": "llama3", "factor": 8}, "a 'llama3' scaling needs the keys ['factor', "
         "'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'], missing "
         "['low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings']"),
        ({**LLAMA3_SCALING, "high_freq_factor": 1.0}, "scaling['high_freq_factor'] must be larger "
         "than scaling['low_freq_factor'], got 1.0 and 1.0"),
    ])
    def test_scaling(self, scaling, message):
        raises_clean(message, rope_frequencies, 8, 10000.0, scaling)

    def test_llama3_groups_need_llama3(self):
        raises_clean("scaling must be a 'llama3' scaling dict such as LLAMA3_SCALING, got "
                     "{'rope_type': 'linear', 'factor': 2}", llama3_pair_groups, 8, 10000.0,
                     {"rope_type": "linear", "factor": 2})

    def test_score_table_vectors(self):
        raises_clean("q and k must be two vectors of the same width d, shape (d,), got q (4,) and k (6,)",
                     rope_score_table, np.ones(4), np.ones(6), 3)

    def test_offset_spread_square(self):
        raises_clean("table must be square, shape (n, n), got shape (2, 3)", offset_spread, np.ones((2, 3)))
