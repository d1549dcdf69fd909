"""How many bytes the KV cache of a real model holds, from its published configuration.

At generation time every layer keeps, for every past token, what later tokens will read:

    multi-head / grouped-query attention:  2 * n_kv_heads * head_dim  numbers per token per layer
                                           (2: one key and one value vector per key/value head)
    multi-head latent attention (MLA):     kv_lora_rank + qk_rope_head_dim  numbers per token per layer
                                           (one latent shared by keys and values, one shared RoPE key)

times the bytes of one number (2 for bf16/fp16, 1 for fp8, 4 for fp32), summed over layers. A
sliding-window layer keeps only its last ``window`` tokens, so past the window it stops
growing (:func:`kv_cache_bytes`).

:data:`MODELS` holds the configuration numbers (typed inputs, each with its source); every
other number here is computed from them.

    >>> kv_bytes_per_token("llama-3-8b")                  # bf16: 2 * 8 * 128 * 2 bytes * 32 layers
    131072
    >>> round(kv_cache_bytes("llama-3-8b", 8192) / 2**30, 3)     # its full 8K context, in GiB
    1.0
"""

from __future__ import annotations

from dataclasses import dataclass

from ._checks import check_positive_int

__all__ = [
    "DTYPE_BYTES",
    "ModelConfig",
    "MODELS",
    "kv_numbers_per_token_per_layer",
    "kv_bytes_per_token",
    "kv_cache_bytes",
    "kv_cache_bytes_if",
    "cache_ratio",
    "kv_table",
    "gib",
]

# Bytes of one stored number. bf16 is what these models' weights ship in (config.json
# "torch_dtype": "bfloat16"), and what a KV cache holds unless it is quantized.
DTYPE_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}


@dataclass(frozen=True)
class ModelConfig:
    """The configuration numbers that size a model's KV cache (inputs, not results).

    ``attention`` is "gqa" (MHA and MQA are GQA with n_kv_heads = n_heads or 1) or "mla".
    ``n_sliding_layers`` of the ``n_layers`` keep only ``sliding_window`` tokens.
    """

    name: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    d_model: int
    source: str
    attention: str = "gqa"
    sliding_window: int | None = None
    n_sliding_layers: int = 0
    kv_lora_rank: int | None = None          # MLA only
    qk_rope_head_dim: int | None = None      # MLA only: the shared, decoupled RoPE key
    qk_nope_head_dim: int | None = None      # MLA only: per-head key width without RoPE
    v_head_dim: int | None = None            # MLA only
    context: int | None = None               # the longest context the model card states
    note: str = ""

    @property
    def n_full_layers(self) -> int:
        return self.n_layers - self.n_sliding_layers


# Each entry: the model's config.json on its Hugging Face page (the address beside it) unless said.
MODELS = {
    m.name: m for m in [
        ModelConfig(
            "llama-2-7b", n_layers=32, n_heads=32, n_kv_heads=32, head_dim=128, d_model=4096,
            context=4096,
            source="https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
            note="multi-head attention (every head its own keys and values): the baseline"),
        ModelConfig(
            "llama-3-8b", n_layers=32, n_heads=32, n_kv_heads=8, head_dim=128, d_model=4096,
            context=8192,
            source="https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"),
        ModelConfig(
            "llama-3-70b", n_layers=80, n_heads=64, n_kv_heads=8, head_dim=128, d_model=8192,
            context=8192,
            source="https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"),
        ModelConfig(
            "mistral-7b", n_layers=32, n_heads=32, n_kv_heads=8, head_dim=128, d_model=4096,
            sliding_window=4096, n_sliding_layers=32, context=32768,
            source="https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
            note="v0.1: every layer has the 4096 window (later versions dropped it)"),
        ModelConfig(
            "qwen3-8b", n_layers=36, n_heads=32, n_kv_heads=8, head_dim=128, d_model=4096,
            context=32768,
            source="https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
            note="32768 tokens natively (model card; 131072 with YaRN)"),
        ModelConfig(
            "gemma-3-27b", n_layers=62, n_heads=32, n_kv_heads=16, head_dim=128, d_model=5376,
            sliding_window=1024, n_sliding_layers=52, context=131072,
            source="https://huggingface.co/google/gemma-3-27b-it/blob/main/config.json",
            note="five local (window 1024) layers to each global one: sliding_window_pattern 6, "
                 "so 52 of 62 layers are local (Gemma 3 technical report, 2025)"),
        ModelConfig(
            "gpt-oss-120b", n_layers=36, n_heads=64, n_kv_heads=8, head_dim=64, d_model=2880,
            sliding_window=128, n_sliding_layers=18, context=131072,
            source="https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json",
            note="layer_types alternate sliding_attention (window 128) and full_attention"),
        ModelConfig(
            "deepseek-v3", n_layers=61, n_heads=128, n_kv_heads=128, head_dim=192, d_model=7168,
            attention="mla", kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
            v_head_dim=128, context=131072,
            source="https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json",
            note="MLA: the cache holds a 512-wide latent and one 64-wide RoPE key per token; "
                 "head_dim here is a key's width, 128 + 64; the 61 layers of the main model "
                 "(the multi-token-prediction module not counted); context 128K (DeepSeek-V3 report)"),
    ]
}


