"""Tests for attnkit.kv_bytes: KV-cache sizes of published models, against the arithmetic by
hand, transformers' configuration defaults and the cache transformers really builds."""

from __future__ import annotations

import dataclasses

import pytest

from attnkit.kv_bytes import (
    DTYPE_BYTES,
    MODELS,
    ModelConfig,
    cache_ratio,
    kv_bytes_per_token,
    kv_cache_bytes,
    kv_cache_bytes_if,
    kv_numbers_per_token_per_layer,
    kv_table,
)

from hf_reference import hf
from test_core import raises_clean


class TestArithmetic:
    # bytes per token with every layer keeping it, bf16, written out by hand
    BY_HAND = {
        "llama-2-7b": 2 * 32 * 128 * 2 * 32,
        "llama-3-8b": 2 * 8 * 128 * 2 * 32,
        "llama-3-70b": 2 * 8 * 128 * 2 * 80,
        "mistral-7b": 2 * 8 * 128 * 2 * 32,
        "qwen3-8b": 2 * 8 * 128 * 2 * 36,
        "gemma-3-27b": 2 * 16 * 128 * 2 * 62,
        "gpt-oss-120b": 2 * 8 * 64 * 2 * 36,
        "deepseek-v3": (512 + 64) * 2 * 61,
    }

    def test_every_model_is_checked(self):
        assert set(self.BY_HAND) == set(MODELS)

    @pytest.mark.parametrize("name", sorted(BY_HAND))
    def test_bytes_per_token(self, name):
        assert kv_bytes_per_token(name) == self.BY_HAND[name]
        assert kv_bytes_per_token(name, "fp8") * 2 == self.BY_HAND[name]
        assert kv_bytes_per_token(name, "fp32") == 2 * self.BY_HAND[name]

    def test_full_attention_grows_linearly(self):
        assert kv_cache_bytes("llama-3-70b", 131072) == 131072 * self.BY_HAND["llama-3-70b"]
        assert kv_cache_bytes("llama-3-8b", 8192) == 2 ** 30            # exactly 1 GiB

    def test_sliding_layers_stop_at_the_window(self):
        per_layer = 2 * 8 * 64 * 2                                      # gpt-oss, bytes per token per layer
        assert kv_cache_bytes("gpt-oss-120b", 100) == per_layer * 36 * 100
        assert kv_cache_bytes("gpt-oss-120b", 131072) == per_layer * (18 * 131072 + 18 * 128)
        # Mistral 7B (v0.1): every layer slides, so the cache stops at 4096 tokens
        assert kv_cache_bytes("mistral-7b", 4096) == kv_cache_bytes("mistral-7b", 10 ** 6)
        # Gemma 3 27B: 52 local layers of 1024, 10 global
        per_layer = 2 * 16 * 128 * 2
        assert kv_cache_bytes("gemma-3-27b", 32768) == per_layer * (10 * 32768 + 52 * 1024)

    def test_per_token_at_a_context(self):
        assert kv_bytes_per_token("llama-3-8b", context=5000) == self.BY_HAND["llama-3-8b"]
        assert kv_bytes_per_token("gpt-oss-120b", context=131072) < self.BY_HAND["gpt-oss-120b"] / 1.99

    def test_other_attention(self):
        assert kv_cache_bytes_if("llama-3-8b", "mha", 1000) == 4 * kv_cache_bytes("llama-3-8b", 1000)
        assert kv_cache_bytes_if("llama-3-8b", "mqa", 1000) * 8 == kv_cache_bytes("llama-3-8b", 1000)
        assert kv_cache_bytes_if("llama-3-8b", "gqa", 1000) == kv_cache_bytes("llama-3-8b", 1000)
        # MLA against DeepSeek-V3's 128 heads with keys of 128 + 64 and values of 128
        assert kv_cache_bytes_if("deepseek-v3", "mha", 10) == 128 * (192 + 128) * 2 * 61 * 10
        assert cache_ratio("deepseek-v3") == 128 * 320 / 576
        assert cache_ratio("llama-3-70b") == 8.0
        # windows count for "as is" only: a window model with MHA is compared at its stated context
        assert cache_ratio("mistral-7b", context=4096) == 4.0
        assert cache_ratio("mistral-7b", context=32768) == 32.0

    def test_table(self):
        rows = kv_table(4096)
        assert [r["name"] for r in rows] == list(MODELS)
        for r in rows:
            assert r["cache_bytes"] == kv_cache_bytes(r["name"], 4096)
            assert r["mha_cache_bytes"] >= r["cache_bytes"]

    def test_dtype_bytes(self):
        assert DTYPE_BYTES == {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}

    def test_sources_cited(self):
        for m in MODELS.values():
            assert m.source.startswith("https://huggingface.co/") and m.source.endswith("config.json")
            assert m.n_sliding_layers <= m.n_layers
            assert (m.sliding_window is None) == (m.n_sliding_layers == 0)


