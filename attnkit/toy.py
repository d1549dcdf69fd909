"""The book's toy attention model: a few named features, a small lexicon, two attention steps.

Every word is a vector over ``FEATURES``, a handful of dimensions a reader can name
("animate", "thing", "pronoun", ...). The projection matrices are written by hand, one rule
per entry ("a pronoun asks for a clue word"), so a reader can see *why* a query matches a key.
The weights themselves always come out of :func:`attnkit.scaled_dot_product_attention`.

Why two steps. In one attention step the query of 它 is computed from 它 alone, so it is the
same in "小猫追着球跑，因为它饿了" and "…因为它很好玩": its scores for 小猫 and 球 cannot
depend on 饿了 or 好玩. So the toy runs two steps, each a full attention step with its own
matrices, and adds each step's output to its input (a residual connection):

    step 1, "find the clue":     x1 = x  + Attention(x  W_Q1, x  W_K1, x  W_V1)
    step 2, "find the referent": x2 = x1 + Attention(x1 W_Q2, x1 W_K2, x1 W_V2)

In step 1 a pronoun asks for a *clue word* (饿了/tired need something alive, 好玩/wide need a
thing) and copies the clue's need into itself; an ambiguous word (苹果/apple) asks for *topic
words* (food, tech) and copies the topic. In step 2 a word that now carries a need asks for a
noun of that kind: "needs something alive" -> "animate" key; "needs a thing" -> "thing" key.

Shapes: ``n`` tokens, ``d_model = len(FEATURES)``, ``d_k = 2`` in both steps.

    >>> r = attend("小猫追着球跑，因为它饿了", "zh")
    >>> r.tokens
    ['小猫', '追着', '球', '跑', '因为', '它', '饿了']
    >>> r.x.shape, r.weights.shape
    ((7, 10), (7, 7))
    >>> r.top("它")
    '小猫'
    >>> attend("小猫追着球跑，因为它很好玩", "zh").top("它")
    '球'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, check_lang
from .core import scaled_dot_product_attention
from .text import pad, width

__all__ = [
    "FEATURES",
    "FEATURE_NAMES",
    "LEXICON",
    "STRENGTH",
    "MAX_TOKENS",
    "STEP_SLOTS",
    "SLOT_NAMES",
    "W_Q1", "W_K1", "W_V1", "W_Q2", "W_K2", "W_V2",
    "STEPS",
    "make_steps",
    "SENTENCES",
    "Example",
    "Step",
    "Result",
    "tokenize",
    "is_known",
    "embed",
    "attention_step",
    "attend",
    "run",
    "focus_weight",
    "focus_row",
    "matrix_table",
    "LIBRARY",
    "library",
]

# --------------------------------------------------------------------------
# the features (the columns of every embedding)
# --------------------------------------------------------------------------

FEATURES: list[str] = [
    "animate",        # a living thing: 小猫, animal
    "thing",          # an object or a place: 球, street, 手机
    "pronoun",        # 它, it
    "needs_animate",  # a clue that only fits something alive: 饿了, tired
    "needs_thing",    # a clue that only fits a thing: 好玩, wide, shiny, 新
    "food",           # a food topic word: 水果摊, 甜, sweet
    "tech",           # a technology topic word: 发布会, 手机, phone
    "ambiguous",      # a word with two senses: 苹果 / apple (fruit or company)
    "action",         # a verb: 追着, cross
    "function",       # a grammar word: 因为, the, because
]

FEATURE_NAMES: dict[str, list[str]] = {
    "zh": ["有生命", "物品", "代词", "要活物", "要物品", "食物", "科技", "多义", "动作", "虚词"],
    "en": ["animate", "thing", "pronoun", "needs alive", "needs thing", "food", "tech",
           "ambiguous", "action", "function"],
}

# Each word lists the features it has; each listed feature is 1, every other one is 0.
# A word not in the lexicon gets the all-zero vector (it matches nothing and asks for nothing).
LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "小猫": ("animate",), "猫": ("animate",), "小狗": ("animate",), "狗": ("animate",),
        "动物": ("animate",),
        "球": ("thing",), "街道": ("thing",), "马路": ("thing",), "手机": ("thing", "tech"),
        "水果摊": ("thing", "food"),
        "苹果": ("thing", "ambiguous"),
        "它": ("pronoun",),
        "饿了": ("needs_animate",), "饿": ("needs_animate",), "累了": ("needs_animate",),
        "累": ("needs_animate",),
        "好玩": ("needs_thing",), "宽": ("needs_thing",), "新": ("needs_thing",),
        "甜": ("food",), "脆": ("food",), "水果": ("food",),
        "发布会": ("tech",),
        "追着": ("action",), "追": ("action",), "跑": ("action",), "穿过": ("action",),
        "发布了": ("action",), "发布": ("action",),
        "因为": ("function",), "很": ("function",), "太": ("function",), "了": ("function",),
        "的": ("function",), "上": ("function",), "又": ("function",), "没有": ("function",),
        "在": ("function",),
    },
    "en": {
        "animal": ("animate",), "cat": ("animate",), "kitten": ("animate",), "dog": ("animate",),
        "ball": ("thing",), "street": ("thing",), "road": ("thing",), "stall": ("thing",),
        "phone": ("thing", "tech"),
        "apple": ("thing", "ambiguous"),
        "it": ("pronoun",),
        "tired": ("needs_animate",), "hungry": ("needs_animate",),
        "wide": ("needs_thing",), "fun": ("needs_thing",), "new": ("needs_thing",),
        "shiny": ("needs_thing",),
        "fruit": ("food",), "sweet": ("food",), "crisp": ("food",),
        "launch": ("tech",), "event": ("tech",),
        "cross": ("action",), "chased": ("action",), "ran": ("action",), "showed": ("action",),
        "the": ("function",), "a": ("function",), "didn't": ("function",), "was": ("function",),
        "too": ("function",), "because": ("function",), "at": ("function",), "and": ("function",),
        "very": ("function",),
    },
}

STRENGTH = 6.0   # how hard a query asks: one entry of W_Q; larger -> sharper weights
MAX_TOKENS = 40  # longer inputs are refused: the toy lexicon is for short sentences

# --------------------------------------------------------------------------
# the projection matrices, written as rules
# --------------------------------------------------------------------------

# The d_k = 2 columns ("slots") of the queries and keys in each step.
STEP_SLOTS: dict[int, list[str]] = {1: ["clue", "topic"], 2: ["animate", "thing"]}
# ... as a reader of each language sees them (figures, listings).
SLOT_NAMES: dict[str, dict[int, list[str]]] = {
    "zh": {1: ["线索", "话题"], 2: ["有生命", "物品"]},
    "en": {1: ["clue", "topic"], 2: ["animate", "thing"]},
}


def _matrix(rules: dict[tuple[str, str], float], columns: list[str]) -> np.ndarray:
    """A (d_model, len(columns)) matrix, zero except ``rules[(feature, column)]``."""
    w = np.zeros((len(FEATURES), len(columns)))
    for (feature, column), value in rules.items():
        w[FEATURES.index(feature), columns.index(column)] = value
    return w


def make_steps(strength: float = 6.0) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The matrices ``{1: (W_Q1, W_K1, W_V1), 2: (W_Q2, W_K2, W_V2)}`` for a query ``strength``.

    ``strength`` is the one number in the rules that is not 0 or 1: how hard a query asks.

    >>> make_steps(2.0)[1][0][FEATURES.index("pronoun")]
    array([2., 0.])
    """
    if not isinstance(strength, (int, float)) or isinstance(strength, bool) or not np.isfinite(strength):
        raise ValueError(f"strength must be a finite number, got {strength!r}")
    # Step 1, "find the clue": a pronoun asks for a clue word, an ambiguous word for a topic word.
    w_q1 = _matrix({("pronoun", "clue"): strength, ("ambiguous", "topic"): strength}, STEP_SLOTS[1])
    w_k1 = _matrix({("needs_animate", "clue"): 1.0, ("needs_thing", "clue"): 1.0,
                    ("food", "topic"): 1.0, ("tech", "topic"): 1.0}, STEP_SLOTS[1])
    # ... and copies what the clue says: its need, or its topic (nothing else).
    w_v1 = _matrix({(f, f): 1.0 for f in ("needs_animate", "needs_thing", "food", "tech")}, FEATURES)
    # Step 2, "find the referent": a word carrying a need asks for a noun that meets it.
    w_q2 = _matrix({("needs_animate", "animate"): strength, ("needs_thing", "thing"): strength},
                   STEP_SLOTS[2])
    w_k2 = _matrix({("animate", "animate"): 1.0, ("thing", "thing"): 1.0}, STEP_SLOTS[2])
    # ... and takes in the whole meaning of the noun it found.
    w_v2 = np.eye(len(FEATURES))
    return {1: (w_q1, w_k1, w_v1), 2: (w_q2, w_k2, w_v2)}


