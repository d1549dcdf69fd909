"""attnkit: a small NumPy library that teaches Transformer attention.

Companion to the book "Seeing Attention · 看见注意力". Every function reads
like the math it implements; see :mod:`attnkit.core`.
"""

from .core import (
    causal_mask,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    sinusoidal_positional_encoding,
    softmax,
    split_heads,
)

__all__ = [
    "softmax",
    "scaled_dot_product_attention",
    "causal_mask",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
    "sinusoidal_positional_encoding",
]
