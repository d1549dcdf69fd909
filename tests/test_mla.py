"""Tests for attnkit.mla: multi-head latent attention against its definition (per-head loops),
its absorbed form, and transformers' DeepseekV3Attention."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit.core import causal_mask, scaled_dot_product_attention
from attnkit.mla import (
    MLAWeights,
    init_mla,
    mha_cache_numbers,
    mla_attention,
    mla_attention_absorbed,
    mla_cache_numbers,
    mla_latent,
    rms_norm,
)
from attnkit.rope import apply_rope, rope_cos_sin

from hf_reference import hf, randomize, tensor, tiny, weight_in_out
from test_core import raises_clean

TOL = 1e-10
SHAPES = dict(d_model=16, n_heads=4, kv_lora_rank=6, qk_nope_head_dim=4, qk_rope_head_dim=2, v_head_dim=3)


@pytest.fixture
def rng():
    return np.random.default_rng(671)


def mla_by_loops(x, w, mask, rope, pairing="half"):
    """The definition, one head at a time, every key and value made explicitly."""
    cos, sin = rope
    rms = lambda a, g: a / np.sqrt((a ** 2).mean(-1, keepdims=True) + w.eps) * g   # noqa: E731
    c = rms(x @ w.w_dkv, w.kv_norm)
    k_rope = apply_rope(x @ w.w_kr, cos, sin, pairing)
    c_q = x if w.w_dq is None else rms(x @ w.w_dq, w.q_norm)
    dn, dr, dv = w.d_nope, w.d_rope, w.d_v
    heads = []
    for h in range(w.n_heads):
        q = np.concatenate([c_q @ w.w_uq[:, h * dn:(h + 1) * dn],
                            apply_rope(c_q @ w.w_qr[:, h * dr:(h + 1) * dr], cos, sin, pairing)], -1)
        k = np.concatenate([c @ w.w_uk[:, h * dn:(h + 1) * dn], k_rope], -1)
        v = c @ w.w_uv[:, h * dv:(h + 1) * dv]
        heads.append(scaled_dot_product_attention(q, k, v, mask=mask, scale=(dn + dr) ** -0.5)[0])
    return np.concatenate(heads, -1) @ w.w_o


class TestDefinition:
    @pytest.mark.parametrize("q_lora_rank", [None, 8])
    @pytest.mark.parametrize("pairing", ["half", "interleaved"])
    def test_plain_and_absorbed_equal_the_loops(self, rng, q_lora_rank, pairing):
        w = init_mla(**SHAPES, q_lora_rank=q_lora_rank, seed=3)
        x = rng.normal(size=(7, 16))
        rope = rope_cos_sin(np.arange(7) + 2, 2)
        ref = mla_by_loops(x, w, causal_mask(7), rope, pairing)
        plain, a = mla_attention(x, w, causal_mask(7), rope=rope, pairing=pairing)
        absorbed, b = mla_attention_absorbed(x, w, causal_mask(7), rope=rope, pairing=pairing)
        np.testing.assert_allclose(plain, ref, rtol=0, atol=1e-12)
        np.testing.assert_allclose(absorbed, ref, rtol=0, atol=1e-12)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)

    def test_absorbed_is_plain_with_batches(self, rng):
        w = init_mla(32, 8, 12, 8, 4, 8, q_lora_rank=16, seed=5)
        x = rng.normal(size=(3, 10, 32))
        plain, _ = mla_attention(x, w, causal_mask(10))
        absorbed, _ = mla_attention_absorbed(x, w, causal_mask(10))
        np.testing.assert_allclose(absorbed, plain, rtol=0, atol=1e-12)
        assert np.abs(plain).max() > 0.1

    def test_the_cache_is_the_latent_and_the_rope_key(self, rng):
        w = init_mla(**SHAPES, seed=1)
        x = rng.normal(size=(5, 16))
        c, k_rope = mla_latent(x, w)
        assert c.shape[-1] + k_rope.shape[-1] == mla_cache_numbers(w) == 8
        # rows of the latent only depend on their own token: a cache can be filled row by row
        c_first, _ = mla_latent(x[:3], w)
        np.testing.assert_allclose(c_first, c[:3], rtol=0, atol=1e-15)

    def test_dropping_the_rope_part_changes_the_result(self, rng):
        w = init_mla(**SHAPES, seed=2)
        x = rng.normal(size=(6, 16))
        out, _ = mla_attention(x, w, causal_mask(6))
        w.w_qr = np.zeros_like(w.w_qr)
        assert np.abs(mla_attention(x, w, causal_mask(6))[0] - out).max() > 1e-3

    def test_rms_norm(self):
        x = np.array([[1.0, -2.0, 2.0]])
        np.testing.assert_allclose(rms_norm(x, np.ones(3), eps=0.0), x / np.sqrt(3.0), rtol=1e-15)

    def test_cache_numbers(self):
        assert mla_cache_numbers(512, 64) == 576
        assert mha_cache_numbers(128, 192, 128) // mla_cache_numbers(512, 64) == 71


def deepseek_attention(transformers, torch, rng, q_lora_rank, rope_interleave, implementation):
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention
    config = tiny(transformers.DeepseekV3Config, hidden_size=16, num_attention_heads=4,
                  num_key_value_heads=4, q_lora_rank=q_lora_rank, kv_lora_rank=6,
                  qk_nope_head_dim=4, qk_rope_head_dim=2, v_head_dim=3,
                  rope_interleave=rope_interleave, attn_implementation=implementation,
                  n_routed_experts=2, num_experts_per_tok=1, n_group=1, topk_group=1)
    attn = randomize(DeepseekV3Attention(config, layer_idx=0).double().eval(), rng, 0.4)
    return config, attn


def from_deepseek(attn):
    """attnkit's MLAWeights holding the same numbers as a DeepseekV3Attention."""
    H, dn, dr, dv = attn.num_heads, attn.qk_nope_head_dim, attn.qk_rope_head_dim, attn.v_head_dim
    d_c = attn.kv_lora_rank
    q_b = weight_in_out(attn.q_proj if attn.q_lora_rank is None else attn.q_b_proj)
    q_b = q_b.reshape(q_b.shape[0], H, dn + dr)                      # per head: [nope, rope]
    kv_a = weight_in_out(attn.kv_a_proj_with_mqa)                     # (d_model, d_c + dr)
    kv_b = weight_in_out(attn.kv_b_proj).reshape(d_c, H, dn + dv)     # per head: [k_nope, v]
    return MLAWeights(
        n_heads=H,
        w_dq=None if attn.q_lora_rank is None else weight_in_out(attn.q_a_proj),
        q_norm=None if attn.q_lora_rank is None else attn.q_a_layernorm.weight.detach().numpy().copy(),
        w_uq=q_b[:, :, :dn].reshape(-1, H * dn), w_qr=q_b[:, :, dn:].reshape(-1, H * dr),
        w_dkv=kv_a[:, :d_c], kv_norm=attn.kv_a_layernorm.weight.detach().numpy().copy(),
        w_kr=kv_a[:, d_c:],
        w_uk=kv_b[:, :, :dn].reshape(d_c, H * dn), w_uv=kv_b[:, :, dn:].reshape(d_c, H * dv),
        w_o=weight_in_out(attn.o_proj), eps=attn.kv_a_layernorm.variance_epsilon,
    )


