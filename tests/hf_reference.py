"""Hugging Face transformers as the reference for attnkit's modern attention (tests only).

transformers' model classes need torch; every test that uses them calls :func:`hf` first,
which skips the test with a reason when either is missing. Tiny random configs, float64, no
download. Linear layers store ``weight`` as (out, in) and compute ``x @ weight.T + bias``;
attnkit's weights are (in, out) and compute ``x @ w + b``, so a weight crosses over transposed.

Two places where transformers deliberately computes in float32 even for a float64 model, so a
comparison to 1e-10 must go around them (each test says which it does):

* ``LlamaRotaryEmbedding`` (and its copies) makes the angles ``position * inv_freq`` in float32;
  the attention modules take ``position_embeddings=(cos, sin)`` as an argument, so the tests
  hand them attnkit's float64 cos/sin and compare the rotary tables themselves to float32's
  rounding.
* ``eager_attention_forward`` of Llama, Mistral, Gemma 3 and DeepSeek-V3 runs the softmax with
  ``dtype=torch.float32``; ``attn_implementation="sdpa"`` (torch's own kernel) stays in float64.
  gpt-oss's eager softmax stays in float64.
"""

from __future__ import annotations

import numpy as np
import pytest


def hf():
    """(torch, transformers), or skip the test saying what is missing."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: no reference to compare with")
    transformers = pytest.importorskip(
        "transformers", reason="transformers is not installed (pip install -e '.[test]')"
    )
    torch.manual_seed(0)
    return torch, transformers


def tensor(a):
    """A float64 (or bool) torch tensor sharing nothing with ``a``."""
    import torch
    return torch.from_numpy(np.array(a, copy=True))


def weight_in_out(linear):
    """A torch Linear's weight as attnkit holds it: (in, out)."""
    return linear.weight.detach().numpy().T.copy()


def bias(linear):
    return None if linear.bias is None else linear.bias.detach().numpy().copy()


def randomize(module, rng, scale=0.5):
    """Fill every parameter of ``module`` with normal numbers (its own init may be zeros)."""
    import torch
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.from_numpy(rng.normal(scale=scale, size=tuple(p.shape))))
    return module


def tiny(config_class, **kwargs):
    """A tiny config: a vocabulary of 16 with bos/eos inside it (no warnings), float64."""
    defaults = dict(vocab_size=16, bos_token_id=1, eos_token_id=2, pad_token_id=0,
                    num_hidden_layers=1, intermediate_size=8)
    defaults.update(kwargs)
    return config_class(**defaults)