STEPS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = make_steps(STRENGTH)
(W_Q1, W_K1, W_V1), (W_Q2, W_K2, W_V2) = STEPS[1], STEPS[2]

# --------------------------------------------------------------------------
# example sentences
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """A named sentence: where to look (``focus`` in ``step``) and which words should win."""

    text: str
    lang: str
    focus: str
    step: int
    expect: tuple[str, ...]


SENTENCES: dict[str, Example] = {
    "cat-ball-hungry": Example("小猫追着球跑，因为它饿了。", "zh", "它", 2, ("小猫",)),
    "cat-ball-fun": Example("小猫追着球跑，因为它很好玩。", "zh", "它", 2, ("球",)),
    "kitten-ball-hungry": Example(
        "The kitten chased the ball because it was hungry.", "en", "it", 2, ("kitten",)),
    "kitten-ball-shiny": Example(
        "The kitten chased the ball because it was shiny.", "en", "it", 2, ("ball",)),
    "animal-street-tired": Example(
        "The animal didn't cross the street because it was too tired.", "en", "it", 2, ("animal",)),
    "animal-street-wide": Example(
        "The animal didn't cross the street because it was too wide.", "en", "it", 2, ("street",)),
    "apple-fruit-zh": Example("水果摊上的苹果又甜又脆。", "zh", "苹果", 1, ("水果摊", "甜", "脆")),
    "apple-launch-zh": Example("苹果发布会上发布了新手机。", "zh", "苹果", 1, ("发布会", "手机")),
    "apple-fruit-en": Example(
        "The apple at the fruit stall was sweet and crisp.", "en", "apple", 1, ("fruit", "sweet", "crisp")),
    "apple-launch-en": Example(
        "Apple showed a new phone at the launch event.", "en", "apple", 1, ("phone", "launch", "event")),
}