def _model(model) -> ModelConfig:
    if isinstance(model, ModelConfig):
        return _checked(model)
    if model not in MODELS:
        raise ValueError(f"model must be one of {sorted(MODELS)} or a ModelConfig, got {model!r}")
    return MODELS[model]


def _checked(m: ModelConfig) -> ModelConfig:
    """Raise if a configuration's numbers cannot describe a model."""
    for field in ("n_layers", "n_heads", "n_kv_heads", "head_dim", "d_model"):
        check_positive_int(field, getattr(m, field))
    if m.n_heads % m.n_kv_heads:
        raise ValueError(f"n_kv_heads={m.n_kv_heads} must divide n_heads={m.n_heads} in {m.name!r}")
    if m.attention not in ("gqa", "mla"):
        raise ValueError(f"attention must be 'gqa' or 'mla' in {m.name!r}, got {m.attention!r}")
    if m.attention == "mla":
        for field in ("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"):
            check_positive_int(field, getattr(m, field))
        if m.kv_lora_rank >= m.d_model:
            raise ValueError(f"kv_lora_rank={m.kv_lora_rank} must be smaller than "
                             f"d_model={m.d_model} in {m.name!r}")
    if not 0 <= m.n_sliding_layers <= m.n_layers:
        raise ValueError(f"n_sliding_layers must be between 0 and n_layers={m.n_layers} in "
                         f"{m.name!r}, got {m.n_sliding_layers}")
    if m.n_sliding_layers:
        check_positive_int("sliding_window", m.sliding_window)
    return m


def _itemsize(dtype) -> int:
    if dtype not in DTYPE_BYTES:
        raise ValueError(f"dtype must be one of {sorted(DTYPE_BYTES)}, got {dtype!r}")
    return DTYPE_BYTES[dtype]


def kv_numbers_per_token_per_layer(model) -> int:
    """How many numbers one token adds to one layer's cache.

    GQA: ``2 * n_kv_heads * head_dim``. MLA: ``kv_lora_rank + qk_rope_head_dim``.

    >>> kv_numbers_per_token_per_layer("llama-3-8b"), kv_numbers_per_token_per_layer("deepseek-v3")
    (2048, 576)
    """
    m = _model(model)
    if m.attention == "mla":
        return m.kv_lora_rank + m.qk_rope_head_dim
    return 2 * m.n_kv_heads * m.head_dim


def kv_cache_bytes(model, context, dtype="bf16"):
    """The KV cache of one sequence of ``context`` tokens, in bytes, all layers.

    Precisely: the keys and values the last token of the context reads, its own included. A
    full layer holds ``context`` tokens, a sliding layer ``min(context, sliding_window)``.
    (Between two steps transformers' sliding layers store ``sliding_window - 1`` tokens: the
    next token's own key and value make the window's last one.) One sequence: a batch of b
    sequences needs b times as much.

    Parameters
    ----------
    model : str (a key of :data:`MODELS`) or ModelConfig
    context : int
        Tokens in the sequence (prompt and generated).
    dtype : "bf16", "fp16", "fp8" or "fp32"

    Returns
    -------
    int

    Example
    -------
    >>> kv_cache_bytes("mistral-7b", 4096) == kv_cache_bytes("mistral-7b", 32768)   # capped
    True
    """
    m = _model(model)
    context = check_positive_int("context", context)
    per_layer = kv_numbers_per_token_per_layer(m) * _itemsize(dtype)    # bytes per token per layer
    kept_sliding = min(context, m.sliding_window) if m.n_sliding_layers else 0
    return per_layer * (m.n_full_layers * context + m.n_sliding_layers * kept_sliding)


