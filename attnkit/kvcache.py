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

The decoder is chapter 8's, :mod:`attnkit.tinygpt`: the uncached path is its
:func:`~attnkit.tinygpt.forward` on the whole prefix; the cached path, :func:`decoder_step`,
runs the same layers on the new token's row only, with
:func:`~attnkit.core.scaled_dot_product_attention` over the cached heads. Both count the
multiply-adds they spend (:func:`forward_macs`, :func:`step_macs`).

    >>> from attnkit import tinygpt
    >>> params = tinygpt.init(vocab_size=11, d_model=8, n_heads=2, n_layers=2, n_ctx=8, seed=0)
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
from dataclasses import dataclass, field

import numpy as np

from . import tinygpt
from ._checks import as_float_array, as_token_ids, check_positive_int
from .core import merge_heads, scaled_dot_product_attention, split_heads
from .layers import layer_norm_forward

__all__ = [
    "KVCache",
    "forward_macs",
    "step_macs",
    "decoder_step",
    "Generation",
    "generate",
    "recompute_difference",
    "recompute_last_row_macs",
    "cache_numbers",
    "cache_bytes",
    "MODEL_SIZES",
    "DEMO_MODEL",
    "DEMO_PROMPT",
    "demo_runs",
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


# The small random decoder the book counts with (figure ch9-kv-work, listing ch9/kv_work.py):
# chapter 8's model with fresh weights, its context long enough for the 160 tokens of the figure.
DEMO_MODEL = dict(vocab_size=32, d_model=16, n_heads=2, n_layers=2, n_ctx=256, seed=0)
DEMO_PROMPT = (1, 2, 3)


# --------------------------------------------------------------------------
# the work: multiply-adds counted from the shapes
# --------------------------------------------------------------------------

def _check_token(token, vocab_size):
    """One token id as a Python int, or ValueError."""
    if np.ndim(token) != 0:
        raise ValueError(f"token must be one integer id, got {token!r}")
    return int(as_token_ids("token", [token], vocab_size)[0])


def forward_macs(params, n):
    """Multiply-adds of one :func:`attnkit.tinygpt.forward` on n tokens (every row recomputed).

    Per layer: the q, k, v and output projections (4 n d^2), q k^T and weights @ v over all
    heads (2 n^2 d), the MLP (2 n d d_ff); then the unembedding (n d V). Layer norms, softmax
    and additions are left out: they are O(n d), not multiply-adds of a matrix product.

    >>> from attnkit import tinygpt
    >>> forward_macs(tinygpt.init(10, 8, 2, 1, 4), 4)     # 4*4*64 + 2*16*8 + 2*4*8*32 + 4*8*10
    3648
    """
    cfg = tinygpt.config_of(params)
    n = check_positive_int("n", n)
    d, d_ff = cfg["d_model"], params["h0.mlp.w_1"].shape[1]
    per_layer = 4 * n * d * d + 2 * n * n * d + 2 * n * d * d_ff
    return cfg["n_layers"] * per_layer + n * d * cfg["vocab_size"]


def step_macs(params, pos):
    """Multiply-adds of one :func:`decoder_step` for the token at position ``pos`` (0-based).

    The same products as :func:`forward_macs`, for one row: 4 d^2 + 2 (pos + 1) d + 2 d d_ff
    per layer (its scores and weighted sum read pos + 1 cached rows), then d V.

    >>> from attnkit import tinygpt
    >>> step_macs(tinygpt.init(10, 8, 2, 1, 4), 3)        # 4*64 + 2*4*8 + 2*8*32 + 8*10
    912
    """
    cfg = tinygpt.config_of(params)
    if isinstance(pos, (bool, np.bool_)) or not isinstance(pos, (int, np.integer)) or pos < 0:
        raise ValueError(f"pos must be a non-negative integer, got {pos!r}")
    d, d_ff = cfg["d_model"], params["h0.mlp.w_1"].shape[1]
    per_layer = 4 * d * d + 2 * (pos + 1) * d + 2 * d * d_ff
    return cfg["n_layers"] * per_layer + d * cfg["vocab_size"]


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


def decoder_step(params, token, cache):
    """One new token through :mod:`attnkit.tinygpt`'s model, reusing ``cache``: logits (V,).

    The same layers as :func:`attnkit.tinygpt.forward` (its layer norm and MLP), but only the
    new token's row, at position ``cache.length``: its q, k, v per head, k and v appended to
    the cache, q scored against every cached key (its own included). No mask is needed: the
    cache holds only the past. ``cache`` is a :class:`KVCache` with ``d_model`` columns (the
    heads side by side, as :func:`attnkit.core.merge_heads` lays them out).

    >>> from attnkit import tinygpt
    >>> params = tinygpt.init(6, 8, 2, 1, 8)
    >>> cache = KVCache(n_layers=1, n_max=8, d_model=8)
    >>> rows = [decoder_step(params, t, cache) for t in [1, 2, 3]]
    >>> full, _ = tinygpt.forward(params, [[1, 2, 3]])
    >>> bool(np.abs(np.array(rows) - full[0]).max() < 1e-12), cache.length
    (True, 3)
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
        a, _ = layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])               # (1, 1, d)
        q = a[:, None] @ p["attn.w_q"]                                       # (1, H, 1, d_head)
        k = a[:, None] @ p["attn.w_k"]                                       # (1, H, 1, d_head)
        v = a[:, None] @ p["attn.w_v"]                                       # (1, H, 1, d_head)
        cache.append(l, merge_heads(k[0])[0], merge_heads(v[0])[0])          # (d,) rows
        k_all, v_all = cache.keys(l, pos + 1)                                # (pos+1, d)
        z, _ = scaled_dot_product_attention(q[0], split_heads(k_all, n_heads),
                                            split_heads(v_all, n_heads))     # (H, 1, d_head)
        x = x + (z[None] @ p["attn.w_o"]).sum(axis=1)                        # (1, 1, d)
        m, _ = layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])               # (1, 1, d)
        out, _ = tinygpt.mlp_forward(p, m)                                   # (1, 1, d)
        x = x + out
    x_f, _ = layer_norm_forward(x, params["ln_f.g"], params["ln_f.b"])       # (1, 1, d)
    return (x_f @ params["w_u"])[0, 0]                                       # (V,)


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
    """Greedy generation of ``n_new`` tokens after ``prompt`` with a :mod:`attnkit.tinygpt` model.

    Without a cache every step runs :func:`attnkit.tinygpt.forward` on the whole sequence so
    far and keeps its last row (as ``tinygpt.generate`` does). With a cache the prompt is read
    once, token by token, and each new token costs one :func:`decoder_step`. Same tokens
    either way, and the same as ``tinygpt.generate(params, prompt, n_new)``.
    Everything must fit in the model's context: ``len(prompt) + n_new - 1 <= n_ctx`` (beyond
    it tinygpt slides its window, which moves every position and invalidates a cache).
    ``n_new`` is at least 1, as for :func:`attnkit.tinygpt.generate`.
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
    logits_out, macs = [], []
    if not use_cache:
        for _ in range(n_new):
            logits = tinygpt.forward(params, [tokens])[0][0, -1]             # (vocab,)
            macs.append(forward_macs(params, len(tokens)))
            logits_out.append(logits)
            tokens.append(int(np.argmax(logits)))
        return Generation(tokens, np.array(logits_out), np.array(macs))

    cache = KVCache(cfg["n_layers"], need, cfg["d_model"])
    for t in tokens:                                        # read the prompt into the cache
        logits = decoder_step(params, t, cache)
    macs = [sum(step_macs(params, pos) for pos in range(len(tokens)))]
    for step in range(n_new):
        if step:
            macs.append(step_macs(params, cache.length))
            logits = decoder_step(params, tokens[-1], cache)
        logits_out.append(logits)
        tokens.append(int(np.argmax(logits)))
    return Generation(tokens, np.array(logits_out), np.array(macs), cache)


