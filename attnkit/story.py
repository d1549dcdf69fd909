"""Chapter 7's story: one whole Transformer encoder layer on one sentence, every weight explained.

    小明把苹果递给小红，因为她饿了。  /  Tom handed the apple to Mary because she was hungry.

The layer is the one of "Attention Is All You Need" (post-norm), built from
:mod:`attnkit.core`'s attention and :mod:`attnkit.layers`' layer norm, feed-forward and residual:

    x  = E[token] + PE[position]                     (n, d_model)
    h  = layer_norm(x + MultiHead(x))                 attention, residual, layer norm
    y  = layer_norm(h + FFN(h))                       feed-forward, residual, layer norm

Nothing here is learned. Every word is a vector over a few named ``FEATURES`` (first 8 of the
d_model = 12 columns); the last 4 columns hold the sinusoidal positional encoding, so the sum
``E + PE`` can be read column by column. The three heads and the FFN are rules written by
hand (``STRENGTH`` is how hard a query asks), so a reader can see *why* 她 looks at 小红:
because her query asks for "a person" and "female", and 小红's key says both. A trained model
finds its own rules; this one only shows the arithmetic.

    >>> s = story("zh")
    >>> s.tokens
    ['小明', '把', '苹果', '递', '给', '小红', '因为', '她', '饿', '了']
    >>> s.x.shape, s.weights.shape, s.y.shape
    ((10, 12), (3, 10, 10), (10, 12))
    >>> s.top("她", head=0), s.top("她", head=1), s.top("递", head=2)
    ('小红', '饿', '苹果')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_float_array, check_lang
from .core import multi_head_attention, sinusoidal_positional_encoding, split_heads
from .layers import feed_forward, layer_norm, relu, residual
from .text import pad, width

__all__ = [
    "FEATURES",
    "FEATURE_NAMES",
    "D_POS",
    "D_MODEL",
    "N_HEADS",
    "D_HEAD",
    "HEAD_NAMES",
    "STRENGTH",
    "STORY",
    "STORY_LEXICON",
    "story_tokens",
    "story_embed",
    "story_weights",
    "Story",
    "story",
    "story_table",
]

# --------------------------------------------------------------------------
# the story model: features, lexicon, positions
# --------------------------------------------------------------------------

FEATURES: list[str] = [
    "person",   # a person's name: 小明, 小红, Tom, Mary
    "female",   # 小红, 她, Mary, she
    "male",     # 小明, Tom
    "food",     # 苹果, apple
    "pronoun",  # 她, she
    "hungry",   # 饿, hungry: a state that only someone alive can be in
    "action",   # 递, handed
    "eater",    # empty in every word; the FFN writes here "this one will eat"
]
FEATURE_NAMES: dict[str, list[str]] = {
    "zh": ["人", "女", "男", "食物", "代词", "饿", "动作", "吃的人"],
    "en": ["person", "female", "male", "food", "pronoun", "hungry", "action", "eater"],
}
D_POS = 4                          # columns for the positional encoding
D_MODEL = len(FEATURES) + D_POS    # 12
N_HEADS = 3
D_HEAD = D_MODEL // N_HEADS        # 4 query/key/value slots per head
STRENGTH = 5.0                     # how hard a query asks (one entry of W_Q)
HEAD_NAMES: dict[str, list[str]] = {
    "zh": ["指代：她是谁", "原因：为什么", "动作：递了什么"],
    "en": ["who: the referent", "why: the clue", "what: the object"],
}

STORY: dict[str, str] = {
    "zh": "小明把苹果递给小红，因为她饿了。",
    "en": "Tom handed the apple to Mary because she was hungry.",
}

# Each word lists its features; a word listed with () is a grammar word: all zeros.
STORY_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {"小明": ("person", "male"), "把": (), "苹果": ("food",), "递": ("action",), "给": (),
           "小红": ("person", "female"), "因为": (), "她": ("pronoun", "female"),
           "饿": ("hungry",), "了": ()},
    "en": {"tom": ("person", "male"), "handed": ("action",), "the": (), "apple": ("food",),
           "to": (), "mary": ("person", "female"), "because": (), "she": ("pronoun", "female"),
           "was": (), "hungry": ("hungry",)},
}


def story_tokens(text: str, lang: str) -> list[str]:
    """Split ``text`` into words of ``STORY_LEXICON[lang]`` (longest match; punctuation dropped).

    >>> story_tokens("她饿了", "zh")
    ['她', '饿', '了']
    >>> story_tokens("She was hungry.", "en")
    ['she', 'was', 'hungry']
    """
    lexicon = STORY_LEXICON[check_lang(lang)]
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    if lang == "en":
        words = [w.strip(".,;:!?").lower() for w in text.split()]
        words = [w for w in words if w]
    else:
        words, i = [], 0
        longest = max(len(w) for w in lexicon)
        while i < len(text):
            for size in range(min(longest, len(text) - i), 0, -1):
                if text[i:i + size] in lexicon:
                    words.append(text[i:i + size])
                    i += size
                    break
            else:
                if text[i] not in "，。、！？ ":
                    raise ValueError(f"{text[i]!r} is not a word of the story lexicon")
                i += 1
    unknown = [w for w in words if w not in lexicon]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a word of the story lexicon; "
                         f"known: {', '.join(lexicon)}")
    if not words:
        raise ValueError(f"text has no words (got {text!r})")
    return words


def story_embed(tokens: list[str], lang: str) -> tuple[np.ndarray, np.ndarray]:
    """The word embeddings E (n, d_model) and positional encodings PE (n, d_model) of ``tokens``.

    E is 1 on each word's features (first 8 columns), PE is the sinusoidal encoding in the
    last ``D_POS`` columns, so ``E + PE`` keeps both readable.

    >>> e, pe = story_embed(["她", "饿"], "zh")
    >>> e[0, :8], pe[1, 8:].round(3)
    (array([0., 1., 0., 0., 1., 0., 0., 0.]), array([0.841, 0.54 , 0.01 , 1.   ]))
    """
    lexicon = STORY_LEXICON[check_lang(lang)]
    e = np.zeros((len(tokens), D_MODEL))                          # (n, d_model)
    for i, token in enumerate(tokens):
        if token not in lexicon:
            raise ValueError(f"{token!r} is not a word of the story lexicon")
        for feature in lexicon[token]:
            e[i, FEATURES.index(feature)] = 1.0
    pe = np.zeros_like(e)
    pe[:, len(FEATURES):] = sinusoidal_positional_encoding(len(tokens), D_POS)  # (n, D_POS)
    return e, pe


# --------------------------------------------------------------------------
# the weights, written as rules
# --------------------------------------------------------------------------

SLOTS = ["a", "b", "c", "d"]   # the D_HEAD = 4 slots of each head


def _rules(rules: dict[tuple[str, int, int], float], rows: int, cols: int, row_names) -> np.ndarray:
    w = np.zeros((rows, cols))
    for (row, head, slot), value in rules.items():
        w[row_names.index(row), head * D_HEAD + slot] = value
    return w


def story_weights(strength: float = STRENGTH) -> dict[str, np.ndarray]:
    """Every matrix of the layer: W_Q, W_K, W_V, W_O (d_model, d_model) and the FFN.

    Head 0, "who": a pronoun asks for a person, a female word asks for a female word;
    its value carries "person" and "male". Head 1, "why": a pronoun asks for a state word
    (饿 / hungry) and takes its "hungry" (with weight 2). Head 2, "what": an action asks for food (the thing
    handed) and takes "food". W_O writes each value slot back to the feature it came from.
    The FFN has one hidden unit, "eater": it adds up "person", "pronoun" and "hungry" of the
    normalised row, minus 2.5, and fires only on a pronoun that has taken in a person and a
    hunger; it writes four times its value into the feature "eater".

    >>> w = story_weights()
    >>> w["w_q"].shape, w["w_1"].shape, w["w_2"].shape
    ((12, 12), (12, 1), (1, 12))
    """
    if not isinstance(strength, (int, float)) or isinstance(strength, bool) or not np.isfinite(strength):
        raise ValueError(f"strength must be a finite number, got {strength!r}")
    rows = FEATURES + [f"pe{i}" for i in range(D_POS)]
    s = float(strength)
    w_q = _rules({("pronoun", 0, 0): s, ("female", 0, 1): s,      # who: a person? female?
                  ("pronoun", 1, 0): s,                            # why: what state am I in?
                  ("action", 2, 0): s}, D_MODEL, D_MODEL, rows)    # what: which thing?
    w_k = _rules({("person", 0, 0): 1.0, ("female", 0, 1): 1.0,
                  ("hungry", 1, 0): 1.0,
                  ("food", 2, 0): 1.0}, D_MODEL, D_MODEL, rows)
    w_v = _rules({("person", 0, 0): 1.0, ("male", 0, 1): 1.0,     # who: a person, male or not
                  ("hungry", 1, 0): 2.0,                           # why: the state, said loudly

                  ("food", 2, 0): 1.0}, D_MODEL, D_MODEL, rows)
    # W_O: value slot (head, slot) -> the feature it carries. Rows are the concatenated slots.
    w_o = np.zeros((D_MODEL, D_MODEL))
    for head, slot, feature in [(0, 0, "person"), (0, 1, "male"),
                                (1, 0, "hungry"), (2, 0, "food")]:
        w_o[head * D_HEAD + slot, FEATURES.index(feature)] = 1.0
    # FFN: hidden "eater" = relu(person + pronoun + hungry - 2.5) on the normalised row,
    # i.e. "a pronoun that has taken in a person and a hunger"; output -> feature "eater".
    w_1 = np.zeros((D_MODEL, 1))
    for feature in ("person", "pronoun", "hungry"):
        w_1[FEATURES.index(feature), 0] = 1.0
    b_1 = np.array([-2.5])
    w_2 = np.zeros((1, D_MODEL))
    w_2[0, FEATURES.index("eater")] = 4.0
    b_2 = np.zeros(D_MODEL)
    return {"w_q": w_q, "w_k": w_k, "w_v": w_v, "w_o": w_o,
            "w_1": w_1, "b_1": b_1, "w_2": w_2, "b_2": b_2}


# --------------------------------------------------------------------------
# the layer
# --------------------------------------------------------------------------


@dataclass
class Story:
    """Every intermediate of the layer on one sentence (n tokens, d_model = 12, 3 heads)."""

    tokens: list[str]
    lang: str
    e: np.ndarray          # (n, d_model) word embeddings
    pe: np.ndarray         # (n, d_model) positional encodings
    x: np.ndarray          # (n, d_model) e + pe
    q: np.ndarray          # (n_heads, n, d_head)
    k: np.ndarray          # (n_heads, n, d_head)
    scores: np.ndarray     # (n_heads, n, n) q @ k.T
    weights: np.ndarray    # (n_heads, n, n) softmax(scores / sqrt(d_head))
    attn: np.ndarray       # (n, d_model) MultiHead(x)
    h: np.ndarray          # (n, d_model) layer_norm(x + attn)
    pre: np.ndarray        # (n, d_ff) h W_1 + b_1, before the relu
    hidden: np.ndarray     # (n, d_ff) relu(pre)
    ffn: np.ndarray        # (n, d_model) FFN(h)
    y: np.ndarray          # (n, d_model) layer_norm(h + ffn)

    def index(self, token: str) -> int:
        if token not in self.tokens:
            raise ValueError(f"{token!r} is not a token of {self.tokens}")
        return self.tokens.index(token)

    def row(self, token: str, head: int = 0) -> np.ndarray:
        """The attention weights of ``token`` in ``head``, (n,)."""
        return self.weights[head, self.index(token)]

    def top(self, token: str, head: int = 0) -> str:
        return self.tokens[int(np.argmax(self.row(token, head)))]

    def weight(self, token: str, target: str, head: int = 0) -> float:
        return float(self.row(token, head)[self.index(target)])

    def feature(self, stage: str, token: str, feature: str) -> float:
        """One entry: ``getattr(self, stage)[token, feature]``, e.g. ("y", "她", "eater")."""
        return float(getattr(self, stage)[self.index(token), FEATURES.index(feature)])

    def eaters(self) -> list[str]:
        """The tokens whose FFN unit "eater" fired."""
        return [t for t, v in zip(self.tokens, self.hidden[:, 0]) if v > 0]


def story(lang: str = "zh", text: str | None = None, strength: float = STRENGTH) -> Story:
    """Run the story sentence (or ``text`` made of story words) through the layer.

    >>> s = story("en")
    >>> round(s.weight("she", "mary"), 3), round(s.weight("she", "tom"), 3)
    (0.826, 0.068)
    >>> s.eaters()
    ['she']
    """
    lang = check_lang(lang)
    tokens = story_tokens(STORY[lang] if text is None else text, lang)
    w = story_weights(strength)
    e, pe = story_embed(tokens, lang)
    x = e + pe                                                    # (n, d_model)
    attn, weights = multi_head_attention(x, w["w_q"], w["w_k"], w["w_v"], w["w_o"], N_HEADS)
    q = split_heads(x @ w["w_q"], N_HEADS)                        # (n_heads, n, d_head)
    k = split_heads(x @ w["w_k"], N_HEADS)                        # (n_heads, n, d_head)
    scores = q @ np.swapaxes(k, -1, -2)                           # (n_heads, n, n)
    h = layer_norm(residual(x, attn))                             # (n, d_model)
    pre = h @ w["w_1"] + w["b_1"]                                 # (n, d_model) @ (d_model, d_ff)
    hidden = relu(pre)                                            # (n, d_ff)
    ffn = feed_forward(h, w["w_1"], w["b_1"], w["w_2"], w["b_2"])  # (n, d_model)
    y = layer_norm(residual(h, ffn))                              # (n, d_model)
    return Story(tokens=tokens, lang=lang, e=e, pe=pe, x=x, q=q, k=k, scores=scores,
                 weights=weights, attn=attn, h=h, pre=pre, hidden=hidden, ffn=ffn, y=y)


def story_table(rows: np.ndarray, tokens: list[str], columns: list[str], digits: int = 2) -> str:
    """A (n, m) array as a text table: one line per token, one column per name.

    >>> print(story_table(np.eye(2), ["她", "饿"], ["a", "b"], 1))
             a     b
    她     1.0   0.0
    饿     0.0   1.0
    """
    if not (isinstance(tokens, (list, tuple)) and isinstance(columns, (list, tuple))
            and all(isinstance(t, str) for t in [*tokens, *columns])):
        raise ValueError(f"tokens and columns must be lists of strings, got "
                         f"{type(tokens).__name__} and {type(columns).__name__}")
    rows = np.atleast_2d(as_float_array("rows", rows))
    if rows.shape != (len(tokens), len(columns)):
        raise ValueError(f"rows must have shape ({len(tokens)}, {len(columns)}), got {rows.shape}")
    label = max(width(t) for t in tokens) + 2
    cell = max(max(width(c) for c in columns), digits + 4) + 1
    lines = [" " * label + "".join(pad(c, cell, ">") for c in columns)]
    for token, values in zip(tokens, rows):
        lines.append(pad(token, label) + "".join(pad(f"{v:.{digits}f}", cell, ">") for v in values))
    return "\n".join(line.rstrip() for line in lines)