def kv_bytes_per_token(model, dtype="bf16", context=None):
    """Bytes of KV cache per token of context.

    Without ``context``: what one token costs while every layer still keeps it (the context
    fits every window), the number usually quoted. With ``context``: the cache of that many
    tokens divided by them, which falls for models with sliding layers once the windows fill.

    >>> kv_bytes_per_token("gpt-oss-120b"), kv_bytes_per_token("gpt-oss-120b", context=131072)
    (73728, 36900.0)
    """
    m = _model(model)
    if context is None:
        return kv_numbers_per_token_per_layer(m) * _itemsize(dtype) * m.n_layers
    context = check_positive_int("context", context)
    return kv_cache_bytes(m, context, dtype) / context


def kv_cache_bytes_if(model, attention, context, dtype="bf16"):
    """The cache the same model would need with another attention, for the same context.

    ``attention``: "mha" (every query head with its own key/value head, no windows), "mqa"
    (one key/value head, no windows), "gqa" (its own n_kv_heads, no windows), or "as is"
    (:func:`kv_cache_bytes`). For an MLA model, "mha" means keys of width
    ``qk_nope_head_dim + qk_rope_head_dim`` and values of ``v_head_dim`` for each head: what
    its expanded heads would hold.

    >>> kv_cache_bytes_if("llama-3-8b", "mha", 8192) // kv_cache_bytes("llama-3-8b", 8192)
    4
    """
    m = _model(model)
    context = check_positive_int("context", context)
    itemsize = _itemsize(dtype)
    if attention == "as is":
        return kv_cache_bytes(m, context, dtype)
    if m.attention == "mla":
        if attention != "mha":
            raise ValueError(f"for an MLA model, attention must be 'mha' or 'as is', got {attention!r}")
        per_layer = m.n_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim)
        return per_layer * itemsize * m.n_layers * context
    heads = {"mha": m.n_heads, "mqa": 1, "gqa": m.n_kv_heads}
    if attention not in heads:
        raise ValueError(f"attention must be one of ['as is', 'gqa', 'mha', 'mqa'], got {attention!r}")
    return 2 * heads[attention] * m.head_dim * itemsize * m.n_layers * context


def cache_ratio(model, attention="mha", context=None):
    """How many times larger the cache would be with ``attention`` than the model's own.

    >>> cache_ratio("llama-3-70b")                       # 64 query heads share 8 key/value heads
    8.0
    >>> round(cache_ratio("deepseek-v3"), 1)             # MLA against its heads expanded
    71.1
    """
    m = _model(model)
    context = (m.context if m.context else 1) if context is None else check_positive_int("context", context)
    return kv_cache_bytes_if(m, attention, context) / kv_cache_bytes(m, context)


def kv_table(context, dtype="bf16", models=None):
    """One row per model: name, bytes per token (every layer keeping it), cache at ``context``.

    Returns a list of dicts with keys ``name``, ``bytes_per_token``, ``cache_bytes``,
    ``mha_cache_bytes`` (the same model with multi-head attention and no windows).

    >>> rows = kv_table(32768)
    >>> [r["name"] for r in rows][:2], gib(rows[1]["cache_bytes"])
    (['llama-2-7b', 'llama-3-8b'], 4.0)
    """
    context = check_positive_int("context", context)
    names = list(MODELS) if models is None else list(models)
    return [
        {
            "name": _model(name).name,
            "bytes_per_token": kv_bytes_per_token(name, dtype),
            "cache_bytes": kv_cache_bytes(name, context, dtype),
            "mha_cache_bytes": kv_cache_bytes_if(name, "mha", context, dtype),
        }
        for name in names
    ]


def gib(n_bytes):
    """Bytes in GiB (2**30 bytes), as a float.

    >>> gib(kv_cache_bytes("llama-3-70b", 8192))        # one sequence of its full 8K context
    2.5
    """
    return n_bytes / 2 ** 30
