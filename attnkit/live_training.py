"""The live widget of section 8.5: the book's training, a few steps at a time, in Pyodide.

The widget's Web Worker imports this module and calls :func:`live_reset` once, then
:func:`live_run` for every redraw. It runs the same :class:`attnkit.training.Trainer` as the
build, so the same seed and learning rate give the same losses in the browser as in CPython.

    >>> state = live_reset(seed=0, lr=0.01)
    >>> state["step"], len(state["weights"])           # before training; one map per head
    (0, 2)
    >>> live_run(LIVE_CHUNK)["step"]
    5
"""

from __future__ import annotations

import numpy as np

from .copytask import CopyTask
from .tinygpt import forward
from .training import BOOK, Trainer

__all__ = [
    "LIVE_CHUNK",
    "LIVE_LRS",
    "live_reset",
    "live_run",
]

LIVE_CHUNK = 5                                      # steps per redraw in the widget
LIVE_LRS = (0.001, 0.003, 0.01, 0.03, 0.1)          # the widget's learning-rate choices
_live = {}


def live_reset(seed=BOOK["seed"], lr=BOOK["lr"], example=None):
    """Start a fresh :class:`~attnkit.training.Trainer` of the book's configuration.

    ``example`` (a list of ids) is the sequence whose attention the widget draws. Returns the
    state to draw (see :func:`live_run`).
    """
    config = {k: v for k, v in BOOK.items() if k not in ("steps", "seed", "lr")}
    trainer = Trainer(seed=seed, lr=lr, **config)
    n_ctx = CopyTask(BOOK["vocab_size"], BOOK["half"]).n_ctx
    _live["trainer"] = trainer
    _live["example"] = np.array([example if example is not None else [0] * n_ctx])
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
