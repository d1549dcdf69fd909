"""How many users one GPU can serve at once: the weights and every user's KV cache in one memory.

A model that generates text keeps its weights in the GPU's memory once, and one KV cache per
sequence it is writing (one per user). Whatever the weights leave free is shared out among the
caches:

    users = floor((gpu_bytes - weight_bytes) / kv_cache_bytes(model, context))

(activations, the framework's own buffers and fragmentation are left out: a real server fits
fewer). The weights are counted from the published configuration of a dense Llama-family model,
the numbers :data:`attnkit.kv_bytes.MODELS` has plus two more (:data:`WEIGHT_SHAPES`):

    per layer:  d * (n_heads * head_dim)        W_q
              + 2 * d * (n_kv_heads * head_dim) W_k, W_v
              + (n_heads * head_dim) * d        W_o
              + 3 * d * intermediate_size       the gated feed-forward (gate, up, down)
              + 2 * d                           two RMSNorm weights
    once:       vocab_size * d  (x 2 when the output matrix is not the embedding's)  + d

    >>> weight_count("llama-3-8b")
    8030261248
    >>> users("llama-3-8b", 131072)                    # 80 GB GPU, bf16, 128K tokens each
    3
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from .kv_bytes import DTYPE_BYTES, MODELS, kv_cache_bytes_if
from ._checks import check_positive_int

__all__ = ["WEIGHT_SHAPES", "GPU_BYTES", "DISPLAY_NAMES", "weight_count", "weight_bytes", "users",
           "binary_size"]

# The configuration numbers beyond attention (config.json: vocab_size, intermediate_size,
# tie_word_embeddings), for the dense models of attnkit.kv_bytes.MODELS built like Llama.
WEIGHT_SHAPES = {
    # https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json
    "llama-2-7b": {"vocab_size": 32000, "intermediate_size": 11008, "tied": False},
    # https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json
    "llama-3-8b": {"vocab_size": 128256, "intermediate_size": 14336, "tied": False},
    # https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json
    "llama-3-70b": {"vocab_size": 128256, "intermediate_size": 28672, "tied": False},
}

# How the book prints the name of each model of attnkit.kv_bytes.MODELS (the same in both languages).
DISPLAY_NAMES = {
    "llama-2-7b": "Llama 2 7B", "llama-3-8b": "Llama 3 8B", "llama-3-70b": "Llama 3 70B",
    "mistral-7b": "Mistral 7B", "qwen3-8b": "Qwen3 8B", "gemma-3-27b": "Gemma 3 27B",
    "gpt-oss-120b": "gpt-oss-120b", "deepseek-v3": "DeepSeek-V3",
}

# One GPU's memory: 80 GB (NVIDIA's A100 80GB and H100 80GB are sold with this much), a typed input.
GPU_BYTES = 80 * 10 ** 9


def _shape(model):
    if model not in WEIGHT_SHAPES:
        raise ValueError(f"model must be one of {sorted(WEIGHT_SHAPES)} (dense models whose weights "
                         f"this module counts), got {model!r}")
    return MODELS[model], WEIGHT_SHAPES[model]


def weight_count(model) -> int:
    """The number of parameters of a dense Llama-family model, from its configuration.

    >>> weight_count("llama-2-7b")                      # "7B": 6.74 billion
    6738415616
    """
    m, w = _shape(model)
    d, q_width, kv_width = m.d_model, m.n_heads * m.head_dim, m.n_kv_heads * m.head_dim
    attention = d * q_width + 2 * d * kv_width + q_width * d          # W_q, W_k, W_v, W_o
    feed_forward = 3 * d * w["intermediate_size"]                     # gate, up, down
    per_layer = attention + feed_forward + 2 * d                      # + two RMSNorm weights
    embeddings = w["vocab_size"] * d * (1 if w["tied"] else 2)        # input embedding, output matrix
    return m.n_layers * per_layer + embeddings + d                    # + the final RMSNorm


def weight_bytes(model, dtype="bf16") -> int:
    """The weights' bytes in ``dtype`` (bf16: 2 bytes a parameter, as these models ship).

    >>> round(weight_bytes("llama-3-8b") / 10**9, 1)
    16.1
    """
    if dtype not in DTYPE_BYTES:
        raise ValueError(f"dtype must be one of {sorted(DTYPE_BYTES)}, got {dtype!r}")
    return weight_count(model) * DTYPE_BYTES[dtype]


def users(model, context, gpu_bytes=GPU_BYTES, dtype="bf16", attention="as is") -> int:
    """How many sequences of ``context`` tokens fit beside the weights in ``gpu_bytes``.

    ``attention``: "as is" (the model's own KV cache) or "mha", "mqa", "gqa" as in
    :func:`attnkit.kv_bytes.kv_cache_bytes_if` (the same model, caching as if built that way).
    0 when the weights leave no room for even one cache.

    >>> users("llama-3-8b", 8192), users("llama-3-8b", 8192, attention="mha")
    (59, 14)
    """
    context = check_positive_int("context", context)
    gpu_bytes = check_positive_int("gpu_bytes", gpu_bytes)
    cache = kv_cache_bytes_if(model, attention, context, dtype)
    free = gpu_bytes - weight_bytes(model, dtype)
    return max(0, free // cache)


_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def binary_size(n_bytes) -> str:
    """Bytes with a binary unit and three significant digits, as the book's figures and the
    KV-cache calculator print them (widgets/kv-calculator.js writes the same text).

    >>> binary_size(131072), binary_size(2**30), binary_size(70272), binary_size(3 * 2**40)
    ('128 KiB', '1.00 GiB', '68.6 KiB', '3.00 TiB')
    >>> binary_size(1.125 * 2**30), binary_size(1023.6 * 1024)      # a tie rounds up; never 1024 KiB
    ('1.13 GiB', '1.00 MiB')
    """
    if n_bytes < 0:
        raise ValueError(f"n_bytes must be at least 0, got {n_bytes!r}")
    unit, value = 0, float(n_bytes)
    while unit < len(_UNITS) - 1 and value >= 1023.5:          # 1023.5 KiB would print as 1024 KiB
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{int(n_bytes)} B"
    digits = 2 if value < 9.995 else 1 if value < 99.95 else 0
    # Ties round up, as JavaScript's toFixed does (Python's own rounding would make 1.125 "1.12").
    shown = Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{shown} {_UNITS[unit]}"
