"""Generating text one token at a time, with and without a KV cache.

A decoder-only Transformer (GPT style, pre-LN) predicts token t+1 from tokens 0..t. Generating
n tokens the plain way runs the whole model again on the whole prefix at every step. But with
the causal mask, the keys and values of the earlier tokens never change once computed: a KV
cache keeps them, so each new token computes only its own row (its q, k, v, one row of scores)
and reads the cached K and V of the earlier tokens.

    without a cache   step t recomputes t+1 rows:  about (t+1) * (12 d^2) + (t+1)^2 * 2d  per layer
    with a cache      step t computes 1 row:       about        12 d^2   + (t+1)   * 2d  per layer

The cache itself is memory that grows with n: two arrays (K and V) of n x d_model numbers in
every layer, ``2 * n_layers * n * d_model`` numbers in all (:func:`cache_numbers`).

Everything here stands on :mod:`attnkit.core`: the uncached path calls
:func:`~attnkit.core.multi_head_attention` with a causal mask; the cached path calls
:func:`~attnkit.core.scaled_dot_product_attention` on the cached heads.

    >>> params = init_decoder(vocab_size=11, d_model=8, n_heads=2, n_layers=2, d_ff=16, seed=0)
    >>> plain = generate(params, [1, 2, 3], n_new=5, use_cache=False)
    >>> cached = generate(params, [1, 2, 3], n_new=5, use_cache=True)
    >>> plain.tokens == cached.tokens
    True
    >>> bool(np.abs(plain.logits - cached.logits).max() < 1e-12)
    True
    >>> int(plain.macs.sum()) > int(cached.macs.sum())
    True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from . import tinygpt
from ._checks import as_float_array, as_token_ids, check_positive, check_positive_int, check_seed
from .core import (
    causal_mask,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    sinusoidal_positional_encoding,
    split_heads,
)
from .layers import feed_forward, layer_norm, layer_norm_forward

__all__ = [
    "init_decoder",
    "decoder_forward",
    "KVCache",
    "decoder_step",
    "Generation",
    "generate",
    "cache_numbers",
    "cache_bytes",
    "MODEL_SIZES",
    "DEMO_MODEL",
    "DEMO_PROMPT",
    "demo_runs",
    "tinygpt_step",
    "tinygpt_generate",
    "tinygpt_recompute_difference",
]

# A few published model shapes (inputs, not results): layers, d_model, context length.
MODEL_SIZES = {
    # Vaswani et al. 2017, Table 3 ("base"); the context is the longest the book uses
    "transformer-base": {"n_layers": 6, "d_model": 512, "n_ctx": 512},
    # Radford et al. 2019 (GPT-2 small, 124M parameters)
    "gpt2-small": {"n_layers": 12, "d_model": 768, "n_ctx": 1024},
    # Touvron et al. 2023 (Llama 2 7B, no grouped-query attention; 6.74 billion parameters)
    "llama2-7b": {"n_layers": 32, "d_model": 4096, "n_ctx": 4096, "n_params": 6_740_000_000},
}


# The small random decoder the book generates with (figure ch9-kv-work, listing ch9/kv_work.py).
DEMO_MODEL = dict(vocab_size=32, d_model=16, n_heads=2, n_layers=2, d_ff=64, seed=0)
DEMO_PROMPT = (1, 2, 3)


# --------------------------------------------------------------------------
# a small decoder-only model with given (random) weights
# --------------------------------------------------------------------------

def init_decoder(vocab_size, d_model, n_heads, n_layers, d_ff, *, seed=0, scale=1.0):
    """Random weights for a small causal decoder stack: a dict of arrays.

    ``embed`` (vocab_size, d_model) turns ids into vectors, ``w_out`` (d_model, vocab_size)
    turns the last vectors into logits; ``layers`` is a list of dicts with ``w_q, w_k, w_v, w_o`` (d_model, d_model), ``w_1``
    (d_model, d_ff), ``b_1`` (d_ff,), ``w_2`` (d_ff, d_model), ``b_2`` (d_model,).
    Entries are N(0, scale^2 / fan_in), ``scale > 0``.

    >>> p = init_decoder(10, 8, 2, 3, 16)
    >>> p["embed"].shape, len(p["layers"]), p["n_heads"]
    ((10, 8), 3, 2)
    """
    vocab_size = check_positive_int("vocab_size", vocab_size)
    d_model = check_positive_int("d_model", d_model)
    n_heads = check_positive_int("n_heads", n_heads)
    n_layers = check_positive_int("n_layers", n_layers)
    d_ff = check_positive_int("d_ff", d_ff)
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    scale = check_positive("scale", scale)
    rng = np.random.default_rng(check_seed(seed))
    g = lambda fan_in, *shape: rng.normal(0, scale / math.sqrt(fan_in), size=shape)  # noqa: E731
    layers = [{
        "w_q": g(d_model, d_model, d_model), "w_k": g(d_model, d_model, d_model),
        "w_v": g(d_model, d_model, d_model), "w_o": g(d_model, d_model, d_model),
        "w_1": g(d_model, d_model, d_ff), "b_1": np.zeros(d_ff),
        "w_2": g(d_ff, d_ff, d_model), "b_2": np.zeros(d_model),
    } for _ in range(n_layers)]
    return {"embed": rng.normal(0, 1, size=(vocab_size, d_model)), "layers": layers,
            "w_out": g(d_model, d_model, vocab_size), "n_heads": n_heads}


def _sizes(params):
    vocab_size, d_model = params["embed"].shape
    return vocab_size, d_model, params["n_heads"], len(params["layers"])


def _check_token(token, vocab_size):
    """One token id as a Python int, or ValueError."""
    if np.ndim(token) != 0:
        raise ValueError(f"token must be one integer id, got {token!r}")
    return int(as_token_ids("token", [token], vocab_size)[0])


def _ffn_macs(rows, d_model, d_ff):
    return rows * d_model * d_ff * 2                        # x @ w_1 and hidden @ w_2


def decoder_forward(params, tokens, *, macs=None):
    """Logits for every position, recomputing everything: (n, vocab_size).

        x = E[tokens] + PE                                   (n, d_model)
        x = x + MultiHead(LN(x), causal)                     each layer, pre-LN
        x = x + FFN(LN(x))
        logits = LN(x) @ W_out                               (n, vocab_size)

    Row t of the logits scores the token that follows ``tokens[t]``. If ``macs`` is a list,
    the multiply-adds this call performs are appended to it (counted from the arrays'
    shapes: projections, scores, weighted sums, feed-forward, output layer).

    >>> p = init_decoder(10, 8, 2, 2, 16)
    >>> decoder_forward(p, [1, 2, 3]).shape
    (3, 10)
    """
    vocab_size, d_model, n_heads, _ = _sizes(params)
    t = as_token_ids("tokens", tokens, vocab_size)
    n = len(t)
    x = params["embed"][t] + sinusoidal_positional_encoding(n, d_model)      # (n, d_model)
    count = 0
    for layer in params["layers"]:
        a, _ = multi_head_attention(layer_norm(x), layer["w_q"], layer["w_k"], layer["w_v"],
                                    layer["w_o"], n_heads, mask=causal_mask(n))  # (n, d_model)
        x = x + a
        x = x + feed_forward(layer_norm(x), layer["w_1"], layer["b_1"],
                             layer["w_2"], layer["b_2"])                     # (n, d_model)
        count += 4 * n * d_model * d_model                  # q, k, v and output projections
        count += 2 * n * n * d_model                        # q k^T and weights @ v, all heads
        count += _ffn_macs(n, d_model, layer["w_1"].shape[1])
    logits = layer_norm(x) @ params["w_out"]                # (n, d_model) @ (d_model, vocab) -> (n, vocab)
    count += n * d_model * vocab_size
    if macs is not None:
        macs.append(count)
    return logits


# --------------------------------------------------------------------------
# the cache
# --------------------------------------------------------------------------

class KVCache:
    """The keys and values of every token seen so far, in every layer.

    ``k`` and ``v`` have shape (n_layers, n_max, d_model); the first ``length`` rows are
    filled. Heads are just column blocks of d_model, so one array holds them all.

    >>> cache = KVCache(n_layers=2, n_max=16, d_model=8)
    >>> cache.numbers, cache.length
    (512, 0)
    """

    def __init__(self, n_layers, n_max, d_model):
        self.n_layers = check_positive_int("n_layers", n_layers)
        self.n_max = check_positive_int("n_max", n_max)
        self.d_model = check_positive_int("d_model", d_model)
        self.k = np.zeros((self.n_layers, self.n_max, self.d_model))   # (n_layers, n_max, d_model)
        self.v = np.zeros((self.n_layers, self.n_max, self.d_model))
        self.length = 0

    @property
    def numbers(self) -> int:
        """Numbers the cache can hold: ``2 * n_layers * n_max * d_model``."""
        return self.k.size + self.v.size

    def append(self, layer, k_new, v_new):
        """Store the key and value rows (d_model,) of the next token in ``layer``.

        Call it for layers 0, 1, ..., n_layers - 1 in turn; the token counts once the last
        layer has stored its row.
        """
        if not (isinstance(layer, (int, np.integer)) and 0 <= layer < self.n_layers):
            raise ValueError(f"layer must be an integer in [0, {self.n_layers - 1}], got {layer!r}")
        if self.length >= self.n_max:
            raise ValueError(f"the cache is full: it holds n_max = {self.n_max} tokens")
        for name, row in (("k_new", k_new), ("v_new", v_new)):
            row = as_float_array(name, row)
            if row.shape != (self.d_model,):
                raise ValueError(
                    f"{name} must have shape (d_model,) = ({self.d_model},) to fit this cache "
                    f"of shape (n_layers, n_max, d_model) = {self.k.shape}, got shape {row.shape}"
                )
        self.k[layer, self.length] = k_new
        self.v[layer, self.length] = v_new
        if layer == self.n_layers - 1:
            self.length += 1

    def keys(self, layer, upto):
        """(upto, d_model) keys and values of tokens 0..upto-1 in ``layer``."""
        return self.k[layer, :upto], self.v[layer, :upto]


def decoder_step(params, token, cache, *, macs=None):
    """Run one new token through the model, reusing ``cache``: its logits (vocab_size,).

    The token sits at position ``cache.length``. In every layer only its own q, k, v are
    computed; k and v are appended to the cache and q attends to all cached keys (its own
    included). No mask is needed: the cache holds only the past.
    """
    vocab_size, d_model, n_heads, n_layers = _sizes(params)
    if not isinstance(cache, KVCache):
        raise ValueError(f"cache must be a KVCache, got {type(cache).__name__}")
    if (cache.n_layers, cache.d_model) != (n_layers, d_model):
        raise ValueError(
            f"cache of shape (n_layers, n_max, d_model) = {cache.k.shape} does not fit this "
            f"model: expected n_layers = {n_layers} and d_model = {d_model}"
        )
    t = _check_token(token, vocab_size)
    pos = cache.length
    if pos >= cache.n_max:
        raise ValueError(f"the cache is full: it holds n_max = {cache.n_max} tokens")
    pe = sinusoidal_positional_encoding(pos + 1, d_model)[pos]               # (d_model,)
    x = (params["embed"][t] + pe)[None, :]                                   # (1, d_model)
    d_head = d_model // n_heads
    count = 0
    for i, layer in enumerate(params["layers"]):
        a = layer_norm(x)                                                    # (1, d_model)
        q, k, v = a @ layer["w_q"], a @ layer["w_k"], a @ layer["w_v"]       # (1, d_model) each
        cache.append(i, k[0], v[0])
        k_all, v_all = cache.keys(i, pos + 1)                                # (pos+1, d_model)
        heads, _ = scaled_dot_product_attention(
            split_heads(q, n_heads), split_heads(k_all, n_heads), split_heads(v_all, n_heads),
            scale=1.0 / math.sqrt(d_head))                                   # (n_heads, 1, d_head)
        x = x + merge_heads(heads) @ layer["w_o"]                            # (1, d_model)
        x = x + feed_forward(layer_norm(x), layer["w_1"], layer["b_1"],
                             layer["w_2"], layer["b_2"])                     # (1, d_model)
        count += 4 * d_model * d_model                      # this token's q, k, v, output
        count += 2 * (pos + 1) * d_model                    # one row of scores, one weighted sum
        count += _ffn_macs(1, d_model, layer["w_1"].shape[1])
    logits = layer_norm(x) @ params["w_out"]                                 # (1, vocab)
    count += d_model * vocab_size
    if macs is not None:
        macs.append(count)
    return logits[0]


# --------------------------------------------------------------------------
# greedy generation, both ways
# --------------------------------------------------------------------------

@dataclass
class Generation:
    """The result of :func:`generate`.

    ``tokens``: prompt + generated ids; ``logits`` (n_new, vocab_size): the logits each new
    token was chosen from; ``macs`` (n_new,): multiply-adds spent on each new token
    (for the cached run, the first entry includes reading the prompt);
    ``cache``: the filled KVCache (None without one).
    """
    tokens: list
    logits: np.ndarray
    macs: np.ndarray
    cache: KVCache | None = field(default=None, repr=False)


def generate(params, prompt, n_new, *, use_cache=True):
    """Greedy generation of ``n_new`` tokens after ``prompt``: same tokens either way.

    Without a cache every step calls :func:`decoder_forward` on the whole sequence so far
    and keeps its last row. With a cache the prompt is read once, token by token, and each
    new token costs one :func:`decoder_step`. ``n_new`` is at least 1, as for
    :func:`attnkit.tinygpt.generate`.
    """
    vocab_size, d_model, _, n_layers = _sizes(params)
    tokens = [int(t) for t in as_token_ids("prompt", prompt, vocab_size)]
    n_new = check_positive_int("n_new", n_new)
    logits_out, macs = [], []
    if not use_cache:
        for _ in range(n_new):
            logits = decoder_forward(params, tokens, macs=macs)[-1]          # (vocab,)
            logits_out.append(logits)
            tokens.append(int(np.argmax(logits)))
        return Generation(tokens, np.array(logits_out), np.array(macs))

    cache = KVCache(n_layers, len(tokens) + n_new, d_model)
    prompt_macs = []
    for t in tokens:                                        # read the prompt into the cache
        logits = decoder_step(params, t, cache, macs=prompt_macs)
    for step in range(n_new):
        if step:
            logits = decoder_step(params, tokens[-1], cache, macs=macs)
        logits_out.append(logits)
        tokens.append(int(np.argmax(logits)))
    macs = [sum(prompt_macs)] + macs
    return Generation(tokens, np.array(logits_out), np.array(macs), cache)


# --------------------------------------------------------------------------
# what the cache costs
# --------------------------------------------------------------------------

def cache_numbers(n_layers, n, d_model):
    """Numbers a KV cache holds for n tokens: ``2 * n_layers * n * d_model`` (K and V).

    >>> cache_numbers(12, 1024, 768)          # GPT-2 small at its full context
    18874368
    """
    return 2 * check_positive_int("n_layers", n_layers) * check_positive_int("n", n) \
        * check_positive_int("d_model", d_model)


def cache_bytes(n_layers, n, d_model, itemsize=2):
    """Bytes of that cache; ``itemsize`` 2 for 16-bit floats (the usual for inference).

    >>> cache_bytes(32, 4096, 4096) / 2**30   # Llama 2 7B, one 4096-token sequence, GiB
    2.0
    """
    return cache_numbers(n_layers, n, d_model) * check_positive_int("itemsize", itemsize)


@functools.lru_cache(maxsize=2)
def demo_runs(n_new=160):
    """``(plain, cached)``: :func:`generate` on ``DEMO_MODEL`` without and with the cache.

    >>> plain, cached = demo_runs(4)
    >>> plain.tokens == cached.tokens
    True
    """
    params = init_decoder(**DEMO_MODEL)
    return (generate(params, list(DEMO_PROMPT), n_new, use_cache=False),
            generate(params, list(DEMO_PROMPT), n_new, use_cache=True))


# --------------------------------------------------------------------------
# the same cache for chapter 8's trained tiny GPT
# --------------------------------------------------------------------------

def tinygpt_step(params, token, cache):
    """One new token through :mod:`attnkit.tinygpt`'s model, reusing ``cache``: logits (V,).

    The same layers as :func:`attnkit.tinygpt.forward` (its layer norm and MLP), but only
    the new token's row: its q, k, v per head, k and v appended to the cache, q scored against
    every cached key. ``cache`` is a :class:`KVCache` with ``d_model`` columns (the heads side
    by side, as :func:`attnkit.core.merge_heads` lays them out).
    """
    cfg = tinygpt.config_of(params)
    d, n_heads, n_layers = cfg["d_model"], cfg["n_heads"], cfg["n_layers"]
    if not isinstance(cache, KVCache):
        raise ValueError(f"cache must be a KVCache, got {type(cache).__name__}")
    if (cache.n_layers, cache.d_model) != (n_layers, d) or cache.n_max > cfg["n_ctx"]:
        raise ValueError(
            f"cache of shape (n_layers, n_max, d_model) = {cache.k.shape} does not fit this "
            f"model: expected n_layers = {n_layers}, d_model = {d} and n_max <= n_ctx = {cfg['n_ctx']}"
        )
    t = _check_token(token, cfg["vocab_size"])
    pos = cache.length
    if pos >= cache.n_max:
        raise ValueError(f"the cache is full: it holds n_max = {cache.n_max} tokens")
    x = (params["wte"][t] + params["wpe"][pos])[None, None, :]               # (1, 1, d)
    for l in range(n_layers):
        p = tinygpt.layer_params(params, l)
        a, _ = layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])             # (1, 1, d)
        q = a[:, None] @ p["attn.w_q"]                                       # (1, H, 1, d_head)
        k = a[:, None] @ p["attn.w_k"]                                       # (1, H, 1, d_head)
        v = a[:, None] @ p["attn.w_v"]                                       # (1, H, 1, d_head)
        cache.append(l, merge_heads(k[0])[0], merge_heads(v[0])[0])          # (d,) rows
        k_all, v_all = cache.keys(l, pos + 1)                                # (pos+1, d)
        z, _ = scaled_dot_product_attention(q[0], split_heads(k_all, n_heads),
                                            split_heads(v_all, n_heads))     # (H, 1, d_head)
        x = x + (z[None] @ p["attn.w_o"]).sum(axis=1)                        # (1, 1, d)
        m, _ = layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])
        out, _ = tinygpt.mlp_forward(p, m)                                   # (1, 1, d)
        x = x + out
    x_f, _ = layer_norm_forward(x, params["ln_f.g"], params["ln_f.b"])
    return (x_f @ params["w_u"])[0, 0]                                       # (V,)


def tinygpt_generate(params, prompt, n_new):
    """Greedy generation for a :mod:`attnkit.tinygpt` model with a KV cache.

    Gives the same tokens as ``tinygpt.generate(params, prompt, n_new)`` (temperature 0) as
    long as everything fits in the model's context: ``len(prompt) + n_new - 1 <= n_ctx``
    (beyond it tinygpt slides its window, which moves every position and invalidates a cache).
    Returns :class:`Generation` (``macs`` is empty: this path does not count).
    """
    cfg = tinygpt.config_of(params)
    tokens = [int(t) for t in as_token_ids("prompt", prompt, cfg["vocab_size"])]
    n_new = check_positive_int("n_new", n_new)
    need = len(tokens) + n_new - 1
    if need > cfg["n_ctx"]:
        raise ValueError(
            f"prompt of {len(tokens)} tokens plus n_new = {n_new} needs {need} positions, more "
            f"than the model's context n_ctx = {cfg['n_ctx']}"
        )
    cache = KVCache(cfg["n_layers"], need, cfg["d_model"])
    for t in tokens:
        logits = tinygpt_step(params, t, cache)
    logits_out = []
    for step in range(n_new):
        if step:
            logits = tinygpt_step(params, tokens[-1], cache)
        logits_out.append(logits)
        tokens.append(int(np.argmax(logits)))
    return Generation(tokens, np.array(logits_out), np.array([], dtype=int), cache)


def tinygpt_recompute_difference(params, prompt, n_new):
    """Largest |logit| difference between :func:`tinygpt_generate` and recomputing every step.

    Runs the cached generation, then :func:`attnkit.tinygpt.forward` on every prefix it grew
    through, and compares the last rows: rounding only (about 1e-15).

    >>> from attnkit import tinygpt
    >>> bool(tinygpt_recompute_difference(tinygpt.init(6, 8, 2, 1, 8), [1, 2], 3) < 1e-12)
    True
    """
    g = tinygpt_generate(params, prompt, n_new)
    seq = np.array(g.tokens)
    n_prompt = len(g.tokens) - n_new
    redo = np.array([tinygpt.forward(params, [seq[:n_prompt + i]])[0][0, -1]
                     for i in range(n_new)])                                 # (n_new, V)
    return float(np.abs(redo - g.logits).max())
