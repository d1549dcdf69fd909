"""Four attention heads on the toy model: four pairs of glasses, each showing one kind of relation.

The heads read the same input, the toy's embeddings after its first step (``attend(...,
steps=1).x_next``, where a pronoun already carries its clue), and each has its own
hand-written ``W_Q``, ``W_K`` over the toy's ``FEATURES`` (d_k = 2):

    head "referent":  a word that needs something alive / a thing asks for such a noun
    head "clue":      a pronoun asks for the clue word that tells what it needs
    head "action":    a verb asks for the nouns that take part in it
    head "grammar":   a grammar word (因为, because, the) asks for the verb it belongs to

Every head's values are the whole input (``W_V`` = identity), so head h outputs
``weights_h @ x`` of shape (n, d_model); the four outputs are put side by side
(concatenated) into one (n, 4 * d_model) array, as multi-head attention does before ``W_O``.

    >>> r = attend_heads("小猫追着球跑，因为它很好玩。", "zh")
    >>> r.tokens[r.top(0, "它")], r.tokens[r.top(1, "它")], r.tokens[r.top(2, "追着")]
    ('球', '好玩', '小猫')
    >>> r.weights.shape, r.concat.shape
    ((4, 8, 8), (8, 40))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import scaled_dot_product_attention
from .toy import FEATURES, SENTENCES, STRENGTH, attend

__all__ = ["HEADS", "HEAD_NAMES", "HeadsResult", "attend_heads", "TourSentence", "TOUR_SENTENCES", "tour_sentence", "tour_weight"]

SLOTS = ["a", "b"]  # the d_k = 2 columns of every head's queries and keys


@dataclass(frozen=True)
class TourSentence:
    """One example of the tour in both languages: the text, the word to watch, the step to show."""

    text: dict[str, str]
    focus: dict[str, str]
    step: int


# The tour's examples: the same idea written natively in each language (not translated word
# for word), all of them the toy model's own SENTENCES. In English "…because it was fun" would
# most naturally mean the chasing was fun, so the English pair uses "shiny" (only a ball is).
TOUR_SENTENCES: dict[str, TourSentence] = {
    "cat-ball-fun": TourSentence(
        {"zh": SENTENCES["cat-ball-fun"].text, "en": SENTENCES["kitten-ball-shiny"].text},
        {"zh": "它", "en": "it"}, 2),
    "cat-ball-hungry": TourSentence(
        {"zh": SENTENCES["cat-ball-hungry"].text, "en": SENTENCES["kitten-ball-hungry"].text},
        {"zh": "它", "en": "it"}, 2),
    "apple-fruit": TourSentence(
        {"zh": "水果摊上的苹果又甜又脆。", "en": "The apple at the fruit stall was sweet and crisp."},
        {"zh": "苹果", "en": "apple"}, 1),
    "apple-launch": TourSentence(
        {"zh": "苹果发布会上发布了新手机。", "en": "Apple showed a new phone at the launch event."},
        {"zh": "苹果", "en": "apple"}, 1),
}


def tour_sentence(sentence_id: str, lang: str):
    """The toy model's result for a tour example: ``(result, focus index, step)``.

    >>> r, i, step = tour_sentence("cat-ball-fun", "en")
    >>> r.tokens[i], step, r.top("it")
    ('it', 2, 'ball')
    """
    if sentence_id not in TOUR_SENTENCES:
        raise ValueError(f"unknown tour sentence {sentence_id!r}; known: {', '.join(TOUR_SENTENCES)}")
    example = TOUR_SENTENCES[sentence_id]
    result = attend(example.text[lang], lang)
    return result, result.index(example.focus[lang]), example.step


def tour_weight(sentence_id: str, lang: str, target: str, step: int | None = None) -> float:
    """The weight the tour example's focus word gives ``target`` (all its occurrences).

    ``step`` defaults to the example's own step (2 for the pronoun, 1 for apple).

    >>> round(tour_weight("cat-ball-fun", "zh", "球"), 3)
    0.871
    """
    result, i, default = tour_sentence(sentence_id, lang)
    return result.share(result.tokens[i], [target], step=step or default)


def _matrix(rules: dict[tuple[str, str], float]) -> np.ndarray:
    """A (d_model, 2) matrix, zero except ``rules[(feature, slot)]``."""
    w = np.zeros((len(FEATURES), len(SLOTS)))
    for (feature, slot), value in rules.items():
        w[FEATURES.index(feature), SLOTS.index(slot)] = value
    return w


# name -> (W_Q, W_K); each (d_model, d_k=2)
HEADS: dict[str, tuple[np.ndarray, np.ndarray]] = {
    "referent": (
        _matrix({("needs_animate", "a"): STRENGTH, ("needs_thing", "b"): STRENGTH}),
        _matrix({("animate", "a"): 1.0, ("thing", "b"): 1.0}),
    ),
    "clue": (
        _matrix({("pronoun", "a"): STRENGTH}),
        _matrix({("needs_animate", "a"): 1.0, ("needs_thing", "a"): 1.0}),
    ),
    "action": (
        _matrix({("action", "a"): STRENGTH, ("action", "b"): STRENGTH}),
        _matrix({("animate", "a"): 1.0, ("thing", "b"): 1.0}),
    ),
    "grammar": (
        _matrix({("function", "a"): STRENGTH}),
        _matrix({("action", "a"): 1.0}),
    ),
}

HEAD_NAMES: dict[str, list[str]] = {
    "zh": ["指代：它是谁", "线索：它怎么了", "动作：谁做了什么", "语法：虚词连着哪个动作"],
    "en": ["reference: who is it", "clue: what is said about it", "action: who does what",
           "grammar: which verb a little word belongs to"],
}


@dataclass
class HeadsResult:
    """Every head's weights and outputs for one sentence (n tokens, H = 4 heads)."""

    tokens: list[str]
    x: np.ndarray        # (n, d_model) the input of the heads: the toy's step-1 output
    weights: np.ndarray  # (H, n, n) each head's attention weights
    outs: np.ndarray     # (H, n, d_model) each head's output
    concat: np.ndarray   # (n, H * d_model) the outputs side by side

    def top(self, head: int, token: str) -> int:
        """Index of the token that ``token`` (first occurrence) attends to most in ``head``."""
        return int(np.argmax(self.weights[head, self.tokens.index(token)]))


def attend_heads(text_or_tokens, lang: str) -> HeadsResult:
    """Run the four heads on a sentence (see the module docstring)."""
    first = attend(text_or_tokens, lang, steps=1)
    x = first.x_next                                          # (n, d_model)
    weights, outs = [], []
    for w_q, w_k in HEADS.values():
        q = x @ w_q                                           # (n, d_model) @ (d_model, 2) -> (n, 2)
        k = x @ w_k                                           # (n, 2)
        out, w = scaled_dot_product_attention(q, k, x)        # (n, d_model), (n, n)
        weights.append(w)
        outs.append(out)
    outs = np.stack(outs)                                     # (H, n, d_model)
    concat = np.concatenate(list(outs), axis=-1)              # (n, H * d_model)
    return HeadsResult(tokens=first.tokens, x=x, weights=np.stack(weights), outs=outs, concat=concat)
