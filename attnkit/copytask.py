"""The task chapter 8's tiny GPT learns: copy the first half.

A sequence is ``half`` random token ids, then the same ids again. The first half is noise
nobody can predict; every token of the second half is exactly the token ``half`` places back.
To predict it, position i must look at position i + 1 - half: only attention can fetch a
token from another position.

A sequence has ``2 * half`` tokens but a model sees only ``2 * half - 1`` of them: the last
token is never an input, only the target of the position before it (``CopyTask.n_ctx``).
The tokens mean nothing, so they are shown as letters (:func:`spell`).

    >>> task = CopyTask(vocab_size=8, half=3)
    >>> tokens, targets = copy_batch(np.random.default_rng(0), 1, task)
    >>> spell(tokens), spell(targets), task.n_ctx
    ('GFEGF', '··GFE', 5)
"""

from __future__ import annotations

import numpy as np

from ._checks import check_positive_int

__all__ = [
    "CopyTask",
    "copy_batch",
    "LETTERS",
    "spell",
]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class CopyTask:
    """Sequences of ``2 * half`` tokens: ``half`` random ids out of ``vocab_size``, then the same ids again.

    >>> CopyTask(vocab_size=8, half=6).n, CopyTask(vocab_size=8, half=6).n_ctx
    (12, 11)
    """

    def __init__(self, vocab_size, half):
        self.vocab_size = check_positive_int("vocab_size", vocab_size)
        self.half = check_positive_int("half", half)
        if self.vocab_size < 2:
            raise ValueError(f"vocab_size must be at least 2 for a copy task, got {vocab_size}")
        if self.vocab_size > len(LETTERS):
            raise ValueError(f"vocab_size must be at most {len(LETTERS)} (one letter per token), "
                             f"got {vocab_size}")

    @property
    def n(self):
        """Tokens in a sequence: ``2 * half``."""
        return 2 * self.half

    @property
    def n_ctx(self):
        """Positions a model needs: ``2 * half - 1`` (the last token is only a target)."""
        return self.n - 1


def copy_batch(rng, batch, task):
    """A batch of the copy task: (tokens, targets), both (batch, 2*half - 1).

    tokens = the sequence without its last token; targets = the next token at each position,
    and -1 (not scored) over the first half, which cannot be predicted.

    >>> tokens, targets = copy_batch(np.random.default_rng(0), 1, CopyTask(vocab_size=8, half=3))
    >>> tokens.tolist(), targets.tolist()
    ([[6, 5, 4, 6, 5]], [[-1, -1, 6, 5, 4]])
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    if not isinstance(task, CopyTask):
        raise ValueError(f"task must be a CopyTask, got {type(task).__name__}")
    batch = check_positive_int("batch", batch)
    half = rng.integers(0, task.vocab_size, size=(batch, task.half))     # (batch, half)
    seq = np.concatenate([half, half], axis=1)         # (batch, 2 half)
    tokens, targets = seq[:, :-1], seq[:, 1:].copy()   # (batch, 2 half - 1) each
    targets[:, :task.half - 1] = -1                    # the first half is random: not scored
    return tokens, targets


def spell(tokens):
    """Token ids as letters, -1 (not scored) as a dot: [0, 1, -1] -> "AB·".

    >>> spell([0, 1, -1])
    'AB·'
    >>> spell([0, 26])
    Traceback (most recent call last):
    ...
    ValueError: tokens must be ids in [0, 25] (one letter each) or -1, got 26 at index 1
    """
    try:
        ids = np.ravel(np.asarray(tokens))
    except (ValueError, TypeError):
        raise ValueError(f"tokens must be a rectangular array of token ids, got a ragged "
                         f"or malformed {type(tokens).__name__}") from None
    if ids.size and ids.dtype.kind not in "iu":
        raise ValueError(f"tokens must hold integer token ids, got dtype {ids.dtype}")
    bad = (ids < -1) | (ids >= len(LETTERS))
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"tokens must be ids in [0, {len(LETTERS) - 1}] (one letter each) or -1, "
                         f"got {int(ids[i])} at index {i}")
    return "".join("·" if int(t) < 0 else LETTERS[int(t)] for t in ids)