# --------------------------------------------------------------------------
# tokenize and embed
# --------------------------------------------------------------------------

_LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*")


def _skipped(ch: str) -> bool:
    """Whitespace, punctuation, combining marks and invisible format characters (e.g. ZWJ)."""
    return ch.isspace() or unicodedata.category(ch)[0] in "PZ" or unicodedata.category(ch) in (
        "Mn", "Me", "Cf", "Cc")


def tokenize(text, lang: str) -> list[str]:
    """Split ``text`` into the toy's tokens.

    Chinese (``lang="zh"``): the longest lexicon word starting at each position; a run of
    Latin letters or digits is one token; any other character is a token of its own.
    English (``lang="en"``): runs of letters and digits (with apostrophes, e.g. ``didn't``),
    lower-cased; any other character is a token of its own.
    In both, whitespace and punctuation are dropped. Characters that are not in the lexicon
    (an emoji, a rare character) become unknown tokens: see :func:`is_known`.

    Raises ValueError if ``text`` is not a string, has no tokens, or has more than
    ``MAX_TOKENS`` tokens.

    >>> tokenize("小猫追着球跑，因为它很好玩。", "zh")
    ['小猫', '追着', '球', '跑', '因为', '它', '很', '好玩']
    >>> tokenize("The animal didn't cross!", "en")
    ['the', 'animal', "didn't", 'cross']
    >>> tokenize("它🐱", "zh")
    ['它', '🐱']
    >>> tokenize(" ，。", "zh")
    Traceback (most recent call last):
    ...
    ValueError: text has no words to attend over (got ' ，。'): it is empty or only spaces and punctuation
    """
    lang = check_lang(lang)
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    lexicon = LEXICON[lang]
    longest = max(len(word) for word in lexicon)
    tokens, i = [], 0
    while i < len(text):
        if _skipped(text[i]):
            i += 1
            continue
        latin = _LATIN_WORD.match(text, i)
        if latin:
            token = latin.group().replace("’", "'")
            tokens.append(token.lower() if lang == "en" else token)
            i = latin.end()
            continue
        match = text[i]
        if lang == "zh":
            for size in range(min(longest, len(text) - i), 1, -1):
                if text[i:i + size] in lexicon:
                    match = text[i:i + size]
                    break
        tokens.append(match)
        i += len(match)
    if not tokens:
        raise ValueError(
            f"text has no words to attend over (got {text!r}): "
            "it is empty or only spaces and punctuation")
    if len(tokens) > MAX_TOKENS:
        raise ValueError(
            f"text has {len(tokens)} tokens; the toy model takes at most {MAX_TOKENS} "
            "(it is made for one short sentence)")
    return tokens


