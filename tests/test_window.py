"""Tests for attnkit.window and the window of attnkit.tiled: sliding-window attention against
its definition, causal attention, tiled attention and transformers' Mistral / Gemma 3 / gpt-oss."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit.core import causal_mask, scaled_dot_product_attention
from attnkit.grouped import grouped_query_attention
from attnkit.rope import rope_cos_sin
from attnkit.tiled import tiled_attention, window_tiles
from attnkit.window import (
    receptive_field,
    receptive_field_by_depth,
    receptive_field_formula,
    receptive_field_of_layers,
    sliding_window_mask,
)

from hf_reference import hf, randomize, tensor, tiny, weight_in_out
from test_core import raises_clean

TOL = 1e-10


@pytest.fixture
def rng():
    return np.random.default_rng(4096)


def window_by_loops(n, window, n_k=None):
    n_k = n if n_k is None else n_k
    return np.array([[i + n_k - n - window < j <= i + n_k - n for j in range(n_k)] for i in range(n)])


class TestMask:
    @pytest.mark.parametrize("n, window, n_k", [(1, 1, None), (6, 1, None), (6, 3, None),
                                                (7, 7, None), (3, 2, 9), (4, 10, 6)])
    def test_definition(self, n, window, n_k):
        np.testing.assert_array_equal(sliding_window_mask(n, window, n_k), window_by_loops(n, window, n_k))

    def test_each_query_sees_window_keys_itself_included(self):
        mask = sliding_window_mask(20, 5)
        np.testing.assert_array_equal(mask.sum(axis=1), np.minimum(np.arange(1, 21), 5))
        assert mask.diagonal().all()

    @pytest.mark.parametrize("window", [9, 10, 1000])
    def test_window_at_least_n_is_causal(self, window):
        np.testing.assert_array_equal(sliding_window_mask(9, window), causal_mask(9))

    def test_window_one_sees_only_itself(self):
        np.testing.assert_array_equal(sliding_window_mask(5, 1), np.eye(5, dtype=bool))

    def test_attention_with_a_window_at_least_n_is_causal_attention(self, rng):
        q, k, v = rng.normal(size=(3, 8, 4))
        windowed, _ = scaled_dot_product_attention(q, k, v, mask=sliding_window_mask(8, 8))
        causal, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(8))
        np.testing.assert_array_equal(windowed, causal)
        narrow, _ = scaled_dot_product_attention(q, k, v, mask=sliding_window_mask(8, 3))
        assert np.abs(narrow - causal).max() > 1e-3


class TestReceptiveField:
    @pytest.mark.parametrize("n_layers, window", [(1, 1), (1, 5), (2, 3), (3, 4), (5, 2), (4, 7)])
    def test_masks_formula_and_banded_agree(self, n_layers, window):
        by_masks = receptive_field_by_depth(n_layers, window)
        assert by_masks[-1] == receptive_field_formula(n_layers, window) == receptive_field(n_layers, window)
        np.testing.assert_array_equal(by_masks, [receptive_field_formula(L, window) if L else 1
                                                 for L in range(n_layers + 1)])

    def test_by_brute_force_paths(self):
        # which inputs can change the last output of L stacked window layers: follow every
        # path of reads, one layer at a time, with sets
        n, window, n_layers = 15, 3, 4
        reach = {n - 1}
        for _ in range(n_layers):
            reach = {j for i in reach for j in range(n) if i - window < j <= i}
        assert len(reach) == receptive_field(n_layers, window, n) == 9

    def test_short_sequences_are_cut(self):
        assert receptive_field(32, 4096, n=500) == 500
        assert receptive_field_by_depth(3, 4, n=6).tolist() == [1, 4, 6, 6]

    def test_the_other_convention_differs(self):
        # attn-gym counts q - kv <= w (w + 1 keys): after L layers L * w + 1 positions
        n, w, L = 30, 4, 3
        wider = window_by_loops(n, w + 1).astype(int)
        reach = np.eye(n, dtype=int)
        for _ in range(L):
            reach = (wider @ reach > 0).astype(int)
        assert reach[-1].sum() == L * w + 1 != receptive_field(L, w)

    @pytest.mark.parametrize("windows", [[3], [None], [2, 5, 3], [3, None, 2], [2, 2, 2, 2, 2, None],
                                         [4, 4, 4, 4, 4, 4]])
    def test_mixed_layers_by_masks(self, windows):
        n = 30
        reach = np.eye(n, dtype=int)
        for w in windows:                                   # bottom layer first
            mask = (causal_mask(n) if w is None else sliding_window_mask(n, w)).astype(int)
            reach = (mask @ reach > 0).astype(int)
        assert reach[-1].sum() == receptive_field_of_layers(windows, n)

    def test_mixed_equals_uniform(self):
        assert receptive_field_of_layers([7] * 5, 200) == receptive_field(5, 7, 200)

    def test_real_size(self):
        assert receptive_field(32, 4096) == 32 * 4095 + 1


class TestTiled:
    @pytest.mark.parametrize("n, window, block_size", [(1, 1, 1), (10, 1, 3), (17, 4, 4), (17, 4, 5),
                                                       (33, 8, 3), (20, 25, 6), (64, 16, 16)])
    def test_equals_full_attention_with_the_mask(self, rng, n, window, block_size):
        q, k = rng.normal(size=(2, 2, n, 6))
        v = rng.normal(size=(2, n, 3))
        ref, _ = scaled_dot_product_attention(q, k, v, mask=sliding_window_mask(n, window))
        out = tiled_attention(q, k, v, block_size=block_size, window=window)
        np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)

    @pytest.mark.parametrize("n_q, n_k", [(1, 40), (5, 40), (40, 40)])
    def test_new_queries_reading_a_cache(self, rng, n_q, n_k):
        q = rng.normal(size=(n_q, 4))
        k, v = rng.normal(size=(2, n_k, 4))
        for window in (1, 3, 16, 100):
            ref, _ = scaled_dot_product_attention(q, k, v, mask=sliding_window_mask(n_q, window, n_k))
            np.testing.assert_allclose(tiled_attention(q, k, v, block_size=4, window=window), ref,
                                       rtol=0, atol=1e-12)

    def test_more_queries_than_keys(self, rng):
        # the queries are the last n_q positions, so the first ones stand before every key
        q = rng.normal(size=(10, 4))
        k, v = rng.normal(size=(2, 4, 4))
        for window in (1, 2, 5):
            ref, _ = scaled_dot_product_attention(q, k, v, mask=window_by_loops(10, window, 4))
            out = tiled_attention(q, k, v, block_size=3, window=window)
            np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)
            assert (out[:6] == 0).all()

    def test_with_another_mask(self, rng):
        n = 12
        q, k, v = rng.normal(size=(3, n, 4))
        mask = rng.random((n, n)) < 0.6
        ref, _ = scaled_dot_product_attention(q, k, v, mask=mask & sliding_window_mask(n, 5))
        np.testing.assert_allclose(tiled_attention(q, k, v, block_size=3, mask=mask, window=5), ref,
                                   rtol=0, atol=1e-12)

    def test_blocks_outside_the_window_are_skipped(self, rng, monkeypatch):
        import attnkit.tiled as tiled
        n, window, block_size = 256, 16, 16
        tiles = window_tiles(n, n, block_size, window)
        assert len(tiles) == n // block_size                # each block still meets someone ...
        work = sum((stop - start) * (hi - lo) for start, stop, lo, hi in tiles)
        assert work <= n * (block_size + window)            # ... but only the queries near it
        assert work < n * n / 7
        # and tiled_attention computes exactly those tiles: count the scores it makes
        seen = []
        real = tiled.window_tiles
        monkeypatch.setattr(tiled, "window_tiles", lambda *a: seen.extend(real(*a)) or real(*a))
        q, k, v = rng.normal(size=(3, n, 4))
        tiled_attention(q, k, v, block_size=block_size, window=window)
        assert seen == tiles

    def test_a_key_outside_every_window_is_never_read(self, rng):
        # keys so large that any score with them overflows: tiled attention must not touch them
        n_q, n_k = 4, 64
        q = np.abs(rng.normal(size=(n_q, 4))) + 1.0
        k, v = rng.normal(size=(2, n_k, 4))
        k[:32] = 1e308                                      # q . k > 4e308: infinity
        out = tiled_attention(q, k, v, block_size=8, window=20)
        ref, _ = scaled_dot_product_attention(q, k[32:], v[32:], mask=sliding_window_mask(n_q, 20, 32))
        np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)
        with pytest.raises(ValueError, match="overflowed"):
            tiled_attention(q, k, v, block_size=8)


def mistral_attention(transformers, rng, window, implementation="sdpa"):
    from transformers.models.mistral.modeling_mistral import MistralAttention
    config = tiny(transformers.MistralConfig, hidden_size=16, num_attention_heads=4,
                  num_key_value_heads=2, head_dim=4, sliding_window=window,
                  attn_implementation=implementation)
    return config, randomize(MistralAttention(config, layer_idx=0).double().eval(), rng, 0.25)


def hf_mask(torch, create, config, b, n):
    """The boolean mask transformers builds (True = may attend), (n, n) for the first batch row."""
    mask = create(config=config, inputs_embeds=torch.zeros(b, n, config.hidden_size, dtype=torch.float64),
                  attention_mask=None, cache=None,
                  position_ids=torch.arange(n)[None].expand(b, n))
    if mask is None:                   # sdpa lets is_causal do it when the window covers everything
        return None
    mask = mask[0, 0].numpy()
    return mask if mask.dtype == bool else mask == 0


class TestAgainstTransformers:
    @pytest.mark.parametrize("window", [1, 3, 5, 12])
    def test_mistral_attention(self, rng, window):
        torch, transformers = hf()
        from transformers.masking_utils import create_sliding_window_causal_mask
        b, n = 2, 11
        for implementation, tol in (("sdpa", TOL), ("eager", 1e-6)):
            config, attn = mistral_attention(transformers, rng, window, implementation)
            x = rng.normal(size=(b, n, 16))
            cos, sin = rope_cos_sin(n, 4)
            mask = create_sliding_window_causal_mask(
                config=config, inputs_embeds=tensor(x), attention_mask=None, cache=None,
                position_ids=torch.arange(n)[None].expand(b, n))
            with torch.no_grad():
                ref, _ = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                              attention_mask=mask)
            ws = [weight_in_out(p) for p in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj)]
            out, _ = grouped_query_attention(x, *ws, 4, 2, sliding_window_mask(n, window), rope=(cos, sin))
            np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=tol)
            if window < n:                       # the off-by-one would show
                wider, _ = grouped_query_attention(x, *ws, 4, 2, sliding_window_mask(n, window + 1),
                                                   rope=(cos, sin))
                assert np.abs(wider - ref.numpy()).max() > 1e-4

    @pytest.mark.parametrize("window", [1, 2, 4, 7])
    def test_masks_of_mistral_gemma3_and_gpt_oss(self, window):
        torch, transformers = hf()
        from transformers.masking_utils import create_sliding_window_causal_mask
        n = 10
        configs = [
            tiny(transformers.MistralConfig, hidden_size=8, num_attention_heads=2, num_key_value_heads=1,
                 sliding_window=window, attn_implementation="sdpa"),
            tiny(transformers.Gemma3TextConfig, hidden_size=8, num_attention_heads=2, num_key_value_heads=1,
                 head_dim=4, sliding_window=window, attn_implementation="sdpa"),
            tiny(transformers.GptOssConfig, hidden_size=8, num_attention_heads=2, num_key_value_heads=1,
                 head_dim=4, sliding_window=window, num_local_experts=2, attn_implementation="eager"),
        ]
        for config in configs:
            mask = hf_mask(torch, create_sliding_window_causal_mask, config, 1, n)
            expected = sliding_window_mask(n, window)
            if mask is None:
                assert window >= n
                continue
            np.testing.assert_array_equal(mask, expected, err_msg=type(config).__name__)

    def test_gemma3_and_gpt_oss_layer_patterns(self):
        _, transformers = hf()
        from attnkit.kv_bytes import MODELS
        gemma = transformers.Gemma3TextConfig(num_hidden_layers=MODELS["gemma-3-27b"].n_layers)
        assert gemma.layer_types.count("sliding_attention") == MODELS["gemma-3-27b"].n_sliding_layers
        oss = transformers.GptOssConfig(num_hidden_layers=MODELS["gpt-oss-120b"].n_layers)
        assert oss.layer_types.count("sliding_attention") == MODELS["gpt-oss-120b"].n_sliding_layers


class TestBadInput:
    @pytest.mark.parametrize("window", [0, -3, 2.0, True, None])
    def test_window(self, window):
        raises_clean("window must be a whole number >= 1 (how many keys a query sees, itself "
                     f"included), got {window!r}", sliding_window_mask, 5, window)

    def test_window_in_tiled(self):
        raises_clean("window must be a whole number >= 1", tiled_attention,
                     np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), window=0)

    def test_more_queries_than_keys(self):
        raises_clean("n_k must be at least n (the queries are the last n of the n_k positions), "
                     "got n=5 and n_k=3", sliding_window_mask, 5, 2, 3)

    def test_receptive_field(self):
        raises_clean("n_layers must be a positive integer, got 0 (int)", receptive_field, 0, 4)
        raises_clean("window must be a whole number >= 1", receptive_field_by_depth, 2, 0)

    def test_mixed_layers(self):
        raises_clean("windows must list at least one layer (an int window, or None for full)",
                     receptive_field_of_layers, [], 5)
        raises_clean("window must be a whole number >= 1", receptive_field_of_layers, [2, 0], 5)

    def test_window_tiles(self):
        raises_clean("block_size must be a positive integer", window_tiles, 4, 4, 0)
        raises_clean("n_q must be a positive integer, got 0 (int)", window_tiles, 0, 4, 2)
        raises_clean("window must be a whole number >= 1", window_tiles, 4, 4, 2, 0)