def float64_norms(torch, attn):
    """Swap DeepSeek's RMSNorms (which compute in float32) for torch.nn.RMSNorm in float64,
    same weights and epsilon: the only change, so the rest is compared to 1e-10."""
    for name in ("kv_a_layernorm", "q_a_layernorm"):
        old = getattr(attn, name)
        if old is None:
            continue
        new = torch.nn.RMSNorm(old.weight.shape[0], eps=old.variance_epsilon, dtype=torch.float64)
        with torch.no_grad():
            new.weight.copy_(old.weight)
        setattr(attn, name, new)


class TestAgainstTransformers:
    @pytest.mark.parametrize("q_lora_rank", [None, 8])
    @pytest.mark.parametrize("rope_interleave", [False, True])
    def test_deepseek_v3_attention(self, rng, q_lora_rank, rope_interleave):
        torch, transformers = hf()
        from transformers.masking_utils import create_causal_mask
        b, n = 2, 9
        pairing = "interleaved" if rope_interleave else "half"
        for implementation, float64, tol in (("sdpa", True, TOL), ("eager", False, 1e-6)):
            config, attn = deepseek_attention(transformers, torch, rng, q_lora_rank, rope_interleave,
                                              implementation)
            w = from_deepseek(attn)
            if float64:
                float64_norms(torch, attn)
            x = rng.normal(size=(b, n, 16))
            cos, sin = rope_cos_sin(n, 2)
            mask = create_causal_mask(config=config, inputs_embeds=tensor(x), attention_mask=None,
                                      cache=None, position_ids=torch.arange(n)[None].expand(b, n))
            with torch.no_grad():
                ref, _ = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                              attention_mask=mask)
            plain, _ = mla_attention(x, w, causal_mask(n), rope=(cos, sin), pairing=pairing)
            absorbed, _ = mla_attention_absorbed(x, w, causal_mask(n), rope=(cos, sin), pairing=pairing)
            np.testing.assert_allclose(plain, ref.numpy(), rtol=0, atol=tol)
            np.testing.assert_allclose(absorbed, ref.numpy(), rtol=0, atol=tol)
            assert np.abs(plain).max() > 0.1

    def test_unmodified_norms_are_float32(self, rng):
        # the reason for float64_norms: without it the difference is float32's, not float64's
        torch, transformers = hf()
        config, attn = deepseek_attention(transformers, torch, rng, 8, False, "sdpa")
        w = from_deepseek(attn)
        x = rng.normal(size=(1, 6, 16))
        cos, sin = rope_cos_sin(6, 2)
        with torch.no_grad():
            ref, _ = attn(tensor(x), position_embeddings=(tensor(cos)[None], tensor(sin)[None]),
                          attention_mask=None)
        diff = np.abs(mla_attention(x, w, causal_mask(6), rope=(cos, sin))[0] - ref.numpy()).max()
        assert 1e-12 < diff < 1e-5

    def test_cache_width_of_the_config(self):
        torch, transformers = hf()
        from attnkit.kv_bytes import MODELS
        config = transformers.DeepseekV3Config()             # its defaults are DeepSeek-V3's
        m = MODELS["deepseek-v3"]
        assert (config.kv_lora_rank, config.qk_rope_head_dim, config.num_hidden_layers) == \
            (m.kv_lora_rank, m.qk_rope_head_dim, m.n_layers)
        assert mla_cache_numbers(config.kv_lora_rank, config.qk_rope_head_dim) == 576


