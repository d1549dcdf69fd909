"""Tests for attnkit.sinks: softmax with a sink logit, against its definition, plain attention
and transformers' gpt-oss attention; the StreamingLLM cache mask."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnkit.core import causal_mask, scaled_dot_product_attention, softmax
from attnkit.grouped import grouped_query_attention
from attnkit.rope import rope_cos_sin
from attnkit.sinks import (
    attention_with_sink,
    softmax_with_sink,
    streaming_cache_positions,
    streaming_mask,
)
from attnkit.window import sliding_window_mask

from hf_reference import bias, hf, randomize, tensor, tiny, weight_in_out
from test_core import raises_clean

TOL = 1e-10


@pytest.fixture
def rng():
    return np.random.default_rng(120)


class TestDefinition:
    def test_by_hand(self):
        scores, sink = [1.0, -0.5, 2.0], 0.7
        total = sum(math.exp(s) for s in scores) + math.exp(sink)
        np.testing.assert_allclose(softmax_with_sink(scores, sink),
                                   [math.exp(s) / total for s in scores], rtol=1e-15)

    def test_rows_sum_to_one_minus_the_sink_share(self, rng):
        scores = rng.normal(size=(3, 5, 7))
        sink = rng.normal(size=3)
        w = softmax_with_sink(scores, sink[:, None])
        full = softmax(np.concatenate([scores, np.broadcast_to(sink[:, None, None], (3, 5, 1))], -1))
        np.testing.assert_allclose(w.sum(-1), 1 - full[..., -1], rtol=0, atol=1e-15)
        assert (w.sum(-1) < 1).all()

    def test_a_hopeless_sink_is_plain_attention(self, rng):
        q, k, v = rng.normal(size=(3, 2, 6, 4))
        out, w = attention_with_sink(q, k, v, sink=[-800.0, -800.0], mask=causal_mask(6))
        ref, ref_w = scaled_dot_product_attention(q, k, v, mask=causal_mask(6))
        np.testing.assert_allclose(out, ref, rtol=0, atol=1e-15)
        np.testing.assert_allclose(w, ref_w, rtol=0, atol=1e-15)

    def test_a_strong_sink_lets_a_head_read_almost_nothing(self, rng):
        q, k, v = rng.normal(size=(3, 1, 5, 4))
        out, w = attention_with_sink(q, k, v, sink=[30.0])
        assert w.sum(-1).max() < 1e-10 and np.abs(out).max() < 1e-9

    def test_fully_masked_row_gives_everything_to_the_sink(self):
        w = softmax_with_sink([[1.0, 2.0], [1.0, 2.0]], [0.0, 0.0], mask=[[True, True], [False, False]])
        assert np.isfinite(w).all() and (w[1] == 0).all() and w[0].sum() > 0.5

    def test_the_sink_share_is_dropped_not_renormalized(self, rng):
        # a wrong version that renormalizes the kept weights would be plain softmax: differs
        scores = rng.normal(size=(4, 6))
        assert np.abs(softmax_with_sink(scores, np.zeros(4)) - softmax(scores)).max() > 0.01


def gpt_oss_attention(transformers, rng, layer_type, window):
    from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention
    config = tiny(transformers.GptOssConfig, hidden_size=16, num_attention_heads=4,
                  num_key_value_heads=2, head_dim=4, sliding_window=window, num_local_experts=2,
                  layer_types=[layer_type], attn_implementation="eager")
    attn = randomize(GptOssAttention(config, layer_idx=0).double().eval(), rng, 0.3)
    return config, attn


class TestAgainstTransformers:
    @pytest.mark.parametrize("layer_type", ["full_attention", "sliding_attention"])
    def test_gpt_oss_attention(self, rng, layer_type):
        torch, transformers = hf()
        from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask
        b, n, window = 2, 10, 4
        config, attn = gpt_oss_attention(transformers, rng, layer_type, window)
        assert attn.q_proj.bias is not None                 # gpt-oss has biases
        x = rng.normal(size=(b, n, 16))
        cos, sin = rope_cos_sin(n, 4)
        create = create_sliding_window_causal_mask if layer_type == "sliding_attention" else create_causal_mask
        mask = create(config=config, inputs_embeds=tensor(x), attention_mask=None, cache=None,
                      position_ids=torch.arange(n)[None].expand(b, n))
        with torch.no_grad():
            # gpt-oss's cos/sin hold each angle once (half the width): its rotation pairs i, i + d/2
            ref, ref_w = attn(tensor(x), position_embeddings=(tensor(cos[:, :2])[None], tensor(sin[:, :2])[None]),
                              attention_mask=mask)
        ours_mask = sliding_window_mask(n, window) if layer_type == "sliding_attention" else causal_mask(n)
        args = dict(b_q=bias(attn.q_proj), b_k=bias(attn.k_proj), b_v=bias(attn.v_proj), b_o=bias(attn.o_proj))
        ws = [weight_in_out(p) for p in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj)]
        sinks = attn.sinks.detach().numpy()
        out, w = grouped_query_attention(x, *ws, 4, 2, ours_mask, rope=(cos, sin), sink=sinks, **args)
        np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(w, ref_w.numpy(), rtol=0, atol=TOL)
        # without the sinks, the numbers are not gpt-oss's
        plain, _ = grouped_query_attention(x, *ws, 4, 2, ours_mask, rope=(cos, sin), **args)
        assert np.abs(plain - ref.numpy()).max() > 1e-3


class TestStreaming:
    def test_definition(self):
        n, n_sink, window = 12, 2, 3
        mask = streaming_mask(n, n_sink, window)
        for i in range(n):
            kept = {j for j in range(n) if j <= i and (j < n_sink or j > i - window)}
            assert set(np.flatnonzero(mask[i])) == kept

    def test_cache_never_exceeds_sinks_plus_window(self):
        mask = streaming_mask(50, 4, 8)
        assert mask.sum(axis=1).max() == 12

    def test_no_sinks_is_the_sliding_window(self):
        np.testing.assert_array_equal(streaming_mask(9, 0, 3), sliding_window_mask(9, 3))

    def test_positions(self):
        assert streaming_cache_positions(2, 4, 8).tolist() == [0, 1, 2]
        assert streaming_cache_positions(20, 4, 8).tolist() == [0, 1, 2, 3] + list(range(13, 21))


class TestBadInput:
    def test_sink_shape(self):
        raises_clean("sink must broadcast to the leading axes (2, 3) of scores (2, 3, 4), got shape (2,)",
                     softmax_with_sink, np.ones((2, 3, 4)), np.zeros(2))

    def test_sink_for_one_row(self):
        raises_clean("sink must be a single number for one row of scores, got shape (2,)",
                     softmax_with_sink, np.ones(4), np.zeros(2))

    def test_attention_sink_shape(self):
        raises_clean("sink must be one logit per head, broadcastable to the leading axes (2,) of the "
                     "scores (..., n_q, n_k) (for heads: shape (n_heads,)), got shape (3,)",
                     attention_with_sink, np.ones((2, 3, 4)), np.ones((2, 3, 4)), np.ones((2, 3, 4)),
                     np.zeros(3))

    def test_streaming(self):
        raises_clean("n_sink must be a whole number >= 0, got -1", streaming_mask, 5, -1, 2)
        raises_clean("window must be a positive integer, got 0 (int)", streaming_mask, 5, 1, 0)
        raises_clean("t must be a position, a whole number >= 0, got -2", streaming_cache_positions, -2, 1, 2)
