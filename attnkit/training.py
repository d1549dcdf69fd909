"""Training chapter 8's tiny GPT on the copy task: the optimisers, the book's settings, the loop.

:data:`BOOK` holds the settings the book trains with, typed once: every default below, the
chapter's figures, listings, numbers and the widget of section 8.5 read them from here.

    >>> params, losses = train(steps=3)                 # the book's model and task, 3 steps
    >>> [round(loss, 3) for loss in losses]
    [2.079, 2.092, 2.072]

The same settings give the same numbers, step for step, in CPython and in Pyodide.
"""

from __future__ import annotations

import functools
import inspect
import math

import numpy as np

from ._checks import check_positive, check_positive_int, check_seed
from .copytask import CopyTask, copy_batch
from .tinygpt import init, loss_and_grad

__all__ = [
    "sgd_step",
    "adam_init",
    "adam_step",
    "train_step",
    "BOOK",
    "OPTIMIZERS",
    "settings_of",
    "untrained",
    "batches",
    "Trainer",
    "train",
    "trained",
]


# --------------------------------------------------------------------------
# optimisers: a few lines each
# --------------------------------------------------------------------------

def _check_lr(lr):
    return check_positive("lr", lr, why=" (the learning rate)")


def _check_grads(params, grads):
    """Raise unless params and grads are dicts with the same keys (as loss_and_grad returns)."""
    if not isinstance(params, dict) or not isinstance(grads, dict):
        raise ValueError(f"params and grads must be dicts name -> array (as tinygpt.init and "
                         f"loss_and_grad give), got {type(params).__name__} and {type(grads).__name__}")
    if params.keys() != grads.keys():
        missing = sorted(set(params) - set(grads))[:3]
        extra = sorted(set(grads) - set(params))[:3]
        raise ValueError(f"grads must have the keys of params: missing {missing}, extra {extra}")


def sgd_step(params, grads, lr):
    """Plain gradient descent, in place: w <- w - lr * dL/dw for every parameter.

    >>> params = {"w": np.array([1.0, 2.0])}
    >>> sgd_step(params, {"w": np.array([0.5, -1.0])}, lr=0.1)
    >>> params["w"]
    array([0.95, 2.1 ])
    """
    lr = _check_lr(lr)
    _check_grads(params, grads)
    for key in params:
        params[key] -= lr * grads[key]


def adam_init(params):
    """Adam's state: step count and, per parameter, running means of g and g^2 (all zero).

    >>> adam_init({"w": np.ones(2)})
    {'t': 0, 'm': {'w': array([0., 0.])}, 'v': {'w': array([0., 0.])}}
    """
    return {"t": 0, "m": {k: np.zeros_like(v) for k, v in params.items()},
            "v": {k: np.zeros_like(v) for k, v in params.items()}}


def adam_step(params, grads, state, lr, beta_1=0.9, beta_2=0.999, eps=1e-8):
    """One Adam step, in place (Kingma & Ba 2015):

        m <- b1 m + (1 - b1) g,   v <- b2 v + (1 - b2) g^2
        w <- w - lr * m_hat / (sqrt(v_hat) + eps),  m_hat = m / (1 - b1^t), v_hat = v / (1 - b2^t)

    params, grads, state["m"][key], state["v"][key] : the same shape per key.

    >>> params = {"w": np.array([1.0, -2.0])}
    >>> state = adam_init(params)
    >>> adam_step(params, {"w": np.array([0.5, -4.0])}, state, lr=0.1)
    >>> params["w"].round(4), state["t"]                # the first step moves each weight by lr
    (array([ 0.9, -1.9]), 1)
    """
    lr = _check_lr(lr)
    _check_grads(params, grads)
    if not isinstance(state, dict) or {"t", "m", "v"} - set(state):
        raise ValueError(f"state must be the dict made by adam_init(params) (keys 't', 'm', 'v'), "
                         f"got {type(state).__name__}")
    state["t"] += 1
    t = state["t"]
    for key in params:
        g = grads[key]
        m = state["m"][key] = beta_1 * state["m"][key] + (1 - beta_1) * g
        v = state["v"][key] = beta_2 * state["v"][key] + (1 - beta_2) * g * g
        m_hat, v_hat = m / (1 - beta_1 ** t), v / (1 - beta_2 ** t)
        params[key] -= lr * m_hat / (np.sqrt(v_hat) + eps)


OPTIMIZERS = ("adam", "sgd")


def train_step(params, state, tokens, targets, lr, optimizer="adam", step=None):
    """One training step, in place: the loss and gradient of one batch, then one update.

    The one step every training loop of the book takes (chapter 8's :class:`Trainer`, chapter
    11's :func:`attnkit.induction.train_induction`, chapter 12's
    :class:`attnkit.realtext.TextTrainer`); they differ only in the batches they feed it.
    tokens, targets : (batch, n) ids, targets -1 where not scored (:func:`attnkit.tinygpt.loss_and_grad`);
    state : :func:`adam_init`'s dict (unused by SGD); ``step`` only names the step in the error
    raised when the loss stops being a finite number. Returns the loss, measured before the update.

    >>> from attnkit.tinygpt import init
    >>> params = init(vocab_size=4, d_model=4, n_heads=1, n_layers=1, n_ctx=3)
    >>> round(train_step(params, adam_init(params), [[0, 1, 2]], [[1, 2, 3]], lr=0.01), 3)
    1.355
    """
    loss, grads = loss_and_grad(params, tokens, targets)
    if not math.isfinite(loss):
        where = "" if step is None else f" at step {step}"
        raise ValueError(f"the loss became {loss}{where}: the learning rate lr = {lr} is too large")
    if optimizer == "adam":
        adam_step(params, grads, state, lr)
    elif optimizer == "sgd":
        sgd_step(params, grads, lr)
    else:
        raise ValueError(f"optimizer must be 'adam' or 'sgd', got {optimizer!r}")
    return loss


