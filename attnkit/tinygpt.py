"""A tiny GPT you can train: a decoder-only Transformer in NumPy, forward and backward by hand.

The model of chapter 8. Everything a GPT does, at a size that trains in seconds:

    x_0 = wte[tokens] + wpe[positions]                      (batch, n, d_model)
    for each layer l:
        x = x + Attention_l(LN_1(x))                        causal, multi-head, residual
        x = x + MLP_l(LN_2(x))                              relu(x W_1 + b_1) W_2 + b_2, residual
    logits = LN_f(x) @ w_u                                  (batch, n, vocab)
    loss = mean over scored positions of -log softmax(logits)[target]

With ``ffn=False`` (:func:`init`) the layers have no MLP and no second layer norm: an
*attention-only* model, the kind Elhage et al. (2021) take apart and chapter 11 trains.

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

This module is the model only. The rest of chapter 8 lives beside it:

    attnkit.layers         the layer norm (forward and backward) every layer here uses
    attnkit.copytask       the task it learns: a random half, then the same half again
    attnkit.training       the optimisers, the book's settings (BOOK) and the training loop
    attnkit.copy_results   what the trained model learned: the numbers chapter 8 quotes
    attnkit.live_training  the same training, a few steps at a time, for the widget of 8.5
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._checks import as_float_array, as_token_ids, check_positive_int, check_seed
from .core import causal_mask, softmax_unchecked
from .layers import layer_norm_backward, layer_norm_forward

__all__ = [
    "init",
    "config_of",
    "layer_params",
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
]

# --------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------

def init(vocab_size, d_model, n_heads, n_layers, n_ctx, seed=0, ffn=True):
    """Fresh random parameters: a dict ``name -> float64 array`` (keys in the module docstring).

    Weights are drawn from N(0, 0.02^2) as in GPT-2 (the output projections of each residual
    branch scaled down by sqrt(2 L)), biases start at 0 and layer-norm gains at 1. The same
    ``seed`` gives the same numbers, on every machine. ``ffn=False`` leaves out every layer's
    MLP (the feed-forward network) and the layer norm before it: an attention-only model.

    >>> p = init(vocab_size=4, d_model=6, n_heads=3, n_layers=2, n_ctx=5, seed=1)
    >>> p["h1.attn.w_q"].shape, p["w_u"].shape, len(p)
    ((3, 6, 2), (6, 4), 29)
    >>> len(init(vocab_size=4, d_model=6, n_heads=3, n_layers=2, n_ctx=5, seed=1, ffn=False))
    17
    """
    vocab_size = check_positive_int("vocab_size", vocab_size)
    d_model = check_positive_int("d_model", d_model)
    n_heads = check_positive_int("n_heads", n_heads)
    n_layers = check_positive_int("n_layers", n_layers)
    n_ctx = check_positive_int("n_ctx", n_ctx)
    seed = check_seed(seed)
    if not isinstance(ffn, (bool, np.bool_)):
        raise ValueError(f"ffn must be True (each layer has an MLP) or False (attention only), got {ffn!r}")
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
        })
        if ffn:
            params.update({
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


def layer_params(params, l):
    """The parameters of layer ``l`` without their ``h{l}.`` prefix: {"attn.w_q": ..., ...}.

    >>> sorted(layer_params(init(5, 8, 2, 2, 6), 1))[:3]
    ['attn.w_k', 'attn.w_o', 'attn.w_q']
    """
    prefix = f"h{l}."
    return {key[len(prefix):]: value for key, value in params.items() if key.startswith(prefix)}


def _check_tokens(tokens, vocab_size, n_ctx):
    """tokens as an int array (batch, n) that fits the model, or ValueError naming what was wrong."""
    tokens = as_token_ids("tokens", tokens, vocab_size, ndim=2)
    if tokens.shape[1] > n_ctx:
        raise ValueError(f"tokens has sequences of length n = {tokens.shape[1]}, longer than the "
                         f"model's context n_ctx = {n_ctx}")
    return tokens


def _check_targets(targets, shape, vocab_size):
    """targets as an int array of ``shape`` (batch, n): ids or -1, at least one scored."""
    targets = as_token_ids("targets", targets, vocab_size, ndim=2, not_scored=True)
    if targets.shape != shape:
        raise ValueError(f"targets must have the shape of tokens {shape} (one next token "
                         f"per position), got shape {targets.shape}")
    if not (targets >= 0).any():
        raise ValueError("targets has no scored position: every entry is -1")
    return targets


# --------------------------------------------------------------------------
# the layers: forward and backward side by side (the layer norm's are in attnkit.layers)
# --------------------------------------------------------------------------

def attention_forward(p, x):
    """Causal multi-head self-attention of one layer. Returns (out, cache).

    p : the layer's weights {"w_q", "w_k", "w_v": (H, d, d_head), "w_o": (H, d_head, d)}
        (keys with or without the "attn." prefix).
    x : (batch, n, d), already layer-normed.

        q_h = x w_q[h],  k_h = x w_k[h],  v_h = x w_v[h]          (batch, H, n, d_head)
        weights_h = softmax(q_h k_h^T / sqrt(d_head), causal)      (batch, H, n, n)
        out = sum_h (weights_h v_h) w_o[h]                         (batch, n, d)

    The cache keeps x, q, k, v, the weights and each head's output ``z``.

    >>> p = layer_params(init(5, 8, 2, 1, 6), 0)
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
    weights = softmax_unchecked(scores, -1, mask)               # (batch, H, n, n), rows sum to 1, zero above the diagonal
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
        p = layer_params(params, l)
        a_in, ln_1 = layer_norm_forward(x, p["ln_1.g"], p["ln_1.b"])    # (batch, n, d)
        a_out, attn = attention_forward(p, a_in)       # (batch, n, d)
        x = x + a_out                                  # residual
        cache[f"h{l}"] = {"ln_1": ln_1, "attn": attn}
        if "mlp.w_1" in p:                             # not in an attention-only model (ffn=False)
            m_in, ln_2 = layer_norm_forward(x, p["ln_2.g"], p["ln_2.b"])    # (batch, n, d)
            m_out, mlp = mlp_forward(p, m_in)          # (batch, n, d)
            x = x + m_out                              # residual
            cache[f"h{l}"].update(ln_2=ln_2, mlp=mlp)
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
    >>> cross_entropy(np.zeros((1, 2, 4)), np.array([[4, -1]]))
    Traceback (most recent call last):
    ...
    ValueError: targets must be token ids in [0, 3] or -1 for not scored (vocab_size = 4), got 4 at index (0, 0)
    """
    logits = as_float_array("logits", logits, min_ndim=3, layout="(batch, n, vocab_size)")
    if logits.ndim != 3:
        raise ValueError(f"logits must have shape (batch, n, vocab_size), got shape {logits.shape}")
    targets = _check_targets(targets, logits.shape[:2], logits.shape[2])
    return _cross_entropy(logits, targets)


def _cross_entropy(logits, targets):
    """:func:`cross_entropy` on inputs already checked (the training loop's)."""
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
    loss, d_logits = _cross_entropy(logits, targets)   # (batch, n, V)

    grads = {}
    x_f = cache["x_f"]
    d = cfg["d_model"]
    grads["w_u"] = x_f.reshape(-1, d).T @ d_logits.reshape(-1, cfg["vocab_size"])   # (d, batch*n) @ (batch*n, V) -> (d, V)
    dx = d_logits @ params["w_u"].T                    # (batch, n, V) @ (V, d) -> (batch, n, d)
    dx, grads["ln_f.g"], grads["ln_f.b"] = layer_norm_backward(dx, cache["ln_f"])
    for l in reversed(range(cfg["n_layers"])):
        c = cache[f"h{l}"]
        if "mlp" in c:
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
# generation
# --------------------------------------------------------------------------

def generate(params, prompt, n_new, temperature=0.0, seed=0):
    """Continue ``prompt`` (a 1-D list of ids) by ``n_new`` tokens, one forward pass per token.

    temperature 0 picks the most likely token (greedy); temperature T > 0 samples from
    softmax(logits / T), reproducibly from ``seed``. A T so small that logits / T overflows
    samples only among the most likely tokens (the limit T -> 0); a huge T samples evenly.
    Only the last n_ctx tokens are seen. ``n_new`` is at least 1, as for
    :func:`attnkit.kvcache.generate`: a call that writes nothing is a mistake, not a request.
    Returns the whole sequence, prompt first, as a 1-D int array.

    >>> params = init(vocab_size=5, d_model=8, n_heads=2, n_layers=1, n_ctx=6, seed=0)
    >>> generate(params, [0, 1, 2], 2).shape
    (5,)
    >>> generate(params, [], 2)
    Traceback (most recent call last):
    ...
    ValueError: prompt must have shape (n,) with n >= 1, got shape (0,)
    """
    cfg = config_of(params)
    prompt = as_token_ids("prompt", prompt, cfg["vocab_size"], ndim=1)
    n_new = check_positive_int("n_new", n_new)
    if isinstance(temperature, (bool, np.bool_)) or not isinstance(temperature, numbers.Real) \
            or not math.isfinite(temperature) or temperature < 0:
        raise ValueError(f"temperature must be a finite number >= 0, got {temperature!r}")
    rng = np.random.default_rng(check_seed(seed))
    seq = [int(t) for t in prompt]
    for _ in range(n_new):
        context = np.array([seq[-cfg["n_ctx"]:]])      # (1, <= n_ctx)
        logits, _ = forward(params, context)
        last = logits[0, -1]                           # (V,) scores for the next token
        if not np.isfinite(last).all():
            raise ValueError("the model's logits contain NaN or infinity: params must hold finite "
                             "numbers (a training run whose loss blew up gives such params)")
        if temperature == 0:
            seq.append(int(np.argmax(last)))
            continue
        with np.errstate(over="ignore"):
            scaled = last / temperature                # (V,)
            if not np.isfinite(scaled).all():          # T tiny: the best token(s) 0, the rest -inf
                scaled = (last - last.max()) / temperature
        p = softmax_unchecked(scaled, -1, None)        # (V,)
        seq.append(int(rng.choice(len(p), p=p)))
    return np.array(seq, dtype=np.int64)