def is_known(token: str, lang: str) -> bool:
    """True if ``token`` is in the lexicon of ``lang`` (else it embeds as all zeros).

    >>> is_known("小猫", "zh"), is_known("🐱", "zh")
    (True, False)
    """
    return token in LEXICON[check_lang(lang)]


def embed(tokens: list[str], lang: str) -> np.ndarray:
    """The embeddings of ``tokens``: one row per token, one column per feature.

    Returns an array of shape (n, d_model) with d_model = len(FEATURES); an unknown token's
    row is all zeros.

    >>> embed(["它", "饿了"], "zh")
    array([[0., 0., 1., 0., 0., 0., 0., 0., 0., 0.],
           [0., 0., 0., 1., 0., 0., 0., 0., 0., 0.]])
    """
    lexicon = LEXICON[check_lang(lang)]
    if isinstance(tokens, str) or not len(tokens):
        raise ValueError("tokens must be a non-empty list of strings; use tokenize(text, lang) first")
    x = np.zeros((len(tokens), len(FEATURES)))             # (n, d_model)
    for i, token in enumerate(tokens):
        for feature in lexicon.get(token, ()):
            x[i, FEATURES.index(feature)] = 1.0
    return x


# --------------------------------------------------------------------------
# attention
# --------------------------------------------------------------------------


@dataclass
class Step:
    """Every intermediate of one attention step (shapes for n tokens)."""

    x: np.ndarray        # (n, d_model) input
    q: np.ndarray        # (n, d_k)  x @ W_Q
    k: np.ndarray        # (n, d_k)  x @ W_K
    v: np.ndarray        # (n, d_model)  x @ W_V
    scores: np.ndarray   # (n, n)   q @ k.T
    scaled: np.ndarray   # (n, n)   scores / sqrt(d_k)
    weights: np.ndarray  # (n, n)   softmax(scaled), each row sums to 1
    out: np.ndarray      # (n, d_model)  weights @ v
    x_next: np.ndarray   # (n, d_model)  x + out (the residual connection)


