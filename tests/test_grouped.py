"""Tests for attnkit.grouped: grouped-query attention, against attnkit's MHA, a per-head loop
and transformers' LlamaAttention."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit.core import causal_mask, multi_head_attention, scaled_dot_product_attention
from attnkit.grouped import grouped_query_attention, repeat_kv
from attnkit.rope import apply_rope, rope_cos_sin

from hf_reference import bias, hf, randomize, tensor, tiny, weight_in_out
from test_core import raises_clean

TOL = 1e-10


@pytest.fixture
def rng():
    return np.random.default_rng(2025)


def random_gqa(rng, d_model, n_heads, n_kv_heads, d_head):
    s = d_model ** -0.5
    return (rng.normal(scale=s, size=(d_model, n_heads * d_head)),
            rng.normal(scale=s, size=(d_model, n_kv_heads * d_head)),
            rng.normal(scale=s, size=(d_model, n_kv_heads * d_head)),
            rng.normal(scale=s, size=(n_heads * d_head, d_model)))


def gqa_head_by_head(x, w_q, w_k, w_v, w_o, n_heads, n_kv_heads, mask, rope):
    """The definition, one query head at a time: head h reads key/value head h // group."""
    d_head = w_q.shape[1] // n_heads
    group = n_heads // n_kv_heads
    cos, sin = rope
    heads = []
    for h in range(n_heads):
        g = h // group
        q = apply_rope(x @ w_q[:, h * d_head:(h + 1) * d_head], cos, sin)
        k = apply_rope(x @ w_k[:, g * d_head:(g + 1) * d_head], cos, sin)
        v = x @ w_v[:, g * d_head:(g + 1) * d_head]
        heads.append(scaled_dot_product_attention(q, k, v, mask=mask)[0])
    return np.concatenate(heads, axis=-1) @ w_o


class TestDefinition:
    @pytest.mark.parametrize("n_heads, n_kv_heads", [(4, 4), (4, 2), (4, 1), (6, 3), (8, 2)])
    def test_equals_head_by_head(self, rng, n_heads, n_kv_heads):
        n, d_model, d_head = 7, 12, 4
        x = rng.normal(size=(n, d_model))
        ws = random_gqa(rng, d_model, n_heads, n_kv_heads, d_head)
        rope = rope_cos_sin(n, d_head)
        out, weights = grouped_query_attention(x, *ws, n_heads, n_kv_heads, causal_mask(n), rope=rope)
        ref = gqa_head_by_head(x, *ws, n_heads, n_kv_heads, causal_mask(n), rope)
        np.testing.assert_allclose(out, ref, rtol=0, atol=TOL)
        assert weights.shape == (n_heads, n, n)
        np.testing.assert_allclose(weights.sum(-1), 1.0, rtol=0, atol=1e-12)

    def test_all_heads_equal_is_mha(self, rng):
        # n_kv_heads = n_heads *is* attnkit's multi-head attention
        x = rng.normal(size=(2, 6, 8))
        w_q, w_k, w_v, w_o = rng.normal(scale=0.3, size=(4, 8, 8))
        for mask in (None, causal_mask(6)):
            gqa, gw = grouped_query_attention(x, w_q, w_k, w_v, w_o, 4, 4, mask)
            mha, mw = multi_head_attention(x, w_q, w_k, w_v, w_o, 4, mask)
            np.testing.assert_allclose(gqa, mha, rtol=0, atol=TOL)
            np.testing.assert_allclose(gw, mw, rtol=0, atol=TOL)

    def test_mqa_heads_share_keys(self, rng):
        # with one key/value head, two query heads with the same queries give the same weights
        x = rng.normal(size=(5, 6))
        w_q = rng.normal(size=(6, 2))
        w_q = np.concatenate([w_q, w_q], axis=1)            # 2 heads of width 2, identical queries
        w_k, w_v = rng.normal(size=(2, 6, 2))
        w_o = rng.normal(size=(4, 6))
        _, weights = grouped_query_attention(x, w_q, w_k, w_v, w_o, 2, 1)
        np.testing.assert_allclose(weights[0], weights[1], rtol=0, atol=1e-15)

    def test_wrong_grouping_differs(self, rng):
        # query head h reads group h // (n_heads / n_kv_heads), not h % n_kv_heads: check that
        # the other assignment gives other numbers, so the test above can fail
        n, d_model, d_head = 6, 8, 2
        x = rng.normal(size=(n, d_model))
        w_q, w_k, w_v, w_o = random_gqa(rng, d_model, 4, 2, d_head)
        out, _ = grouped_query_attention(x, w_q, w_k, w_v, w_o, 4, 2)
        swapped = w_q.reshape(d_model, 4, d_head)[:, [0, 2, 1, 3]].reshape(d_model, 8)
        w_o_swapped = w_o.reshape(4, d_head, d_model)[[0, 2, 1, 3]].reshape(8, d_model)
        other, _ = grouped_query_attention(x, swapped, w_k, w_v, w_o_swapped, 4, 2)
        assert np.abs(out - other).max() > 1e-3

    def test_repeat_kv(self):
        kv = np.arange(6.0).reshape(3, 1, 2)               # 3 kv heads
        r = repeat_kv(kv, 2)
        assert r.shape == (6, 1, 2)
        np.testing.assert_array_equal(r[:, 0, 0], [0, 0, 2, 2, 4, 4])