# --------------------------------------------------------------------------
# the book's settings and the training loop
# --------------------------------------------------------------------------

BOOK = {"steps": 120, "lr": 0.01, "seed": 0, "batch": 32, "vocab_size": 8, "half": 6,
        "d_model": 16, "n_heads": 2, "n_layers": 1}
"""The configuration the book trains (chapter 8's figures, listings and widget)."""


def untrained(**config):
    """The model a training run of these settings starts from, before its first step.

    Takes the same keywords as :func:`train` (:func:`settings_of`), so ``untrained(**BOOK)``
    is the book's model at step 0; its context is the copy task's ``n_ctx``.

    >>> from attnkit.tinygpt import config_of
    >>> config_of(untrained(**BOOK))
    {'vocab_size': 8, 'd_model': 16, 'n_heads': 2, 'n_layers': 1, 'n_ctx': 11}
    """
    c = settings_of(**config)
    task = CopyTask(c["vocab_size"], c["half"])
    return init(c["vocab_size"], c["d_model"], c["n_heads"], c["n_layers"], task.n_ctx, seed=c["seed"])


def batches(seed):
    """The random stream a training run of ``seed`` draws its batches from (apart from the weights').

    >>> int(batches(0).integers(0, 100)) == int(batches(0).integers(0, 100))
    True
    """
    return np.random.default_rng([check_seed(seed), 1])


class Trainer:
    """Training one step at a time: a fresh model on the copy task, its optimiser and its batches.

    ``seed`` fixes the initial weights and the stream of batches, so two trainers with the same
    arguments produce the same losses, step for step, in CPython and in Pyodide.

    >>> t = Trainer(seed=0)
    >>> [round(loss, 3) for loss in t.run(3)], t.step_count
    ([2.079, 2.092, 2.072], 3)
    """

    def __init__(self, lr=BOOK["lr"], seed=BOOK["seed"], batch=BOOK["batch"],
                 vocab_size=BOOK["vocab_size"], half=BOOK["half"], d_model=BOOK["d_model"],
                 n_heads=BOOK["n_heads"], n_layers=BOOK["n_layers"], optimizer="adam"):
        self.lr = _check_lr(lr)
        self.batch = check_positive_int("batch", batch)
        if optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be 'adam' or 'sgd', got {optimizer!r}")
        self.optimizer = optimizer
        self.task = CopyTask(vocab_size, half)
        self.params = untrained(seed=seed, vocab_size=vocab_size, half=half, d_model=d_model,
                                n_heads=n_heads, n_layers=n_layers)
        self.state = adam_init(self.params)
        self.rng = batches(seed)
        self.step_count = 0

    def step(self):
        """One step: a fresh batch, its loss and gradient, one update. Returns the loss."""
        tokens, targets = copy_batch(self.rng, self.batch, self.task)
        loss = train_step(self.params, self.state, tokens, targets, self.lr, self.optimizer,
                          step=self.step_count + 1)
        self.step_count += 1
        return loss

    def run(self, k):
        """``k`` steps; returns their losses."""
        return [self.step() for _ in range(check_positive_int("k", k))]


def train(steps=BOOK["steps"], **settings):
    """Train a fresh model on the copy task for ``steps`` steps. Returns (params, losses).

    ``settings`` are :class:`Trainer`'s keywords (lr, seed, batch, vocab_size, half, d_model,
    n_heads, n_layers, optimizer); each one left out is the book's (:data:`BOOK`).
    losses[i] is the loss of the batch of step i + 1, measured before that step's update.
    The same arguments give the same numbers (see :class:`Trainer`).
    """
    trainer = Trainer(**settings)
    losses = trainer.run(check_positive_int("steps", steps))
    return trainer.params, losses


def settings_of(**config):
    """Every setting of a training run, the book's filled in: ``settings_of(seed=3)["lr"] == 0.01``.

    >>> settings_of(seed=3) == {**BOOK, "seed": 3, "optimizer": "adam"}
    True
    """
    bound = inspect.signature(Trainer).bind(**{k: v for k, v in config.items() if k != "steps"})
    bound.apply_defaults()
    return {"steps": config.get("steps", BOOK["steps"]), **bound.arguments}


@functools.lru_cache(maxsize=8)
def _trained(key):
    return train(**dict(key))


def trained(**config):
    """:func:`train`, remembered: a build that asks for the same configuration trains it once.

    Returns copies, so a caller that changes them cannot change what is remembered.
    """
    params, losses = _trained(tuple(sorted(settings_of(**config).items())))
    return {k: v.copy() for k, v in params.items()}, list(losses)
