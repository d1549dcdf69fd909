"""A tiny GPT you can train: a decoder-only Transformer in NumPy, forward and backward by hand.

The model of chapter 8. Everything a GPT does, at a size that trains in seconds:

    x_0 = wte[tokens] + wpe[positions]                      (batch, n, d_model)
    for each layer l:
        x = x + Attention_l(LN_1(x))                        causal, multi-head, residual
        x = x + MLP_l(LN_2(x))                              relu(x W_1 + b_1) W_2 + b_2, residual
    logits = LN_f(x) @ w_u                                  (batch, n, vocab)
    loss = mean over scored positions of -log softmax(logits)[target]

The layer norm comes before each sub-layer ("pre-norm", as in GPT-2). Every forward step has a
backward step written beside it in the same order, reversed; no autograd framework. The tests
check every gradient against finite differences and, where it is installed, against PyTorch.

The parameters are a plain dict ``name -> float64 array``. With ``L`` layers, ``H`` heads,
``d = d_model``, ``d_head = d / H``, ``d_ff = 4 d``, ``V = vocab_size``, ``N = n_ctx``:

    ==================  ==================  ==================================================
    key                 shape               what it is
    ==================  ==================  ==================================================
    "wte"               (V, d)              token embedding: one row per token id
    "wpe"               (N, d)              position embedding: one row per position
    "h{l}.ln_1.g"       (d,)                layer norm before attention: gain
    "h{l}.ln_1.b"       (d,)                ... and bias
    "h{l}.attn.w_q"     (H, d, d_head)      head h's query projection: q_h = x @ w_q[h]
    "h{l}.attn.w_k"     (H, d, d_head)      head h's key projection
    "h{l}.attn.w_v"     (H, d, d_head)      head h's value projection
    "h{l}.attn.w_o"     (H, d_head, d)      head h's share of the output projection
    "h{l}.ln_2.g"       (d,)                layer norm before the MLP: gain
    "h{l}.ln_2.b"       (d,)                ... and bias
    "h{l}.mlp.w_1"      (d, d_ff)           MLP, first layer
    "h{l}.mlp.b_1"      (d_ff,)
    "h{l}.mlp.w_2"      (d_ff, d)           MLP, second layer
    "h{l}.mlp.b_2"      (d,)
    "ln_f.g"            (d,)                final layer norm: gain
    "ln_f.b"            (d,)                ... and bias
    "w_u"               (d, V)              unembedding: row of logits per position
    ==================  ==================  ==================================================

Storing the heads on a leading axis ``H`` is the same as the book's ``split_heads`` of one
(d, d) matrix: ``w_q[h] == W_q[:, h*d_head:(h+1)*d_head]``. The number of heads, layers and
positions is read from these shapes, so a params dict is all a model is.

:func:`attention_forward` and :func:`attention_backward` work on one layer's attention and keep
each head's ``q``, ``k``, ``v`` and weights in their cache, for code that wants to reuse them
(a KV cache, a picture of the attention).

    >>> params = init(vocab_size=5, d_model=8, n_heads=2, n_layers=1, n_ctx=6, seed=0)
    >>> logits, cache = forward(params, [[0, 1, 2, 3]])
    >>> logits.shape, cache["h0"]["attn"]["weights"].shape
    ((1, 4, 5), (1, 2, 4, 4))
    >>> loss, grads = loss_and_grad(params, [[0, 1, 2, 3]], [[1, 2, 3, 4]])
    >>> round(loss, 3), round(math.log(5), 3), sorted(grads) == sorted(params)
    (1.612, 1.609, True)

A fresh model guesses almost uniformly, so its loss starts near log(vocab_size).

The task the chapter trains on is :func:`copy_batch`: a random half, then the same half again.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers

import numpy as np

from ._checks import check_positive_int
from .core import _softmax, causal_mask

__all__ = [
    "init",
    "config_of",
    "forward",
    "loss_and_grad",
    "cross_entropy",
    "generate",
    "layer_norm_forward",
    "layer_norm_backward",
    "attention_forward",
    "attention_backward",
    "mlp_forward",
    "mlp_backward",
    "sgd_step",
    "adam_init",
    "adam_step",
    "copy_batch",
    "CopyTask",
    "BOOK",
    "Trainer",
    "train",
    "trained",
    "accuracy",
    "LETTERS",
    "spell",
    "held_out",
    "look_back",
    "report",
    "live_reset",
    "live_run",
]

EPS = 1e-5          # layer norm's epsilon


# --------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------

def init(vocab_size, d_model, n_heads, n_layers, n_ctx, seed=0):
    """Fresh random parameters: a dict ``name -> float64 array`` (keys in the module docstring).

    Weights are drawn from N(0, 0.02^2) as in GPT-2 (the output projections of each residual
    branch scaled down by sqrt(2 L)), biases start at 0 and layer-norm gains at 1. The same
    ``seed`` gives the same numbers, on every machine.

    >>> p = init(vocab_size=4, d_model=6, n_heads=3, n_layers=2, n_ctx=5, seed=1)
    >>> p["h1.attn.w_q"].shape, p["w_u"].shape, len(p)
    ((3, 6, 2), (6, 4), 29)
    """
    vocab_size = check_positive_int("vocab_size", vocab_size)
    d_model = check_positive_int("d_model", d_model)
    n_heads = check_positive_int("n_heads", n_heads)
    n_layers = check_positive_int("n_layers", n_layers)
    n_ctx = check_positive_int("n_ctx", n_ctx)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} must be divisible by n_heads={n_heads} "
                         f"(each head gets d_model / n_heads columns)")
    d, h, d_head, d_ff = d_model, n_heads, d_model // n_heads, 4 * d_model
    rng = np.random.default_rng(seed)
    std, std_out = 0.02, 0.02 / math.sqrt(2 * n_layers)

    params = {"wte": rng.normal(0, std, (vocab_size, d)),
              "wpe": rng.normal(0, std, (n_ctx, d))}
    for l in range(n_layers):
        params.update({
            f"h{l}.ln_1.g": np.ones(d), f"h{l}.ln_1.b": np.zeros(d),
            f"h{l}.attn.w_q": rng.normal(0, std, (h, d, d_head)),
            f"h{l}.attn.w_k": rng.normal(0, std, (h, d, d_head)),
            f"h{l}.attn.w_v": rng.normal(0, std, (h, d, d_head)),
            f"h{l}.attn.w_o": rng.normal(0, std_out, (h, d_head, d)),
            f"h{l}.ln_2.g": np.ones(d), f"h{l}.ln_2.b": np.zeros(d),
            f"h{l}.mlp.w_1": rng.normal(0, std, (d, d_ff)), f"h{l}.mlp.b_1": np.zeros(d_ff),
            f"h{l}.mlp.w_2": rng.normal(0, std_out, (d_ff, d)), f"h{l}.mlp.b_2": np.zeros(d),
        })
    params.update({"ln_f.g": np.ones(d), "ln_f.b": np.zeros(d),
                   "w_u": rng.normal(0, std, (d, vocab_size))})
    return params


def config_of(params):
    """Read ``(vocab_size, d_model, n_heads, n_layers, n_ctx)`` off the shapes of ``params``.

    >>> config_of(init(5, 8, 2, 3, 7))
    {'vocab_size': 5, 'd_model': 8, 'n_heads': 2, 'n_layers': 3, 'n_ctx': 7}
    """
    if not isinstance(params, dict) or "wte" not in params or "wpe" not in params:
        raise ValueError("params must be the dict made by tinygpt.init (with keys 'wte', 'wpe', ...), "
                         f"got {type(params).__name__}")
    vocab_size, d_model = params["wte"].shape
    n_ctx = params["wpe"].shape[0]
    n_layers = sum(1 for key in params if key.endswith(".attn.w_q"))
    if n_layers == 0:
        raise ValueError("params has no layers: expected keys such as 'h0.attn.w_q'")
    n_heads = params["h0.attn.w_q"].shape[0]
    return {"vocab_size": vocab_size, "d_model": d_model, "n_heads": n_heads,
            "n_layers": n_layers, "n_ctx": n_ctx}


def _layer(params, l):
    """The parameters of layer ``l`` without their ``h{l}.`` prefix: {"attn.w_q": ..., ...}."""
    prefix = f"h{l}."
    return {key[len(prefix):]: value for key, value in params.items() if key.startswith(prefix)}


def _as_token_ids(ids, name):
    """``ids`` as a NumPy integer array, or ValueError: ragged input or a non-integer dtype."""
    try:
        raw = np.asarray(ids)
    except (ValueError, TypeError):
        raise ValueError(f"{name} must be a rectangular array of token ids, got a ragged "
                         f"or malformed {type(ids).__name__}") from None
    if raw.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer token ids, got dtype {raw.dtype}")
    return raw


def _check_tokens(tokens, vocab_size, n_ctx, name="tokens"):
    """tokens as an int array (batch, n), or ValueError naming what was wrong."""
    raw = _as_token_ids(tokens, name)
    if raw.ndim != 2 or 0 in raw.shape:
        raise ValueError(f"{name} must have shape (batch, n) with batch >= 1 and n >= 1, "
                         f"got shape {raw.shape}")
    if raw.shape[1] > n_ctx:
        raise ValueError(f"{name} has sequences of length n = {raw.shape[1]}, longer than the "
                         f"model's context n_ctx = {n_ctx}")
    bad = (raw < 0) | (raw >= vocab_size)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be token ids in [0, {vocab_size - 1}] (vocab_size = "
                         f"{vocab_size}), got {int(raw[where])} at index {where}")
    return raw.astype(np.int64)


# --------------------------------------------------------------------------
# the layers: forward and backward side by side
# --------------------------------------------------------------------------

def layer_norm_forward(x, g, b):
    """LN(x) = g * (x - mean) / sqrt(var + eps) + b, per row. Returns (y, cache).

    >>> y, _ = layer_norm_forward(np.array([[1.0, 2.0, 3.0]]), np.ones(3), np.zeros(3))
    >>> y.round(3)
    array([[-1.225,  0.   ,  1.225]])
    """
    mean = x.mean(axis=-1, keepdims=True)              # (..., 1)
    rstd = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + EPS)   # (..., 1)
    x_hat = (x - mean) * rstd                          # (..., d)   mean 0, variance ~1
    return g * x_hat + b, (x_hat, rstd, g)             # (..., d)


def layer_norm_backward(dy, cache):
    """Gradients of LN: returns (dx, dg, db) from dy = dL/dy (..., d)."""
    x_hat, rstd, g = cache
    axes = tuple(range(dy.ndim - 1))
    dg = (dy * x_hat).sum(axis=axes)                   # (d,)
    db = dy.sum(axis=axes)                             # (d,)
    dx_hat = dy * g                                    # (..., d)
    # x_hat depends on x directly and through the mean and the variance of the row:
    dx = rstd * (dx_hat - dx_hat.mean(axis=-1, keepdims=True)
                 - x_hat * (dx_hat * x_hat).mean(axis=-1, keepdims=True))   # (..., d)
    return dx, dg, db


def attention_forward(p, x):
    """Causal multi-head self-attention of one layer. Returns (out, cache).

    p : the layer's weights {"w_q", "w_k", "w_v": (H, d, d_head), "w_o": (H, d_head, d)}
        (keys with or without the "attn." prefix).
    x : (batch, n, d), already layer-normed.

        q_h = x w_q[h],  k_h = x w_k[h],  v_h = x w_v[h]          (batch, H, n, d_head)
        weights_h = softmax(q_h k_h^T / sqrt(d_head), causal)      (batch, H, n, n)
        out = sum_h (weights_h v_h) w_o[h]                         (batch, n, d)

    The cache keeps x, q, k, v, the weights and each head's output ``z``.

    >>> p = _layer(init(5, 8, 2, 1, 6), 0)
    >>> out, cache = attention_forward(p, np.ones((1, 3, 8)))
    >>> out.shape, cache["q"].shape, cache["weights"][0, 0].round(2).tolist()[1]
    ((1, 3, 8), (1, 2, 3, 4), [0.5, 0.5, 0.0])
    """
    w_q, w_k, w_v, w_o = (p.get(name, p.get(f"attn.{name}")) for name in ("w_q", "w_k", "w_v", "w_o"))
    n, d_head = x.shape[-2], w_q.shape[-1]
    x_h = x[:, None]                                   # (batch, 1, n, d): one copy for every head
    q = x_h @ w_q                                      # (batch, 1, n, d) @ (H, d, d_head) -> (batch, H, n, d_head)
    k = x_h @ w_k                                      # (batch, H, n, d_head)
    v = x_h @ w_v                                      # (batch, H, n, d_head)
    scale = 1.0 / math.sqrt(d_head)
    scores = q @ k.swapaxes(-1, -2) * scale            # (batch, H, n, d_head) @ (batch, H, d_head, n) -> (batch, H, n, n)
    mask = np.broadcast_to(causal_mask(n), scores.shape)   # True = may attend: key j <= query i
    weights = _softmax(scores, -1, mask)               # (batch, H, n, n), rows sum to 1, zero above the diagonal
    z = weights @ v                                    # (batch, H, n, n) @ (batch, H, n, d_head) -> (batch, H, n, d_head)
    out = (z @ w_o).sum(axis=1)                        # (batch, H, n, d_head) @ (H, d_head, d) -> (batch, H, n, d) -> (batch, n, d)
    cache = {"x": x, "q": q, "k": k, "v": v, "weights": weights, "z": z, "scale": scale,
             "w_q": w_q, "w_k": w_k, "w_v": w_v, "w_o": w_o}
    return out, cache


def attention_backward(d_out, cache):
    """Gradients of :func:`attention_forward`: returns (dx, {"w_q", "w_k", "w_v", "w_o"})."""
    x, q, k, v = cache["x"], cache["q"], cache["k"], cache["v"]
    weights, z, scale = cache["weights"], cache["z"], cache["scale"]
    w_q, w_k, w_v, w_o = cache["w_q"], cache["w_k"], cache["w_v"], cache["w_o"]
    d_out_h = d_out[:, None]                           # (batch, 1, n, d)
    d_w_o = (z.swapaxes(-1, -2) @ d_out_h).sum(axis=0)     # (batch, H, d_head, n) @ (batch, 1, n, d) -> (H, d_head, d)
    d_z = d_out_h @ w_o.swapaxes(-1, -2)               # (batch, 1, n, d) @ (H, d, d_head) -> (batch, H, n, d_head)
    d_weights = d_z @ v.swapaxes(-1, -2)               # (batch, H, n, d_head) @ (batch, H, d_head, n) -> (batch, H, n, n)
    d_v = weights.swapaxes(-1, -2) @ d_z               # (batch, H, n, n) @ (batch, H, n, d_head) -> (batch, H, n, d_head)
    # softmax backward, row by row: d_s = w * (d_w - sum_j w_j d_w_j); masked entries have w = 0
    d_scores = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True))
    d_scores = d_scores * scale                        # (batch, H, n, n)
    d_q = d_scores @ k                                 # (batch, H, n, n) @ (batch, H, n, d_head) -> (batch, H, n, d_head)
    d_k = d_scores.swapaxes(-1, -2) @ q                # (batch, H, n, d_head)
    x_t = x[:, None].swapaxes(-1, -2)                  # (batch, 1, d, n)
    grads = {"w_q": (x_t @ d_q).sum(axis=0),           # (batch, 1, d, n) @ (batch, H, n, d_head) -> (H, d, d_head)
             "w_k": (x_t @ d_k).sum(axis=0),
             "w_v": (x_t @ d_v).sum(axis=0),
             "w_o": d_w_o}
    dx = (d_q @ w_q.swapaxes(-1, -2) + d_k @ w_k.swapaxes(-1, -2)
          + d_v @ w_v.swapaxes(-1, -2)).sum(axis=1)    # (batch, H, n, d) summed over heads -> (batch, n, d)
    return dx, grads


def mlp_forward(p, x):
    """The position-wise MLP: relu(x w_1 + b_1) w_2 + b_2. x : (batch, n, d). Returns (out, cache)."""
    w_1, b_1, w_2, b_2 = (p.get(name, p.get(f"mlp.{name}")) for name in ("w_1", "b_1", "w_2", "b_2"))
    pre = x @ w_1 + b_1                                # (batch, n, d) @ (d, d_ff) -> (batch, n, d_ff)
    hidden = np.maximum(pre, 0.0)                      # (batch, n, d_ff)
    out = hidden @ w_2 + b_2                           # (batch, n, d_ff) @ (d_ff, d) -> (batch, n, d)
    return out, (x, pre, hidden, w_1, w_2)


def mlp_backward(d_out, cache):
    """Gradients of :func:`mlp_forward`: returns (dx, {"w_1", "b_1", "w_2", "b_2"})."""
    x, pre, hidden, w_1, w_2 = cache
    d = x.shape[-1]
    d_w_2 = hidden.reshape(-1, hidden.shape[-1]).T @ d_out.reshape(-1, d)   # (d_ff, batch*n) @ (batch*n, d) -> (d_ff, d)
    d_b_2 = d_out.sum(axis=(0, 1))                     # (d,)
    d_hidden = d_out @ w_2.T                           # (batch, n, d) @ (d, d_ff) -> (batch, n, d_ff)
    d_pre = d_hidden * (pre > 0)                       # relu passes the gradient only where it was on
    d_w_1 = x.reshape(-1, d).T @ d_pre.reshape(-1, d_pre.shape[-1])          # (d, batch*n) @ (batch*n, d_ff) -> (d, d_ff)
    d_b_1 = d_pre.sum(axis=(0, 1))                     # (d_ff,)
    dx = d_pre @ w_1.T                                 # (batch, n, d_ff) @ (d_ff, d) -> (batch, n, d)
    return dx, {"w_1": d_w_1, "b_1": d_b_1, "w_2": d_w_2, "b_2": d_b_2}


# --------------------------------------------------------------------------
# the whole model
# --------------------------------------------------------------------------

def forward(params, tokens):
    """Run the model on ``tokens`` (batch, n) of ids. Returns (logits, cache).

    logits : (batch, n, vocab_size) -- row i scores every possible token i+1.
    cache : what the backward pass needs; ``cache["h{l}"]["attn"]["weights"]`` holds layer
    l's attention weights (batch, H, n, n) and ``["q"]``, ``["k"]``, ``["v"]`` its heads.
    """
    cfg = config_of(params)
    tokens = _check_tokens(tokens, cfg["vocab_size"], cfg["n_ctx"])
    n = tokens.shape[1]
    x = params["wte"][tokens] + params["wpe"][:n]      # (batch, n, d) + (n, d) -> (batch, n, d)
    cache = {"tokens": tokens}
    for l in range(cfg["n_layers"]):
        p = _layer(params, l)
        a_in, ln_1 = layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])    # (batch, n, d)
        a_out, attn = attention_forward(p, a_in)       # (batch, n, d)
        x = x + a_out                                  # residual
        m_in, ln_2 = layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])    # (batch, n, d)
        m_out, mlp = mlp_forward(p, m_in)              # (batch, n, d)
        x = x + m_out                                  # residual
        cache[f"h{l}"] = {"ln_1": ln_1, "attn": attn, "ln_2": ln_2, "mlp": mlp}
    x_f, cache["ln_f"] = layer_norm_forward(x, params["ln_f.g"], params["ln_f.b"])   # (batch, n, d)
    cache["x_f"] = x_f
    logits = x_f @ params["w_u"]                       # (batch, n, d) @ (d, V) -> (batch, n, V)
    return logits, cache


def cross_entropy(logits, targets):
    """Mean of -log p(target) over the positions whose target is not -1. Returns (loss, d_logits).

    logits : (batch, n, V); targets : (batch, n) ids in [0, V) or -1 for "not scored".
    d_logits is dL/dlogits: (softmax - one_hot(target)) / (number scored), 0 where not scored.

    >>> loss, d = cross_entropy(np.zeros((1, 2, 4)), np.array([[3, -1]]))
    >>> round(loss, 4) == round(math.log(4), 4), d[0, 1].tolist()
    (True, [0.0, 0.0, 0.0, 0.0])
    """
    scored = targets >= 0                              # (batch, n)
    count = int(scored.sum())
    shifted = logits - logits.max(axis=-1, keepdims=True)             # (batch, n, V)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))   # log softmax
    b, i = np.nonzero(scored)                          # the scored positions
    loss = -float(log_p[b, i, targets[b, i]].sum()) / count
    d_logits = np.exp(log_p)                           # softmax (batch, n, V)
    d_logits[b, i, targets[b, i]] -= 1.0               # softmax - one_hot(target)
    d_logits *= scored[..., None] / count
    return loss, d_logits


def _check_targets(targets, tokens_shape, vocab_size):
    raw = _as_token_ids(targets, "targets")
    if raw.shape != tokens_shape:
        raise ValueError(f"targets must have the shape of tokens {tokens_shape} (one next token "
                         f"per position), got shape {raw.shape}")
    bad = (raw < -1) | (raw >= vocab_size)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"targets must be token ids in [0, {vocab_size - 1}] or -1 (not scored), "
                         f"got {int(raw[where])} at index {where}")
    if not (raw >= 0).any():
        raise ValueError("targets has no scored position: every entry is -1")
    return raw.astype(np.int64)


def loss_and_grad(params, tokens, targets):
    """Mean cross-entropy of next-token prediction and its gradient for every parameter.

    tokens, targets : (batch, n) ids; targets[b, i] is the token that should follow
    tokens[b, :i+1] (usually tokens shifted left by one), or -1 where no guess is scored.
    Returns (loss, grads) with grads a dict of the same keys and shapes as params.
    """
    cfg = config_of(params)
    tokens = _check_tokens(tokens, cfg["vocab_size"], cfg["n_ctx"])
    targets = _check_targets(targets, tokens.shape, cfg["vocab_size"])
    logits, cache = forward(params, tokens)
    loss, d_logits = cross_entropy(logits, targets)    # (batch, n, V)

    grads = {}
    x_f = cache["x_f"]
    d = cfg["d_model"]
    grads["w_u"] = x_f.reshape(-1, d).T @ d_logits.reshape(-1, cfg["vocab_size"])   # (d, batch*n) @ (batch*n, V) -> (d, V)
    dx = d_logits @ params["w_u"].T                    # (batch, n, V) @ (V, d) -> (batch, n, d)
    dx, grads["ln_f.g"], grads["ln_f.b"] = layer_norm_backward(dx, cache["ln_f"])
    for l in reversed(range(cfg["n_layers"])):
        c = cache[f"h{l}"]
        # x = x + MLP(LN_2(x)): the gradient flows straight through and through the branch
        d_m_in, g_mlp = mlp_backward(dx, c["mlp"])
        d_branch, g_g, g_b = layer_norm_backward(d_m_in, c["ln_2"])
        dx = dx + d_branch
        grads.update({f"h{l}.mlp.{k}": v for k, v in g_mlp.items()})
        grads[f"h{l}.ln_2.g"], grads[f"h{l}.ln_2.b"] = g_g, g_b
        # x = x + Attention(LN_1(x))
        d_a_in, g_attn = attention_backward(dx, c["attn"])
        d_branch, g_g, g_b = layer_norm_backward(d_a_in, c["ln_1"])
        dx = dx + d_branch
        grads.update({f"h{l}.attn.{k}": v for k, v in g_attn.items()})
        grads[f"h{l}.ln_1.g"], grads[f"h{l}.ln_1.b"] = g_g, g_b
    # x_0 = wte[tokens] + wpe[:n]
    n = tokens.shape[1]
    grads["wpe"] = np.zeros_like(params["wpe"])
    grads["wpe"][:n] = dx.sum(axis=0)                  # (n, d)
    grads["wte"] = np.zeros_like(params["wte"])
    np.add.at(grads["wte"], tokens.ravel(), dx.reshape(-1, d))   # each row collects its tokens' gradients
    return loss, {key: grads[key] for key in params}


# --------------------------------------------------------------------------
# optimisers: a few lines each
# --------------------------------------------------------------------------

def _check_lr(lr):
    if isinstance(lr, (bool, np.bool_)) or not isinstance(lr, numbers.Real) \
            or not math.isfinite(lr) or lr <= 0:
        raise ValueError(f"lr (the learning rate) must be a positive finite number, got {lr!r}")
    return float(lr)


def sgd_step(params, grads, lr):
    """Plain gradient descent, in place: w <- w - lr * dL/dw for every parameter."""
    lr = _check_lr(lr)
    for key in params:
        params[key] -= lr * grads[key]


def adam_init(params):
    """Adam's state: step count and, per parameter, running means of g and g^2 (all zero)."""
    return {"t": 0, "m": {k: np.zeros_like(v) for k, v in params.items()},
            "v": {k: np.zeros_like(v) for k, v in params.items()}}