class TestBadInput:
    def test_latent_wider_than_the_model(self):
        raises_clean("kv_lora_rank must be smaller than d_model (the latent compresses x), "
                     "got kv_lora_rank=16 and d_model=16", init_mla, 16, 4, 16, 4, 2, 3)

    def test_query_latent_wider_than_the_model(self):
        raises_clean("q_lora_rank must be smaller than d_model, got q_lora_rank=20 and d_model=16",
                     init_mla, 16, 4, 6, 4, 2, 3, q_lora_rank=20)

    def test_odd_rope_width(self):
        raises_clean("qk_rope_head_dim must be even (RoPE turns pairs), got 3", init_mla, 16, 4, 6, 4, 3, 3)

    def test_x_width(self):
        w = init_mla(**SHAPES)
        raises_clean("x must have d_model=16 columns to match the weights, got shape (5, 12)",
                     mla_attention, np.ones((5, 12)), w)

    def test_weights_type(self):
        raises_clean("weights must be MLAWeights (see init_mla), got dict", mla_attention, np.ones((5, 16)), {})

    def test_rope(self):
        w = init_mla(**SHAPES)
        raises_clean("rope must be a pair (cos, sin) from rope_cos_sin(n, qk_rope_head_dim), got ndarray",
                     mla_attention, np.ones((5, 16)), w, rope=np.ones((5, 2)))

    def test_mask(self):
        w = init_mla(**SHAPES)
        raises_clean("mask of shape (4, 4) does not broadcast to the per-head scores "
                     "(..., n_heads, n, n) of shape (4, 5, 5)",
                     mla_attention_absorbed, np.ones((5, 16)), w, causal_mask(4))

    def test_rms_norm_weight(self):
        raises_clean("weight must have shape (d,) = (3,) to match x (2, 3), got shape (4,)",
                     rms_norm, np.ones((2, 3)), np.ones(4))

    def test_latent_too_wide_in_given_weights(self):
        w = init_mla(**SHAPES)
        w.w_dkv = np.ones((16, 20))
        raises_clean("the latent must be narrower than the model: kv_lora_rank=20, d_model=16",
                     mla_attention, np.ones((5, 16)), w)
