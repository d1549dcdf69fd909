"""Tests for attnkit.kvcache: the cache changes the work, never the result."""

from __future__ import annotations

import numpy as np
import pytest

from attnkit import tinygpt
from attnkit.kvcache import (
    MODEL_SIZES,
    KVCache,
    cache_bytes,
    cache_numbers,
    decoder_step,
    forward_macs,
    generate,
    recompute_difference,
    step_macs,
)
from attnkit.layers import layer_norm_forward

from test_core import raises_clean


@pytest.fixture
def params():
    """A fresh tiny GPT with weights far from their small initial values."""
    p = tinygpt.init(vocab_size=23, d_model=16, n_heads=4, n_layers=3, n_ctx=40, seed=3)
    rng = np.random.default_rng(103)
    return {k: v + rng.normal(0, 0.3, v.shape) for k, v in p.items()}


class TestSameResult:
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_same_tokens_and_logits(self, seed):
        p = tinygpt.init(31, 16, 2, 2, 20, seed=seed)
        plain = generate(p, [4, 7, 1], n_new=12, use_cache=False)
        cached = generate(p, [4, 7, 1], n_new=12, use_cache=True)
        assert plain.tokens == cached.tokens == tinygpt.generate(p, [4, 7, 1], 12).tolist()
        assert len(set(plain.tokens[3:])) > 1
        np.testing.assert_allclose(cached.logits, plain.logits, rtol=0, atol=1e-12)
        assert plain.logits.shape == (12, 31)

    def test_step_logits_equal_every_row_of_the_forward(self, params):
        tokens = [3, 1, 4, 1, 5, 9, 2, 6]
        full = tinygpt.forward(params, [tokens])[0][0]          # (n, vocab)
        cache = KVCache(3, len(tokens), 16)
        rows = np.array([decoder_step(params, t, cache) for t in tokens])
        np.testing.assert_allclose(rows, full, rtol=0, atol=1e-12)
        assert cache.length == len(tokens)

    def test_cache_holds_the_keys_and_values_of_the_forward(self, params):
        # layer 0's keys are LN_1(wte[t] + wpe[pos]) @ w_k[h], heads side by side
        tokens = [2, 2, 7, 0]
        g = generate(params, tokens, n_new=1, use_cache=True)
        x = params["wte"][tokens] + params["wpe"][:4]
        a, _ = layer_norm_forward(x, params["h0.ln_1.g"], params["h0.ln_1.b"])
        k0 = np.concatenate([a @ w for w in params["h0.attn.w_k"]], axis=-1)    # (4, d)
        np.testing.assert_allclose(g.cache.k[0, :4], k0, rtol=0, atol=1e-13)

    def test_recompute_difference_is_rounding(self, params):
        assert recompute_difference(params, [1, 2, 3], 5) < 1e-12


class TestWork:
    def test_work_per_token_linear_with_cache_quadratic_without(self):
        p = tinygpt.init(17, 8, 2, 1, 61, seed=0)
        plain = generate(p, [1], n_new=60, use_cache=False)
        cached = generate(p, [1], n_new=60, use_cache=True)
        d_plain = np.diff(plain.macs)                   # growth of the work per token
        d_cached = np.diff(cached.macs[1:])
        assert (d_cached == d_cached[0]).all()          # constant growth: linear in n
        assert (np.diff(d_plain) > 0).all()             # growing growth: quadratic in n
        assert (np.diff(d_plain, 2) == 0).all()         # exactly quadratic
        assert plain.macs[-1] > 20 * cached.macs[-1]

    def test_counts_match_the_formula(self, params):
        n, d, d_ff, layers, vocab = 4, 16, 64, 3, 23
        assert forward_macs(params, n) == layers * (4 * n * d * d + 2 * n * n * d + 2 * n * d * d_ff) + n * d * vocab
        assert step_macs(params, n - 1) == layers * (4 * d * d + 2 * n * d + 2 * d * d_ff) + d * vocab
        g = generate(params, [1, 2, 3, 4], n_new=2, use_cache=False)
        assert g.macs.tolist() == [forward_macs(params, 4), forward_macs(params, 5)]
        g = generate(params, [1, 2, 3, 4], n_new=2, use_cache=True)
        assert g.macs.tolist() == [sum(step_macs(params, pos) for pos in range(4)), step_macs(params, 4)]