def llama_attention(transformers, rng, n_heads, n_kv_heads, d_head, d_model, implementation):
    from transformers.models.llama.modeling_llama import LlamaAttention
    config = tiny(transformers.LlamaConfig, hidden_size=d_model, num_attention_heads=n_heads,
                  num_key_value_heads=n_kv_heads, head_dim=d_head, attn_implementation=implementation)
    attn = randomize(LlamaAttention(config, layer_idx=0).double().eval(), rng, scale=d_model ** -0.5)
    return config, attn


class TestAgainstTransformers:
    @pytest.mark.parametrize("n_heads, n_kv_heads", [(4, 4), (4, 2), (4, 1)])
    def test_llama_attention(self, rng, n_heads, n_kv_heads):
        torch, transformers = hf()
        from transformers.masking_utils import create_causal_mask
        b, n, d_model, d_head = 2, 9, 16, 6                 # d_head * n_heads != d_model on purpose
        for implementation, tol in (("sdpa", TOL), ("eager", 1e-6)):
            config, attn = llama_attention(transformers, rng, n_heads, n_kv_heads, d_head, d_model,
                                           implementation)
            x = rng.normal(size=(b, n, d_model))
            cos, sin = rope_cos_sin(n, d_head)
            position_ids = torch.arange(n)[None].expand(b, n)
            mask = create_causal_mask(config=config, inputs_embeds=tensor(x), attention_mask=None,
                                      cache=None, position_ids=position_ids)
            with torch.no_grad():
                ref, ref_weights = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                                        attention_mask=mask)
            assert ref.dtype == torch.float64
            out, weights = grouped_query_attention(
                x, weight_in_out(attn.q_proj), weight_in_out(attn.k_proj), weight_in_out(attn.v_proj),
                weight_in_out(attn.o_proj), n_heads, n_kv_heads, causal_mask(n), rope=(cos, sin))
            # eager's softmax runs in float32 (transformers' choice); sdpa stays in float64
            np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=tol)
            if ref_weights is not None:
                np.testing.assert_allclose(weights, ref_weights.numpy(), rtol=0, atol=tol)
            assert np.abs(out).max() > 0.1                  # not trivially small

    def test_llama_attention_catches_a_missing_rope(self, rng):
        torch, transformers = hf()
        config, attn = llama_attention(transformers, rng, 4, 2, 4, 8, "sdpa")
        x = rng.normal(size=(1, 6, 8))
        cos, sin = rope_cos_sin(6, 4)
        with torch.no_grad():
            ref, _ = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                          attention_mask=None)
        ws = [weight_in_out(p) for p in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj)]
        out, _ = grouped_query_attention(x, *ws, 4, 2, causal_mask(6))   # no rope: must differ
        assert np.abs(out - ref.numpy()).max() > 1e-3

    def test_qwen3_head_width(self, rng):
        # Qwen3 sets head_dim apart from d_model / n_heads; its q/k RMSNorm is not attnkit's, so
        # only the shapes are shared here: the Llama module with head_dim = 2 * d_model / n_heads
        torch, transformers = hf()
        config, attn = llama_attention(transformers, rng, 2, 1, 8, 8, "sdpa")
        x = rng.normal(size=(1, 5, 8))
        cos, sin = rope_cos_sin(5, 8)
        with torch.no_grad():
            ref, _ = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                          attention_mask=None)
        ws = [weight_in_out(p) for p in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj)]
        assert bias(attn.q_proj) is None
        out, _ = grouped_query_attention(x, *ws, 2, 1, causal_mask(5), rope=(cos, sin))
        np.testing.assert_allclose(out, ref.numpy(), rtol=0, atol=TOL)


