"""What chapter 8's trained model learned: the numbers the chapter quotes about it.

The model of :mod:`attnkit.tinygpt`, trained by :mod:`attnkit.training` with the book's
settings (``BOOK``) on :mod:`attnkit.copytask`, is tested on sequences its training never saw
(:func:`held_out`): how often it guesses right (:func:`accuracy`) and how much each head looks
at the token to copy (:func:`look_back`), before and after training. :func:`report` gathers the
numbers the prose of chapter 8 prints.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ._checks import as_float_array, check_positive_int
from .copytask import CopyTask, copy_batch
from .tinygpt import forward
from .training import BOOK, batches, settings_of, trained, untrained

__all__ = [
    "HELD_OUT_SEED",
    "accuracy",
    "accuracy_of_logits",
    "held_out",
    "look_back",
    "report",
]

HELD_OUT_SEED = 2026


def accuracy(params, tokens, targets):
    """Share of scored positions (target >= 0) where the most likely next token is the target.

    tokens, targets : (batch, n) as for :func:`attnkit.tinygpt.loss_and_grad`.

    >>> from attnkit.tinygpt import init
    >>> accuracy(init(5, 8, 2, 1, 4), [[0, 1, 2]], [[-1, 3, 4]])
    0.0
    """
    logits, _ = forward(params, tokens)                # (batch, n, V); checks tokens
    return accuracy_of_logits(logits, targets)


def accuracy_of_logits(logits, targets):
    """:func:`accuracy` from the logits (batch, n, V) a model already gave: the share of scored
    positions (target >= 0) whose highest logit is the target.

    >>> accuracy_of_logits(np.array([[[0.0, 2.0], [3.0, 1.0]]]), [[1, 1]])
    0.5
    """
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:2]:
        raise ValueError(f"targets must have the shape of tokens {logits.shape[:2]}, "
                         f"got shape {targets.shape}")
    scored = targets >= 0                               # (batch, n)
    if not scored.any():
        raise ValueError("targets has no scored position: every entry is -1")
    return float((logits.argmax(axis=-1) == targets)[scored].mean())


def held_out(count=1000, **config):
    """About ``count`` copy-task sequences the training of ``config`` never saw: (tokens, targets).

    Drawn from their own seed, then every sequence that occurs in one of the training batches
    of ``config`` (the settings of :func:`attnkit.training.train`, the book's by default) is
    dropped, so the accuracy on them measures what the model does with new sequences.
    """
    c = settings_of(**config)
    task = CopyTask(c["vocab_size"], c["half"])
    rng = batches(c["seed"])                           # the training's batches, replayed
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

    >>> look_back(np.eye(5)[None], half=3)                 # every position looks at itself
    array([0.])
    """
    w = as_float_array("weights", weights, min_ndim=3, layout="(..., H, n, n)")
    half = check_positive_int("half", half)
    n = w.shape[-1]
    if w.shape[-2] != n or n != 2 * half - 1:
        raise ValueError(f"weights must end in (n, n) with n = 2 half - 1 = {2 * half - 1}, "
                         f"got shape {w.shape}")
    rows = np.arange(half - 1, n)                      # the scored positions
    share = w[..., rows, rows + 1 - half]              # (..., H, half)
    return share.reshape(-1, *share.shape[-2:]).mean(axis=(0, 2))   # (H,)


@functools.lru_cache(maxsize=1)
def _report():
    params, losses = trained(**BOOK)
    c = BOOK
    fresh = untrained(**BOOK)
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