class TestCacheSize:
    def test_numbers_formula_and_real_array(self):
        cache = KVCache(n_layers=3, n_max=10, d_model=16)
        assert cache.numbers == cache_numbers(3, 10, 16) == 2 * 3 * 10 * 16
        assert cache.k.nbytes + cache.v.nbytes == cache_bytes(3, 10, 16, itemsize=8)

    def test_real_model_sizes(self):
        m = MODEL_SIZES["gpt2-small"]
        assert cache_numbers(m["n_layers"], m["n_ctx"], m["d_model"]) == 2 * 12 * 1024 * 768
        m = MODEL_SIZES["llama2-7b"]
        assert cache_bytes(m["n_layers"], m["n_ctx"], m["d_model"]) == 2 * 32 * 4096 * 4096 * 2


class TestBadInput:
    def test_cache_of_the_wrong_shape(self, params):
        raises_clean("cache of shape (n_layers, n_max, d_model) = (2, 8, 16) does not fit this "
                     "model: expected n_layers = 3, d_model = 16 and n_max <= n_ctx = 40",
                     decoder_step, params, 1, KVCache(2, 8, 16))
        raises_clean("cache of shape (n_layers, n_max, d_model) = (3, 8, 12) does not fit",
                     decoder_step, params, 1, KVCache(3, 8, 12))
        raises_clean("cache of shape (n_layers, n_max, d_model) = (3, 41, 16) does not fit",
                     decoder_step, params, 1, KVCache(3, 41, 16))

    def test_cache_full(self, params):
        cache = KVCache(3, 1, 16)
        decoder_step(params, 1, cache)
        raises_clean("the cache is full: it holds n_max = 1 tokens", decoder_step, params, 2, cache)

    def test_append_wrong_row(self):
        cache = KVCache(2, 4, 8)
        raises_clean("k_new must have shape (d_model,) = (8,) to fit this cache of shape "
                     "(n_layers, n_max, d_model) = (2, 4, 8), got shape (6,)",
                     cache.append, 0, np.ones(6), np.ones(8))
        raises_clean("layer must be an integer in [0, 1], got 2", cache.append, 2, np.ones(8), np.ones(8))

    def test_not_a_cache(self, params):
        raises_clean("cache must be a KVCache, got dict", decoder_step, params, 1, {})

    @pytest.mark.parametrize("prompt, message", [
        ([], "prompt must have shape (n,) with n >= 1, got shape (0,)"),
        ([[1, 2]], "prompt must have shape (n,) with n >= 1, got shape (1, 2)"),
        ([1, 23], "prompt must be token ids in [0, 22] (vocab_size = 23), got 23 at index (1,)"),
        ([1.0], "prompt must hold integer token ids, got dtype float64"),
        ([-1], "prompt must be token ids in [0, 22] (vocab_size = 23), got -1 at index (0,)"),
    ])
    @pytest.mark.parametrize("use_cache", [False, True])
    def test_bad_prompt(self, params, prompt, message, use_cache):
        raises_clean(message, generate, params, prompt, 2, use_cache=use_cache)

    def test_bad_token(self, params):
        raises_clean("token must be one integer id, got [1, 2]", decoder_step, params, [1, 2], KVCache(3, 4, 16))
        raises_clean("token must be token ids in [0, 22] (vocab_size = 23), got 23 at index (0,)",
                     decoder_step, params, 23, KVCache(3, 4, 16))

    @pytest.mark.parametrize("use_cache", [False, True])
    def test_n_new_agrees_with_tinygpt(self, params, use_cache):
        """Both generates refuse n_new = 0 with the same words."""
        raises_clean("n_new must be a positive integer, got 0 (int)", generate, params, [1], 0, use_cache=use_cache)
        with pytest.raises(ValueError, match=r"n_new must be a positive integer, got 0 \(int\)"):
            tinygpt.generate(params, [1], 0)

    def test_context(self, params):
        raises_clean("prompt of 30 tokens plus n_new = 12 needs 41 positions, more than the "
                     "model's context n_ctx = 40", generate, params, [1] * 30, 12)

    def test_bad_sizes(self, params):
        raises_clean("n_layers must be a positive integer, got 0 (int)", cache_numbers, 0, 4, 8)
        raises_clean("n must be a positive integer, got 0 (int)", forward_macs, params, 0)
        raises_clean("pos must be a non-negative integer, got -1", step_macs, params, -1)