def attention_step(x, w_q, w_k, w_v) -> Step:
    """One attention step on ``x`` (n, d_model), keeping every intermediate.

    >>> s = attention_step(embed(["它", "饿了"], "zh"), W_Q1, W_K1, W_V1)
    >>> s.weights.round(3)
    array([[0.014, 0.986],
           [0.5  , 0.5  ]])
    """
    x = as_float_array("x", x, min_ndim=2, layout="(n, d_model)")
    if x.ndim != 2:
        raise ValueError(f"x must have shape (n, d_model), got shape {x.shape}")
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        w = as_float_array(name, w, min_ndim=2, layout="(d_model, d)")
        if w.ndim != 2 or w.shape[0] != x.shape[1]:
            raise ValueError(f"{name} must have shape (d_model, d) with d_model = {x.shape[1]} rows "
                             f"(one per column of x), got shape {w.shape}")
    q = x @ w_q                                  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
    k = x @ w_k                                  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
    v = x @ w_v                                  # (n, d_model) @ (d_model, d_v) -> (n, d_v)
    d_k = q.shape[-1]
    scores = q @ k.T                             # (n, d_k) @ (d_k, n) -> (n, n)
    scaled = scores / np.sqrt(d_k)               # (n, n)
    out, weights = scaled_dot_product_attention(q, k, v)   # (n, d_v), (n, n)
    return Step(x=x, q=q, k=k, v=v, scores=scores, scaled=scaled, weights=weights,
                out=out, x_next=x + out)


@dataclass
class Result:
    """What :func:`attend` returns. ``q``, ``k``, ``v``, ``scores``, ``scaled``, ``weights``
    and ``out`` are those of the last step; ``steps[0]`` and ``steps[1]`` hold each step."""

    tokens: list[str]
    lang: str
    known: list[bool]
    x: np.ndarray          # (n, d_model) the embeddings
    steps: list[Step]

    def __getattr__(self, name):
        if name in ("q", "k", "v", "scores", "scaled", "weights", "out", "x_next"):
            return getattr(self.steps[-1], name)
        raise AttributeError(name)

    def index(self, token: str) -> int:
        """Position of the first occurrence of ``token``."""
        if token not in self.tokens:
            raise ValueError(f"{token!r} is not a token of {self.tokens}")
        return self.tokens.index(token)

    def row(self, token: str, step: int = 2) -> np.ndarray:
        """The attention weights of ``token`` (its first occurrence) in ``step`` (1 or 2), (n,)."""
        return self.steps[step - 1].weights[self.index(token)]

    def top(self, token: str, step: int = 2) -> str:
        """The token that ``token`` gives the most weight in ``step``."""
        return self.tokens[int(np.argmax(self.row(token, step)))]

    def share(self, token: str, targets, step: int = 2) -> float:
        """Total weight ``token`` gives the tokens in ``targets`` in ``step``."""
        row = self.row(token, step)
        return float(sum(w for t, w in zip(self.tokens, row) if t in targets))


def attend(text_or_tokens, lang: str, steps: int = 2, strength: float | None = None) -> Result:
    """Run the toy model: tokenize (if given text), embed, then ``steps`` attention steps (1 or 2).

    ``strength`` (default ``STRENGTH``) rebuilds the matrices with another query strength.

    >>> r = attend("The animal didn't cross the street because it was too wide.", "en")
    >>> r.top("it"), round(r.share("it", ["street"]), 2)
    ('street', 0.8)
    >>> round(r.share("it", ["wide"], step=1), 2)
    0.87
    """
    lang = check_lang(lang)
    if steps not in (1, 2):
        raise ValueError(f"steps must be 1 or 2, got {steps!r}")
    tokens = tokenize(text_or_tokens, lang) if isinstance(text_or_tokens, str) else list(text_or_tokens)
    matrices = STEPS if strength is None else make_steps(strength)
    x = embed(tokens, lang)                           # (n, d_model)
    done, h = [], x
    for number in range(1, steps + 1):
        step = attention_step(h, *matrices[number])
        done.append(step)
        h = step.x_next                               # (n, d_model)
    return Result(tokens=tokens, lang=lang, known=[is_known(t, lang) for t in tokens],
                  x=x, steps=done)


def run(key: str, steps: int = 2, strength: float | None = None) -> Result:
    """:func:`attend` on the named example ``SENTENCES[key]``.

    >>> run("cat-ball-fun").tokens[-1]
    '好玩'
    """
    if key not in SENTENCES:
        raise ValueError(f"unknown example {key!r}; known: {', '.join(sorted(SENTENCES))}")
    example = SENTENCES[key]
    return attend(example.text, example.lang, steps=steps, strength=strength)