def adam_step(params, grads, state, lr, beta_1=0.9, beta_2=0.999, eps=1e-8):
    """One Adam step, in place (Kingma & Ba 2015):

        m <- b1 m + (1 - b1) g,   v <- b2 v + (1 - b2) g^2
        w <- w - lr * m_hat / (sqrt(v_hat) + eps),  m_hat = m / (1 - b1^t), v_hat = v / (1 - b2^t)
    """
    lr = _check_lr(lr)
    state["t"] += 1
    t = state["t"]
    for key in params:
        g = grads[key]
        m = state["m"][key] = beta_1 * state["m"][key] + (1 - beta_1) * g
        v = state["v"][key] = beta_2 * state["v"][key] + (1 - beta_2) * g * g
        m_hat, v_hat = m / (1 - beta_1 ** t), v / (1 - beta_2 ** t)
        params[key] -= lr * m_hat / (np.sqrt(v_hat) + eps)


# --------------------------------------------------------------------------
# generation
# --------------------------------------------------------------------------

def generate(params, prompt, n_new, temperature=0.0, seed=0):
    """Continue ``prompt`` (a 1-D list of ids) by ``n_new`` tokens, one forward pass per token.

    temperature 0 picks the most likely token (greedy); temperature T > 0 samples from
    softmax(logits / T), reproducibly from ``seed``. Only the last n_ctx tokens are seen.
    Returns the whole sequence, prompt first, as a 1-D int array.
    """
    cfg = config_of(params)
    prompt = _check_tokens(np.asarray(prompt)[None] if np.ndim(prompt) == 1 else prompt,
                           cfg["vocab_size"], 10**9, name="prompt")
    if prompt.shape[0] != 1:
        raise ValueError(f"prompt must be one sequence (a 1-D list of ids), got shape {prompt.shape}")
    if isinstance(n_new, (bool, np.bool_)) or not isinstance(n_new, numbers.Integral) or n_new < 0:
        raise ValueError(f"n_new must be a non-negative integer, got {n_new!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real) \
            or not math.isfinite(temperature) or temperature < 0:
        raise ValueError(f"temperature must be a finite number >= 0, got {temperature!r}")
    rng = np.random.default_rng(seed)
    seq = list(prompt[0])
    for _ in range(n_new):
        context = np.array([seq[-cfg["n_ctx"]:]])      # (1, <= n_ctx)
        logits, _ = forward(params, context)
        last = logits[0, -1]                           # (V,) scores for the next token
        if temperature == 0:
            seq.append(int(np.argmax(last)))
        else:
            p = _softmax(last / temperature, -1, None)  # (V,)
            seq.append(int(rng.choice(len(p), p=p)))
    return np.array(seq, dtype=np.int64)


# --------------------------------------------------------------------------
# the chapter's task: copy the first half
# --------------------------------------------------------------------------

class CopyTask:
    """Sequences of ``2 * half`` tokens: ``half`` random ids, then the same ids again.

    The first half is noise nobody can predict; every token of the second half is exactly the
    token ``half`` places back. To predict it, position i must look at position i + 1 - half:
    only attention can fetch a token from another position.
    """

    def __init__(self, vocab_size=8, half=6):
        self.vocab_size = check_positive_int("vocab_size", vocab_size)
        self.half = check_positive_int("half", half)
        if self.vocab_size < 2:
            raise ValueError(f"vocab_size must be at least 2 for a copy task, got {vocab_size}")

    @property
    def n(self):
        return 2 * self.half


def copy_batch(rng, batch, task=None):
    """A batch of the copy task: (tokens, targets), both (batch, 2*half - 1).

    tokens = the sequence without its last token; targets = the next token at each position,
    and -1 (not scored) over the first half, which cannot be predicted.

    >>> tokens, targets = copy_batch(np.random.default_rng(0), 1, CopyTask(vocab_size=8, half=3))
    >>> tokens.tolist(), targets.tolist()
    ([[6, 5, 4, 6, 5]], [[-1, -1, 6, 5, 4]])
    """
    task = task or CopyTask()
    half = rng.integers(0, task.vocab_size, size=(batch, task.half))     # (batch, half)
    seq = np.concatenate([half, half], axis=1)         # (batch, 2 half)
    tokens, targets = seq[:, :-1], seq[:, 1:].copy()   # (batch, 2 half - 1) each
    targets[:, :task.half - 1] = -1                    # the first half is random: not scored
    return tokens, targets


def accuracy(params, tokens, targets):
    """Share of scored positions where the most likely next token is the target."""
    logits, _ = forward(params, tokens)
    scored = targets >= 0
    return float((logits.argmax(axis=-1) == targets)[scored].mean())


BOOK = {"steps": 120, "lr": 0.01, "seed": 0, "batch": 32, "vocab_size": 8, "half": 6,
        "d_model": 16, "n_heads": 2, "n_layers": 1}
"""The configuration the book trains (chapter 8's figures, listings and widget)."""


class Trainer:
    """Training one step at a time: a fresh model on the copy task, its optimiser and its batches.

    ``seed`` fixes the initial weights and the stream of batches, so two trainers with the same
    arguments produce the same losses, step for step, in CPython and in Pyodide.

    >>> t = Trainer(seed=0)
    >>> [round(loss, 3) for loss in t.run(3)], t.step_count
    ([2.079, 2.092, 2.072], 3)
    """

    def __init__(self, lr=0.01, seed=0, batch=32, vocab_size=8, half=6, d_model=16, n_heads=2,
                 n_layers=1, optimizer="adam"):
        self.lr = _check_lr(lr)
        self.batch = check_positive_int("batch", batch)
        if optimizer not in ("adam", "sgd"):
            raise ValueError(f"optimizer must be 'adam' or 'sgd', got {optimizer!r}")
        self.optimizer = optimizer
        self.task = CopyTask(vocab_size, half)
        self.params = init(vocab_size, d_model, n_heads, n_layers, self.task.n - 1, seed=seed)
        self.state = adam_init(self.params)
        self.rng = np.random.default_rng([seed, 1])    # batches: a stream apart from the weights
        self.step_count = 0

    def step(self):
        """One step: a fresh batch, its loss and gradient, one update. Returns the loss."""
        tokens, targets = copy_batch(self.rng, self.batch, self.task)
        loss, grads = loss_and_grad(self.params, tokens, targets)
        if not math.isfinite(loss):
            raise ValueError(f"the loss became {loss} at step {self.step_count + 1}: "
                             f"the learning rate lr = {self.lr} is too large")
        if self.optimizer == "adam":
            adam_step(self.params, grads, self.state, self.lr)
        else:
            sgd_step(self.params, grads, self.lr)
        self.step_count += 1
        return loss

    def run(self, k):
        """``k`` steps; returns their losses."""
        return [self.step() for _ in range(check_positive_int("k", k))]


def train(steps=120, lr=0.01, seed=0, batch=32, vocab_size=8, half=6, d_model=16, n_heads=2,
          n_layers=1, optimizer="adam"):
    """Train a fresh model on the copy task for ``steps`` steps. Returns (params, losses).

    losses[i] is the loss of the batch of step i + 1, measured before that step's update.
    The same arguments give the same numbers (see :class:`Trainer`).
    """
    trainer = Trainer(lr=lr, seed=seed, batch=batch, vocab_size=vocab_size, half=half,
                      d_model=d_model, n_heads=n_heads, n_layers=n_layers, optimizer=optimizer)
    losses = trainer.run(check_positive_int("steps", steps))
    return trainer.params, losses


@functools.lru_cache(maxsize=8)
def _trained(key):
    return train(**dict(key))


def trained(**config):
    """:func:`train`, remembered: a build that asks for the same configuration trains it once.

    Returns copies, so a caller that changes them cannot change what is remembered.
    """
    bound = inspect.signature(train).bind(**config)
    bound.apply_defaults()
    params, losses = _trained(tuple(sorted(bound.arguments.items())))
    return {k: v.copy() for k, v in params.items()}, list(losses)


# --------------------------------------------------------------------------
# reading the trained model: held-out data, letters, what each head looks at
# --------------------------------------------------------------------------

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HELD_OUT_SEED = 2026


def spell(tokens):
    """Token ids as letters, -1 (not scored) as a dot: [0, 1, -1] -> "AB·".

    The copy task's tokens mean nothing, so letters are as good a name as any.
    """
    return "".join("·" if int(t) < 0 else LETTERS[int(t)] for t in np.ravel(tokens))


def held_out(count=1000, **config):
    """About ``count`` copy-task sequences the training of ``config`` never saw: (tokens, targets).

    Drawn from their own seed, then every sequence that occurs in one of the training batches
    of ``config`` (same defaults as :func:`train`) is dropped, so the accuracy on them
    measures what the model does with new sequences.
    """
    bound = inspect.signature(train).bind(**config)
    bound.apply_defaults()
    c = bound.arguments
    task = CopyTask(c["vocab_size"], c["half"])
    rng = np.random.default_rng([c["seed"], 1])        # the training's batches, replayed
    seen = set()
    for _ in range(c["steps"]):
        tokens, _ = copy_batch(rng, c["batch"], task)
        seen.update(map(bytes, tokens.astype(np.uint8)))
    tokens, targets = copy_batch(np.random.default_rng(HELD_OUT_SEED), check_positive_int("count", count), task)
    new = np.array([bytes(t.astype(np.uint8)) not in seen for t in tokens])
    return tokens[new], targets[new]


def look_back(weights, half):
    """For each head, the mean weight a second-half position puts on the token ``half`` back.

    weights : (..., H, n, n) attention weights of the copy task (n = 2 half - 1). Position i
    (i >= half - 1) predicts token i + 1, which is the token at position i + 1 - half.
    Returns (H,): 1.0 means the head does exactly the copy.
    """
    w = np.asarray(weights)
    n = w.shape[-1]
    rows = np.arange(half - 1, n)                      # the scored positions
    share = w[..., rows, rows + 1 - half]              # (..., H, half)
    return share.reshape(-1, *share.shape[-2:]).mean(axis=(0, 2))   # (H,)


@functools.lru_cache(maxsize=1)
def _report():
    params, losses = trained(**BOOK)
    c = BOOK
    fresh = init(c["vocab_size"], c["d_model"], c["n_heads"], c["n_layers"], 2 * c["half"] - 1, seed=c["seed"])
    tokens, targets = held_out(**BOOK)
    weights = {name: forward(p, tokens)[1]["h0"]["attn"]["weights"] for name, p in
               (("before", fresh), ("after", params))}
    return {
        "held_out": len(tokens),
        "acc_before": accuracy(fresh, tokens, targets),
        "acc_after": accuracy(params, tokens, targets),
        "copy_before": look_back(weights["before"], c["half"]).tolist(),
        "copy_after": look_back(weights["after"], c["half"]).tolist(),
        "loss_first": losses[0],
        "loss_last": losses[-1],
        "guess": math.log(c["vocab_size"]),
        "first_below_0.1": 1 + next(i for i, loss in enumerate(losses) if loss < 0.1),
        "n_params": sum(v.size for v in params.values()),
    }


def report():
    """The numbers chapter 8 quotes about the book's trained model (computed once per build).

    held_out: how many new sequences were tested; acc_before / acc_after: their accuracy
    before and after training; copy_before / copy_after: per head, the weight on the token
    to copy (:func:`look_back`); loss_first / loss_last: the first and last step's loss;
    guess: ln(vocab_size), the loss of a uniform guess; first_below_0.1: the first step whose
    loss is below 0.1; n_params: the number of trained numbers.
    """
    return dict(_report())


# --------------------------------------------------------------------------
# the live widget of section 8.5: the same training, a few steps at a time, in Pyodide
# --------------------------------------------------------------------------

LIVE_CHUNK = 5                                      # steps per redraw in the widget
LIVE_LRS = (0.001, 0.003, 0.01, 0.03, 0.1)          # the widget's learning-rate choices
_live = {}


def live_reset(seed=0, lr=0.01, example=None):
    """Start a fresh :class:`Trainer` of the book's configuration for the widget of section 8.5.

    ``example`` (a list of ids) is the sequence whose attention the widget draws. Returns the
    state to draw (see :func:`live_run`).
    """
    config = {k: v for k, v in BOOK.items() if k not in ("steps", "seed", "lr")}
    _live["trainer"] = Trainer(seed=seed, lr=lr, **config)
    _live["example"] = np.array([example if example is not None else [0] * (2 * BOOK["half"] - 1)])
    return _live_state([])


def live_run(k):
    """``k`` more steps of the widget's trainer. Returns {"step", "losses", "weights"}:
    the step count, the losses of these k steps, and each head's attention on the example
    (H, n, n), rounded to 4 decimals for drawing."""
    if "trainer" not in _live:
        raise ValueError("call live_reset() before live_run()")
    return _live_state(_live["trainer"].run(k))


def _live_state(losses):
    trainer = _live["trainer"]
    _, cache = forward(trainer.params, _live["example"])
    weights = cache["h0"]["attn"]["weights"][0]        # (H, n, n)
    return {"step": trainer.step_count, "losses": [float(x) for x in losses],
            "weights": np.round(weights, 4).tolist()}