def gqa_call(x=(5, 8), w_q=(8, 8), w_k=(8, 4), w_v=(8, 4), w_o=(8, 8), n_heads=4, n_kv_heads=2, **kw):
    mk = lambda s: np.ones(s) if isinstance(s, tuple) else s   # noqa: E731
    return grouped_query_attention(mk(x), mk(w_q), mk(w_k), mk(w_v), mk(w_o), n_heads, n_kv_heads, **kw)


class TestBadInput:
    def test_heads_do_not_divide(self):
        raises_clean("n_kv_heads must divide n_heads (each key/value head serves a whole group of "
                     "query heads), got n_heads=4 and n_kv_heads=3", gqa_call, n_kv_heads=3)

    def test_more_kv_heads_than_heads(self):
        raises_clean("got n_heads=4 and n_kv_heads=8", gqa_call, n_kv_heads=8)

    def test_w_q(self):
        raises_clean("w_q must have shape (d_model, n_heads * d_head) with d_model=8 and a width "
                     "divisible by n_heads=4, got shape (8, 6)", gqa_call, w_q=(8, 6))

    def test_w_k(self):
        raises_clean("w_k must have shape (d_model, n_kv_heads * d_head) = (8, 4), got shape (8, 8)",
                     gqa_call, w_k=(8, 8))

    def test_w_o(self):
        raises_clean("w_o must have shape (n_heads * d_head, d_model) = (8, 8), got shape (4, 8)",
                     gqa_call, w_o=(4, 8))

    def test_bias(self):
        raises_clean("b_k must have shape (4,), got shape (8,)", gqa_call, b_k=np.ones(8))

    def test_mask(self):
        raises_clean("mask of shape (4, 4) does not broadcast to the per-head scores "
                     "(..., n_heads, n, n) of shape (4, 5, 5)", gqa_call, mask=causal_mask(4))

    def test_rope_pair(self):
        raises_clean("rope must be a pair (cos, sin) from rope_cos_sin(n, d_head), got ndarray",
                     gqa_call, rope=np.ones((5, 2)))

    def test_rope_width(self):
        raises_clean("cos and sin must both have shape (n, d) = (5, 2) to match x of shape "
                     "(4, 5, 2), got cos (5, 4) and sin (5, 4)", gqa_call, rope=rope_cos_sin(5, 4))

    def test_sink(self):
        raises_clean("sink must be one logit per head, shape (4,), got shape (2,)",
                     gqa_call, sink=np.zeros(2))

    def test_repeat_kv(self):
        raises_clean("n_rep must be a positive integer, got 0 (int)", repeat_kv, np.ones((2, 3, 4)), 0)
