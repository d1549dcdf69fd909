"""Tests for attnkit.serving: the weights counted from a configuration equal the parameters of
the model transformers builds from the same configuration (on the meta device: no memory, no
download), and the users that fit on a GPU follow from the arithmetic."""

from __future__ import annotations

import pytest

from attnkit.kv_bytes import MODELS, kv_cache_bytes, kv_cache_bytes_if
from attnkit.serving import GPU_BYTES, WEIGHT_SHAPES, users, weight_bytes, weight_count

from hf_reference import hf
from test_core import raises_clean


@pytest.mark.parametrize("name", sorted(WEIGHT_SHAPES))
def test_weight_count_equals_transformers_llama(name):
    torch, transformers = hf()
    m, w = MODELS[name], WEIGHT_SHAPES[name]
    config = transformers.LlamaConfig(
        vocab_size=w["vocab_size"], hidden_size=m.d_model, intermediate_size=w["intermediate_size"],
        num_hidden_layers=m.n_layers, num_attention_heads=m.n_heads, num_key_value_heads=m.n_kv_heads,
        head_dim=m.head_dim, tie_word_embeddings=w["tied"], bos_token_id=None, eos_token_id=None)
    with torch.device("meta"):
        model = transformers.LlamaForCausalLM(config)
    assert weight_count(name) == sum(p.numel() for p in model.parameters())


def test_the_published_sizes():
    # The model cards' rounded sizes: 7B (6.74B in the Llama 2 paper), 8B, 70B.
    assert round(weight_count("llama-2-7b") / 1e9, 2) == 6.74
    assert round(weight_count("llama-3-8b") / 1e9) == 8
    assert round(weight_count("llama-3-70b") / 1e9) == 71      # "70B": 70.6 billion
    assert weight_bytes("llama-3-8b", "fp8") * 2 == weight_bytes("llama-3-8b")


def test_readers():
    free = GPU_BYTES - weight_bytes("llama-3-8b")
    for context in (1, 8192, 131072):
        n = users("llama-3-8b", context)
        cache = kv_cache_bytes("llama-3-8b", context)
        assert n * cache <= free < (n + 1) * cache
    assert users("llama-3-8b", 131072, attention="mha") == free // (4 * kv_cache_bytes("llama-3-8b", 131072))
    assert users("llama-3-70b", 10) == 0                       # 141 GB of weights: no room at all
    assert users("llama-3-8b", 1000, gpu_bytes=4 * GPU_BYTES, attention="mqa") == \
        (4 * GPU_BYTES - weight_bytes("llama-3-8b")) // kv_cache_bytes_if("llama-3-8b", "mqa", 1000)


def test_bad_input():
    raises_clean("model must be one of ['llama-2-7b', 'llama-3-70b', 'llama-3-8b'] (dense models whose "
                 "weights this module counts), got 'deepseek-v3'", weight_count, "deepseek-v3")
    raises_clean("dtype must be one of ['bf16', 'fp16', 'fp32', 'fp8'], got 'int4'", weight_bytes, "llama-3-8b", "int4")
    raises_clean("context must be a positive integer, got 0 (int)", users, "llama-3-8b", 0)
    raises_clean("gpu_bytes must be a positive integer, got -1 (int)", users, "llama-3-8b", 10, -1)