class TestAgainstTransformers:
    def test_configs_whose_defaults_are_the_model(self):
        # transformers documents these defaults as Llama-2-7b, Mistral-7B-v0.1, gpt-oss (36
        # layers: the 120b) and DeepSeek-V3: an independent copy of the published numbers
        _, transformers = hf()
        for name, config in [("llama-2-7b", transformers.LlamaConfig()),
                             ("mistral-7b", transformers.MistralConfig()),
                             ("gpt-oss-120b", transformers.GptOssConfig()),
                             ("deepseek-v3", transformers.DeepseekV3Config())]:
            m = MODELS[name]
            assert config.num_hidden_layers == m.n_layers, name
            assert config.num_attention_heads == m.n_heads, name
            if m.attention == "gqa":
                assert config.num_key_value_heads == m.n_kv_heads, name
                assert config.head_dim == m.head_dim, name
                assert getattr(config, "sliding_window", None) == m.sliding_window, name
                layer_types = getattr(config, "layer_types", None) or (
                    ["full_attention"] * m.n_layers if m.sliding_window is None
                    else ["sliding_attention"] * m.n_layers)      # Mistral: every layer slides
                assert layer_types.count("sliding_attention") == m.n_sliding_layers, name
            else:
                assert (config.kv_lora_rank, config.qk_rope_head_dim, config.qk_nope_head_dim,
                        config.v_head_dim) == (m.kv_lora_rank, m.qk_rope_head_dim,
                                               m.qk_nope_head_dim, m.v_head_dim)

    @pytest.mark.parametrize("n", [3, 4, 10])
    def test_the_cache_transformers_builds(self, n):
        # a tiny gpt-oss (alternating sliding/full) run on n tokens: count what its cache holds.
        # Between steps a sliding layer stores window - 1 tokens; the next token's own key and
        # value make the window-th. So what token n reads = what is stored + its own, per layer.
        torch, transformers = hf()
        window, layers, kv_heads, head_dim = 4, 4, 2, 4
        config = transformers.GptOssConfig(
            vocab_size=16, bos_token_id=1, eos_token_id=2, pad_token_id=0, hidden_size=8,
            num_attention_heads=2, num_key_value_heads=kv_heads, head_dim=head_dim,
            num_hidden_layers=layers, intermediate_size=8, num_local_experts=2,
            num_experts_per_tok=1, sliding_window=window)
        model = transformers.GptOssForCausalLM(config).eval()
        with torch.no_grad():
            cache = model(torch.arange(n)[None] % 16, use_cache=True).past_key_values
        stored = sum(layer.keys.numel() + layer.values.numel() for layer in cache.layers)
        ours = ModelConfig("tiny", n_layers=layers, n_heads=2, n_kv_heads=kv_heads, head_dim=head_dim,
                           d_model=8, source="test", sliding_window=window,
                           n_sliding_layers=config.layer_types.count("sliding_attention"))
        own = kv_numbers_per_token_per_layer(ours) * layers       # the new token's own keys and values
        assert kv_cache_bytes(ours, n + 1, "fp32") == (stored + own) * 4
        held = [layer.keys.shape[-2] for layer in cache.layers]
        assert held == [min(n, window - 1) if kind == "sliding_attention" else n
                        for kind in config.layer_types]


class TestBadInput:
    def test_model(self):
        raises_clean("model must be one of ['deepseek-v3', 'gemma-3-27b', 'gpt-oss-120b', 'llama-2-7b', "
                     "'llama-3-70b', 'llama-3-8b', 'mistral-7b', 'qwen3-8b'] or a ModelConfig, got 'gpt-5'",
                     kv_bytes_per_token, "gpt-5")

    def test_dtype(self):
        raises_clean("dtype must be one of ['bf16', 'fp16', 'fp32', 'fp8'], got 'int4'",
                     kv_cache_bytes, "llama-3-8b", 10, "int4")

    def test_context(self):
        raises_clean("context must be a positive integer, got 0 (int)", kv_cache_bytes, "llama-3-8b", 0)

    def test_attention(self):
        raises_clean("attention must be one of ['as is', 'gqa', 'mha', 'mqa'], got 'mla'",
                     kv_cache_bytes_if, "llama-3-8b", "mla", 10)
        raises_clean("for an MLA model, attention must be 'mha' or 'as is', got 'mqa'",
                     kv_cache_bytes_if, "deepseek-v3", "mqa", 10)

    def test_config_checked(self):
        bad = dataclasses.replace(MODELS["llama-3-8b"], n_kv_heads=5)
        raises_clean("n_kv_heads=5 must divide n_heads=32 in 'llama-3-8b'", kv_bytes_per_token, bad)
        wide = dataclasses.replace(MODELS["deepseek-v3"], kv_lora_rank=8192)
        raises_clean("kv_lora_rank=8192 must be smaller than d_model=7168 in 'deepseek-v3'",
                     kv_cache_bytes, wide, 10)
        kind = dataclasses.replace(MODELS["llama-3-8b"], attention="linear")
        raises_clean("attention must be 'gqa' or 'mla' in 'llama-3-8b', got 'linear'", kv_bytes_per_token, kind)
        layers = dataclasses.replace(MODELS["gemma-3-27b"], n_sliding_layers=70)
        raises_clean("n_sliding_layers must be between 0 and n_layers=62 in 'gemma-3-27b', got 70",
                     kv_bytes_per_token, layers)
        no_window = dataclasses.replace(MODELS["gpt-oss-120b"], sliding_window=None)
        raises_clean("sliding_window must be a positive integer, got None (NoneType)",
                     kv_cache_bytes, no_window, 10)