def recompute_difference(params, prompt, n_new):
    """Largest |logit| difference between the cached :func:`generate` and recomputing every step.

    Runs the cached generation, then :func:`attnkit.tinygpt.forward` on every prefix it grew
    through, and compares the last rows: rounding only (about 1e-15).

    >>> from attnkit import tinygpt
    >>> bool(recompute_difference(tinygpt.init(6, 8, 2, 1, 8), [1, 2], 3) < 1e-12)
    True
    """
    g = generate(params, prompt, n_new, use_cache=True)
    seq = np.array(g.tokens)
    n_prompt = len(g.tokens) - n_new
    redo = np.array([tinygpt.forward(params, [seq[:n_prompt + i]])[0][0, -1]
                     for i in range(n_new)])                                 # (n_new, V)
    return float(np.abs(redo - g.logits).max())


# --------------------------------------------------------------------------
# what the cache costs
# --------------------------------------------------------------------------

def recompute_last_row_macs(params, n):
    """Multiply-adds to choose the next token without a cache, skipping the work nobody uses.

    :func:`forward_macs` charges the run without a cache with what its code computes: every layer
    on every one of the ``n`` rows, and the next-token scores at every position. Only the last
    row's scores are used, and the last layer needs the earlier rows only for their keys and
    values: this count does the other layers in full, the earlier rows' k and v in the last
    layer (2 (n - 1) d^2), the last row's full work there, and its logits only (d V). It lies
    between :func:`step_macs` (with a cache) and :func:`forward_macs`, and equals both for n = 1.

    >>> from attnkit import tinygpt
    >>> p = tinygpt.init(10, 8, 2, 2, 4)
    >>> step_macs(p, 3) < recompute_last_row_macs(p, 4) < forward_macs(p, 4)
    True
    """
    cfg = tinygpt.config_of(params)
    n = check_positive_int("n", n)
    d, d_ff = cfg["d_model"], params["h0.mlp.w_1"].shape[1]
    full = 4 * n * d * d + 2 * n * n * d + 2 * n * d * d_ff     # one layer, every row
    row = 4 * d * d + 2 * n * d + 2 * d * d_ff                  # one layer, the last row
    return (cfg["n_layers"] - 1) * full + 2 * (n - 1) * d * d + row + d * cfg["vocab_size"]


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
    params = tinygpt.init(**DEMO_MODEL)
    return (generate(params, list(DEMO_PROMPT), n_new, use_cache=False),
            generate(params, list(DEMO_PROMPT), n_new, use_cache=True))
