"""Testing what a head does: take it out of the model and measure what breaks.

A map of attention weights shows where a head looks, not what it writes nor whether the rest
of the model uses it. An ablation tests that: run the model again with one head's output
replaced, and measure the loss and the accuracy on held-out data.

A head of layer l adds its output to the residual stream (:mod:`attnkit.tinygpt`):

    out_h = (weights_h @ v_h) @ w_o[h]                        (batch, n, d)
    x = x + sum_h out_h

Two ways to take head h out:

    "zero"   out_h = 0                                        the head writes nothing
    "mean"   out_h = its mean over the data, per position     the head writes what it writes on
                                                              average, nothing about this sequence

The size of what a head writes is the length (norm) of out_h, the square root of the sum of its
squares, averaged over the scored positions (:func:`head_norms`).

    >>> from attnkit import tinygpt
    >>> params = tinygpt.init(vocab_size=5, d_model=8, n_heads=2, n_layers=1, n_ctx=6, seed=0)
    >>> tokens, targets = [[0, 1, 2, 3]], [[-1, 2, 3, 4]]
    >>> logits = ablated_logits(params, tokens, heads=[])
    >>> bool(np.allclose(logits, tinygpt.forward(params, tokens)[0], rtol=0, atol=1e-12))
    True
    >>> head_outputs(params, tokens).shape                   # (batch, H, n, d)
    (1, 2, 4, 8)
"""

from __future__ import annotations

import functools
import numbers

import numpy as np

from . import copy_results, tinygpt, training

__all__ = [
    "head_outputs",
    "ablated_logits",
    "ablate",
    "head_norms",
    "sink_share",
    "report",
]

HOW = ("zero", "mean")


def _check_layer(params, layer):
    n_layers = tinygpt.config_of(params)["n_layers"]
    if isinstance(layer, (bool, np.bool_)) or not isinstance(layer, numbers.Integral) \
            or not 0 <= layer < n_layers:
        raise ValueError(f"layer must be an integer in [0, {n_layers - 1}] (the model has "
                         f"{n_layers} layer{'s' if n_layers > 1 else ''}), got {layer!r}")
    return int(layer)


def _check_heads(params, heads):
    n_heads = tinygpt.config_of(params)["n_heads"]
    try:
        heads = list(heads)
    except TypeError:
        raise ValueError(f"heads must be a list of head indices (0-based), got {heads!r}") from None
    for h in heads:
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, numbers.Integral) \
                or not 0 <= h < n_heads:
            raise ValueError(f"heads must be indices in [0, {n_heads - 1}] (0-based; the model "
                             f"has {n_heads} heads), got {h!r} in {heads!r}")
    return sorted({int(h) for h in heads})


def _check_tokens(tokens, vocab_size, n_ctx):
    """tokens as an int array (batch, n), or ValueError saying what was wrong."""
    try:
        raw = np.asarray(tokens)
    except (ValueError, TypeError):
        raise ValueError(f"tokens must be a rectangular array of token ids, got a ragged "
                         f"or malformed {type(tokens).__name__}") from None
    if raw.dtype.kind not in "iu" or raw.ndim != 2 or 0 in raw.shape:
        raise ValueError(f"tokens must be integer ids of shape (batch, n), batch >= 1 and n >= 1, "
                         f"got dtype {raw.dtype} and shape {raw.shape}")
    if raw.shape[1] > n_ctx:
        raise ValueError(f"tokens has sequences of length n = {raw.shape[1]}, longer than the "
                         f"model's context n_ctx = {n_ctx}")
    if raw.min() < 0 or raw.max() >= vocab_size:
        raise ValueError(f"tokens must be ids in [0, {vocab_size - 1}] (vocab_size = {vocab_size}), "
                         f"got values from {raw.min()} to {raw.max()}")
    return raw.astype(np.int64)


def _layer_params(params, l):
    """Layer l's weights without the "h{l}." prefix: {"ln_1.g": ..., "attn.w_q": ..., ...}."""
    prefix = f"h{l}."
    return {key[len(prefix):]: value for key, value in params.items() if key.startswith(prefix)}


def _run(params, tokens, layer, replace):
    """The forward pass of :func:`attnkit.tinygpt.forward`, with a hook on one layer's heads.

    ``replace(out)`` receives that layer's per-head outputs (batch, H, n, d) and returns the
    ones to add to the residual stream. Returns (logits (batch, n, V), per-head outputs of
    ``layer`` before replacement).
    """
    cfg = tinygpt.config_of(params)
    tokens = _check_tokens(tokens, cfg["vocab_size"], cfg["n_ctx"])    # (batch, n)
    n = tokens.shape[1]
    x = params["wte"][tokens] + params["wpe"][:n]         # (batch, n, d)
    seen = None
    for l in range(cfg["n_layers"]):
        p = _layer_params(params, l)
        a_in, _ = tinygpt.layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])   # (batch, n, d)
        _, attn = tinygpt.attention_forward(p, a_in)
        out = attn["z"] @ attn["w_o"]                     # (batch, H, n, d_head) @ (H, d_head, d) -> (batch, H, n, d)
        if l == layer:
            seen = out
            out = replace(out)
        x = x + out.sum(axis=1)                           # residual: every head's output added
        if "mlp.w_1" in p:                                # an attention-only model has no MLP
            m_in, _ = tinygpt.layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])   # (batch, n, d)
            m_out, _ = tinygpt.mlp_forward(p, m_in)       # (batch, n, d)
            x = x + m_out
    x_f, _ = tinygpt.layer_norm_forward(x, params["ln_f.g"], params["ln_f.b"])  # (batch, n, d)
    return x_f @ params["w_u"], seen                      # (batch, n, d) @ (d, V) -> (batch, n, V)