def focus_weight(key: str, target: str, step: int | None = None, strength: float | None = None) -> float:
    """The weight the focus word of example ``key`` gives ``target`` (default: the example's step).

    >>> round(focus_weight("cat-ball-hungry", "小猫"), 3)
    0.892
    >>> round(focus_weight("cat-ball-hungry", "饿了", step=1), 3)
    0.921
    """
    r = run(key, strength=strength)               # raises a clear ValueError for an unknown key
    example = SENTENCES[key]
    return r.share(example.focus, [target], step or example.step)


def focus_row(key: str, what: str = "weights", step: int | None = None) -> np.ndarray:
    """The focus word's row of one intermediate of example ``key``.

    ``what`` is a field of :class:`Step` (``"q"``, ``"k"``, ``"v"``, ``"scores"``, ``"scaled"``,
    ``"weights"``, ``"out"``, ``"x"``, ``"x_next"``); ``step`` defaults to the example's step.

    >>> focus_row("animal-street-tired", "q", step=1)
    array([6., 0.])
    """
    r = run(key)
    example = SENTENCES[key]
    if what not in Step.__dataclass_fields__:
        raise ValueError(f"what must be one of {', '.join(Step.__dataclass_fields__)}, got {what!r}")
    return getattr(r.steps[(step or example.step) - 1], what)[r.index(example.focus)]


def matrix_table(w: np.ndarray, columns: list[str], lang: str = "en",
                 only_nonzero: bool = True) -> str:
    """A projection matrix as text: one line per feature (row), one column per slot.

    Rows are labelled with ``FEATURE_NAMES[lang]``; all-zero rows are left out unless
    ``only_nonzero`` is False.

    >>> print(matrix_table(W_K2, STEP_SLOTS[2]))
               animate  thing
    animate        1.0    0.0
    thing          0.0    1.0
    """
    names = FEATURE_NAMES[check_lang(lang)] if w.shape[0] == len(FEATURES) else None
    if names is None:
        raise ValueError(f"w must have one row per feature ({len(FEATURES)}), got shape {w.shape}")
    rows = [(names[i], w[i]) for i in range(w.shape[0]) if not only_nonzero or w[i].any()]
    label = max(width(n) for n, _ in rows) + 2
    cells = [max(width(c), 5) + 2 for c in columns]
    lines = [" " * label + "".join(pad(c, w, ">") for c, w in zip(columns, cells))]
    for name, values in rows:
        lines.append(pad(name, label) + "".join(f"{v:>{w}.1f}" for w, v in zip(cells, values)))
    return "\n".join(line.rstrip() for line in lines)


# --------------------------------------------------------------------------
# the library metaphor of section 2.3, in numbers
# --------------------------------------------------------------------------

# Three books; every vector is (cats, dinosaurs, stars). Keys are the labels on the spines,
# values the (made-up) contents, the query the reader's question.
LIBRARY: dict[str, np.ndarray | dict[str, list[str]]] = {
    "books": {"zh": ["家猫养护", "恐龙图鉴", "星空指南"],
              "en": ["Cats at home", "Dinosaur atlas", "Star guide"]},   # titles per language
    "keys": np.array([[2.0, 0.0, 0.0],
                      [0.0, 2.0, 0.0],
                      [0.0, 0.0, 2.0]]),           # (3 books, 3)
    "values": np.array([[9.0, 1.0, 0.0],
                        [0.0, 8.0, 2.0],
                        [1.0, 0.0, 9.0]]),         # (3 books, 3)
    "query": np.array([[2.0, 0.5, 0.0]]),          # (1, 3): mostly cats, a little dinosaurs
}


def library(query=None):
    """Ask the three-book library ``query`` (1, 3); returns ``(answer (1, 3), weights (1, 3))``.

    >>> answer, weights = library()
    >>> weights.round(3)
    array([[0.784, 0.139, 0.078]])
    """
    query = LIBRARY["query"] if query is None else query
    return scaled_dot_product_attention(query, LIBRARY["keys"], LIBRARY["values"])
