"""Cross-attention on a toy question: the queries come from one sentence, keys and values from another.

    passage (the memory):  小明 住在 北京 ， 小红 住在 上海      Tom lives in Paris , Mary lives in Rome
    question (the queries): 小红 住在 哪里                        where does Mary live

Every word is a vector over a few named ``FEATURES``. The passage vectors stand for what an
encoder hands the decoder: we write them by hand as if the encoder had already done its work,
so each city already carries a trace of the person who lives there (``0.7`` of that name).
Likewise the question word 哪里 / where carries a trace of the person it is about, as a decoder's
own self-attention would have put there. The matrices are rules a reader can check:

    W_q  a word asks for what it is: a name asks for the same name, "lives" for "lives",
         and a question word asks for a place
    W_k  a word offers what it is (the identity)
    W_v, W_o  the identity: the output is the weighted mix of the passage vectors

The weights come out of :func:`attnkit.core.multi_head_attention` with ``memory=`` (one head).

    >>> ex = qa_example("zh")
    >>> ex.weights.shape                     # (question words, passage words)
    (3, 7)
    >>> ex.top("哪里")
    '上海'
    >>> qa_example("en").top("where")
    'Rome'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import multi_head_attention

__all__ = ["FEATURES", "FEATURE_NAMES", "STRENGTH", "PASSAGE", "QUESTION", "QAExample", "qa_weights",
           "qa_example", "vectors"]

FEATURES = ["person", "place", "name-a", "name-b", "lives", "asks-place"]
FEATURE_NAMES = {
    "zh": ["人", "地点", "小明", "小红", "住", "问地点"],
    "en": ["person", "place", "Tom", "Mary", "lives", "asks a place"],
}
STRENGTH = 8.0          # how hard a query asks: scales W_q
TRACE = 0.7             # how much of a person a city (or the question word) carries

_A, _B = "name-a", "name-b"
_WORDS = {
    "zh": {"小明": {"person": 1, _A: 1}, "小红": {"person": 1, _B: 1}, "住在": {"lives": 1},
           "北京": {"place": 1, _A: TRACE}, "上海": {"place": 1, _B: TRACE}, "，": {},
           "哪里": {"asks-place": 1, _B: TRACE}},
    "en": {"Tom": {"person": 1, _A: 1}, "Mary": {"person": 1, _B: 1}, "lives": {"lives": 1},
           "live": {"lives": 1}, "in": {}, "Paris": {"place": 1, _A: TRACE},
           "Rome": {"place": 1, _B: TRACE}, ",": {}, "does": {},
           "where": {"asks-place": 1, _B: TRACE}},
}
PASSAGE = {"zh": ["小明", "住在", "北京", "，", "小红", "住在", "上海"],
           "en": ["Tom", "lives", "in", "Paris", ",", "Mary", "lives", "in", "Rome"]}
QUESTION = {"zh": ["小红", "住在", "哪里"], "en": ["where", "does", "Mary", "live"]}


def vectors(tokens, lang):
    """The hand-written vectors (n, d_model) of known words."""
    x = np.zeros((len(tokens), len(FEATURES)))                  # (n, d_model)
    for i, t in enumerate(tokens):
        for feature, value in _WORDS[lang][t].items():
            x[i, FEATURES.index(feature)] = value
    return x


def qa_weights(strength=STRENGTH):
    """The hand-written ``w_q, w_k, w_v, w_o`` (d_model, d_model) of the toy (see the module text)."""
    d = len(FEATURES)
    f = FEATURES.index
    w_q = np.zeros((d, d))
    for same in ("person", _A, _B, "lives"):
        w_q[f(same), f(same)] = strength                         # ask for the same feature
    w_q[f("asks-place"), f("place")] = strength                  # a question word asks for a place
    w_k = np.eye(d)                                              # offer what you are
    return w_q, w_k, np.eye(d), np.eye(d)


@dataclass
class QAExample:
    """The question, the passage, and what cross-attention did with them."""
    lang: str
    question: list            # the n query words
    passage: list             # the n_kv memory words
    x: np.ndarray             # (n, d_model) question vectors
    memory: np.ndarray        # (n_kv, d_model) passage vectors
    weights: np.ndarray       # (n, n_kv) each question word's shares of the passage
    out: np.ndarray           # (n, d_model) what each question word took

    def row(self, word):
        return self.weights[self.question.index(word)]

    def top(self, word):
        """The passage word that ``word`` gives the largest share."""
        return self.passage[int(np.argmax(self.row(word)))]

    def share(self, word, target):
        """The share question word ``word`` gives passage word ``target`` (all its occurrences)."""
        return float(sum(w for t, w in zip(self.passage, self.row(word)) if t == target))


def qa_example(lang="zh", strength=STRENGTH, passage=None):
    """Run one head of cross-attention: Q from the question, K and V from the passage.

    ``passage`` (a list of known words) replaces the default passage, e.g. to reorder it.
    """
    if lang not in PASSAGE:
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    passage = list(PASSAGE[lang] if passage is None else passage)
    unknown = [t for t in passage if t not in _WORDS[lang]]
    if unknown:
        raise ValueError(f"unknown passage words {unknown}; known: {sorted(_WORDS[lang])}")
    question = QUESTION[lang]
    x, memory = vectors(question, lang), vectors(passage, lang)    # (n, d), (n_kv, d)
    out, weights = multi_head_attention(x, *qa_weights(strength), n_heads=1, memory=memory)
    return QAExample(lang, question, passage, x, memory, weights[0], out)