def head_outputs(params, tokens, layer=0):
    """What each head of ``layer`` adds to the residual stream: (batch, H, n, d).

    Summed over the heads, it is the attention output of that layer.
    """
    layer = _check_layer(params, layer)
    _, out = _run(params, tokens, layer, lambda out: out)
    return out


def ablated_logits(params, tokens, heads, how="zero", layer=0):
    """Logits (batch, n, V) with the heads ``heads`` (0-based) of ``layer`` taken out.

    how = "zero": their outputs are replaced by 0; "mean": by their mean over the sequences
    of ``tokens``, position by position (mean over the batch axis). ``heads=[]`` gives the
    model's own logits.
    """
    layer = _check_layer(params, layer)
    heads = _check_heads(params, heads)
    if how not in HOW:
        raise ValueError(f"how must be 'zero' or 'mean', got {how!r}")

    def replace(out):                                     # out: (batch, H, n, d)
        out = out.copy()
        for h in heads:
            if how == "zero":
                out[:, h] = 0.0
            else:
                out[:, h] = out[:, h].mean(axis=0)        # (n, d): the same for every sequence
        return out

    logits, _ = _run(params, tokens, layer, replace)
    return logits


def ablate(params, tokens, targets, heads, how="zero", layer=0):
    """Loss and accuracy on (tokens, targets) with ``heads`` of ``layer`` taken out.

    targets: the next token at each position, -1 where nothing is scored (as in
    :func:`attnkit.copytask.copy_batch`). Returns {"loss": mean cross-entropy over the scored
    positions, "accuracy": share of them where the top score is the target}.
    """
    logits = ablated_logits(params, tokens, heads, how, layer)
    accuracy = copy_results.accuracy_of_logits(logits, targets)     # checks targets' shape
    loss, _ = tinygpt.cross_entropy(logits, np.asarray(targets))
    return {"loss": float(loss), "accuracy": accuracy}


def head_norms(params, tokens, targets, layer=0):
    """Per head of ``layer``, the mean length of its output over the scored positions: (H,).

    The length (norm) of a vector is the square root of the sum of its squares.
    """
    out = head_outputs(params, tokens, layer)             # (batch, H, n, d)
    scored = np.asarray(targets) >= 0                     # (batch, n)
    if scored.shape != out.shape[:1] + out.shape[2:3]:
        raise ValueError(f"targets must have the shape of tokens {out.shape[:1] + out.shape[2:3]}, "
                         f"got shape {scored.shape}")
    lengths = np.linalg.norm(out, axis=-1)                # (batch, H, n)
    return lengths.transpose(1, 0, 2)[:, scored].mean(axis=1)   # (H,)


def sink_share(weights, rows, column=0):
    """Per head, the mean weight the query rows ``rows`` put on key ``column``: (H,).

    weights : (..., H, n, n) attention weights; rows : the query positions (0-based).
    """
    w = np.asarray(weights)
    share = w[..., list(rows), column]                    # (..., H, len(rows))
    return share.reshape(-1, *share.shape[-2:]).mean(axis=(0, 2))   # (H,)


@functools.lru_cache(maxsize=1)
def _report():
    c = training.BOOK
    params, _ = training.trained(**c)
    tokens, targets = copy_results.held_out(**c)
    h = c["n_heads"]
    _, cache = tinygpt.forward(params, tokens)
    weights = cache["h0"]["attn"]["weights"]              # (sequences, H, n, n)
    return {
        "full": ablate(params, tokens, targets, []),
        "zero": [ablate(params, tokens, targets, [head]) for head in range(h)],
        "mean": [ablate(params, tokens, targets, [head], "mean") for head in range(h)],
        "zero_all": ablate(params, tokens, targets, range(h)),
        "norms": head_norms(params, tokens, targets).tolist(),
        "sink": sink_share(weights, range(1, c["half"] - 1)).tolist(),
        "guess": 1 / c["vocab_size"],
    }


def report():
    """The ablation numbers chapter 8 quotes, on the book's model and held-out sequences.

    full: loss and accuracy of the whole model; zero / mean: per head (head 1 first), with
    that head zeroed / replaced by its mean; zero_all: every head zeroed; norms: per head, the
    mean length of its output (:func:`head_norms`); sink: per head, the mean weight that the
    rows of the first half with a choice (positions 2 to half - 1) put on position 1;
    guess: 1 / vocab_size, the accuracy of a blind guess.
    """
    return dict(_report())