def test_the_chapter_listing_uses_the_demo_model():
    # listing ch9/kv_work.py spells the model out for the reader; figure ch9-kv-work and the
    # page's numbers use DEMO_MODEL: they must be the same model
    import re
    from pathlib import Path

    from attnkit.kvcache import DEMO_MODEL, DEMO_PROMPT
    text = (Path(__file__).parents[1] / "snippets" / "ch9" / "kv_work.py").read_text(encoding="utf-8")
    args = re.search(r"tinygpt\.init\(([^)]*)\)", text).group(1)
    spelled = {k.strip(): int(v) for k, v in (a.split("=") for a in args.split(","))}
    assert spelled == DEMO_MODEL
    assert f"prompt = {list(DEMO_PROMPT)}" in text


@pytest.fixture(scope="module")
def trained():
    from attnkit import training
    return training.trained(**training.BOOK)[0]


class TestTinyGPT:
    """The cache on chapter 8's trained model: same tokens and logits as tinygpt itself."""

    @pytest.mark.parametrize("prompt", [[2, 0, 1, 5, 4, 3], [7, 7, 1, 0, 6, 2], [3]])
    def test_same_tokens_and_logits_as_tinygpt(self, trained, prompt):
        n_new = tinygpt.config_of(trained)["n_ctx"] + 1 - len(prompt)
        cached = generate(trained, prompt, n_new)
        assert cached.tokens == tinygpt.generate(trained, prompt, n_new).tolist()
        seq = np.array(cached.tokens)
        ref = np.array([tinygpt.forward(trained, [seq[:len(prompt) + i]])[0][0, -1]
                        for i in range(n_new)])                  # (n_new, vocab)
        np.testing.assert_allclose(cached.logits, ref, rtol=0, atol=1e-12)

    def test_trained_model_copies_with_the_cache(self, trained):
        prompt = [2, 0, 1, 5, 4, 3]
        assert generate(trained, prompt, 6).tokens == prompt * 2

    def test_context_and_cache_checks(self, trained):
        raises_clean("prompt of 6 tokens plus n_new = 7 needs 12 positions, more than the "
                     "model's context n_ctx = 11", generate, trained, [1] * 6, 7)
        raises_clean("cache of shape (n_layers, n_max, d_model) = (1, 4, 8) does not fit this "
                     "model: expected n_layers = 1, d_model = 16 and n_max <= n_ctx = 11",
                     decoder_step, trained, 1, KVCache(1, 4, 8))


def test_the_fair_count_without_a_cache_lies_between_the_two_programs():
    """recompute_last_row_macs: more than a step with the cache, less than what the run without a
    cache computes (forward_macs, the count its code keeps), equal to both for one token, and the
    difference is exactly the last layer's unused work."""
    from attnkit import tinygpt
    from attnkit.kvcache import recompute_last_row_macs

    params = tinygpt.init(vocab_size=13, d_model=8, n_heads=2, n_layers=3, n_ctx=16, seed=1)
    plain = generate(params, [1, 2], n_new=6, use_cache=False)
    d, d_ff, vocab = 8, params["h0.mlp.w_1"].shape[1], 13
    for i in range(6):
        n = 2 + i                                           # tokens in play at step i
        assert forward_macs(params, n) == plain.macs[i]
        assert step_macs(params, n - 1) < recompute_last_row_macs(params, n) < forward_macs(params, n)
        unused = (4 * (n - 1) * d * d - 2 * (n - 1) * d * d) + (2 * n * n * d - 2 * n * d) \
            + 2 * (n - 1) * d * d_ff + (n - 1) * d * vocab
        assert forward_macs(params, n) - recompute_last_row_macs(params, n) == unused
    assert recompute_last_row_macs(params, 1) == forward_macs(params, 1) == step_macs(params, 0)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        recompute_last_row_macs(params, 0)
