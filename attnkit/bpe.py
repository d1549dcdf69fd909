"""Turning text into token ids: characters, then byte-pair encoding (BPE), in plain Python.

A model reads ids, not letters. The simplest tokenizer gives every distinct character of a
corpus an id (:func:`char_vocab`, :func:`encode_chars`). Byte-pair encoding (Sennrich et al.
2016) starts from those characters and, again and again, glues the most frequent neighbouring
pair into one new token (:func:`train_bpe`):

    tokens = the corpus's characters
    repeat until the vocabulary has vocab_size tokens:
        count every neighbouring pair (a, b) in the corpus
        (a, b) = the most frequent pair (ties: the pair of smallest ids)
        new token a+b; replace every a, b in the corpus by it

The corpus is first cut into chunks (:func:`chunks`): a word with the space before it, one
punctuation mark, or one white-space character. Pairs never cross a chunk, as in GPT-2, so
" the" can become one token but "e." cannot. A Chinese run between punctuation marks is one
chunk (there are no spaces), so "子曰" can become one token.

    >>> bpe = train_bpe("low lower lowest", vocab_size=12)
    >>> bpe.tokens[len(bpe.alphabet):]                       # the merged tokens, in order
    ('lo', 'low', ' low', ' lowe')
    >>> ids = encode("lowest low", bpe)
    >>> [bpe.tokens[i] for i in ids], decode(ids, bpe)
    (['low', 'e', 's', 't', ' low'], 'lowest low')

Merges are nested: the first m merges of a vocabulary of size V are the merges of the smaller
vocabulary, so one training run gives every smaller size (:func:`truncate`).
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from dataclasses import dataclass

from ._checks import check_positive_int

__all__ = [
    "CHUNK",
    "chunks",
    "char_vocab",
    "encode_chars",
    "decode_chars",
    "BPE",
    "train_bpe",
    "truncate",
    "encode",
    "decode",
    "tokens_per_char",
    "pair_counts",
    "merge_pair",
]

CHUNK = re.compile(r" ?\w+|[^\w\s]|\s")
"""A word (letters, digits or Chinese characters) with the space before it, or one other character."""


def _check_text(name, text):
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError(f"{name} is empty: a tokenizer needs at least one character")
    return text


def chunks(text):
    """Cut ``text`` into the chunks BPE merges within; joined again they are ``text``.

    >>> chunks("Oh dear! 子曰：学而")
    ['Oh', ' dear', '!', ' 子曰', '：', '学而']
    """
    return CHUNK.findall(_check_text("text", text))


# --------------------------------------------------------------------------
# characters
# --------------------------------------------------------------------------

def char_vocab(text):
    """The distinct characters of ``text``, sorted: a character's id is its index.

    >>> char_vocab("abracadabra")
    ['a', 'b', 'c', 'd', 'r']
    """
    return sorted(set(_check_text("text", text)))


def encode_chars(text, vocab):
    """One id per character of ``text``: its index in ``vocab`` (a list of characters).

    >>> encode_chars("cab", ["a", "b", "c"])
    [2, 0, 1]
    >>> encode_chars("cat", ["a", "b", "c"])
    Traceback (most recent call last):
    ...
    ValueError: text has characters outside the vocabulary: 't' (the vocabulary has 3 characters)
    """
    _check_text("text", text)
    index = {ch: i for i, ch in enumerate(vocab)}
    unknown = sorted({ch for ch in text if ch not in index})
    if unknown:
        shown = " ".join(repr(ch) for ch in unknown[:10]) + (" ..." if len(unknown) > 10 else "")
        raise ValueError(f"text has characters outside the vocabulary: {shown} "
                         f"(the vocabulary has {len(vocab)} characters)")
    return [index[ch] for ch in text]


def decode_chars(ids, vocab):
    """The text of character ids: ``"".join(vocab[i] for i in ids)``.

    >>> decode_chars([2, 0, 1], ["a", "b", "c"])
    'cab'
    """
    return "".join(vocab[int(i)] for i in ids)


# --------------------------------------------------------------------------
# byte-pair encoding
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class BPE:
    """A trained BPE vocabulary.

    alphabet : the corpus's characters, sorted (ids 0 .. len(alphabet) - 1)
    merges   : [(a, b), ...] in the order they were learned; merge r makes id len(alphabet) + r
    tokens   : the text of every id (alphabet, then one token per merge)
    counts   : how often each merged pair occurred in the corpus when it was merged
    """
    alphabet: tuple
    merges: tuple
    tokens: tuple
    counts: tuple

    @property
    def vocab_size(self):
        return len(self.tokens)


def pair_counts(words):
    """How often each neighbouring pair of ids occurs: {(a, b): count}.

    words : {tuple of ids: how many times that chunk occurs}

    >>> pair_counts({(0, 1, 0, 1): 1, (0, 1): 2})
    {(0, 1): 4, (1, 0): 1}
    """
    counts = Counter()
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] += n
    return dict(counts)


def merge_pair(word, pair, new):
    """``word`` (tuple of ids) with every non-overlapping ``pair``, left to right, replaced by ``new``.

    >>> merge_pair((0, 0, 0, 1), (0, 0), 7)
    (7, 0, 1)
    """
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == pair[0] and word[i + 1] == pair[1]:
            out.append(new)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_bpe(text, vocab_size):
    """Learn BPE merges on ``text`` until the vocabulary has ``vocab_size`` tokens. Returns a :class:`BPE`.

    The most frequent pair is merged first; among pairs of equal count, the pair of smallest
    ids (a, then b). ValueError if ``vocab_size`` is smaller than the alphabet or larger than
    the corpus allows (no pair left to merge).

    >>> train_bpe("aaab", vocab_size=3).tokens
    ('a', 'b', 'aa')
    >>> train_bpe("ab", vocab_size=4)
    Traceback (most recent call last):
    ...
    ValueError: vocab_size = 4 is larger than this corpus allows: after 1 merges no pair of neighbouring tokens is left (the largest vocabulary is 3)
    """
    alphabet = char_vocab(text)
    vocab_size = check_positive_int("vocab_size", vocab_size)
    if vocab_size < len(alphabet):
        raise ValueError(f"vocab_size = {vocab_size} is smaller than the corpus's {len(alphabet)} "
                         f"distinct characters (every character needs an id)")
    index = {ch: i for i, ch in enumerate(alphabet)}
    words = Counter(tuple(index[ch] for ch in chunk) for chunk in chunks(text))
    tokens = list(alphabet)
    merges, counts = [], []
    # where each pair occurs: pair -> set of words; kept up to date merge by merge
    pairs = Counter()
    where = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            pairs[pair] += n
            where.setdefault(pair, set()).add(word)
    # a heap of (-count, pair): its top is the most frequent pair, ties the smallest; an entry
    # whose count is out of date is skipped when it comes up
    heap = [(-n, pair) for pair, n in pairs.items()]
    heapq.heapify(heap)
    while len(tokens) < vocab_size:
        while heap and (-heap[0][0] != pairs.get(heap[0][1], 0) or heap[0][0] == 0):
            heapq.heappop(heap)
        if not heap:
            raise ValueError(f"vocab_size = {vocab_size} is larger than this corpus allows: after "
                             f"{len(merges)} merges no pair of neighbouring tokens is left "
                             f"(the largest vocabulary is {len(tokens)})")
        best_n, pair = -heap[0][0], heap[0][1]
        new = len(tokens)
        tokens.append(tokens[pair[0]] + tokens[pair[1]])
        merges.append(pair)
        counts.append(best_n)
        changed = set()
        for word in list(where.get(pair, ())):
            n = words.pop(word, 0)
            if not n:
                continue
            merged = merge_pair(word, pair, new)
            for old in zip(word, word[1:]):
                pairs[old] -= n
                where[old].discard(word)
                changed.add(old)
            words[merged] += n
            for p in zip(merged, merged[1:]):
                pairs[p] += n
                where.setdefault(p, set()).add(merged)
                changed.add(p)
        pairs.pop(pair, None)
        where.pop(pair, None)
        for p in changed:
            if pairs.get(p, 0) > 0:
                heapq.heappush(heap, (-pairs[p], p))
    return BPE(tuple(alphabet), tuple(merges), tuple(tokens), tuple(counts))


def truncate(bpe, vocab_size):
    """The same BPE with only its first merges: the vocabulary of size ``vocab_size``.

    >>> truncate(train_bpe("low lower lowest", 12), 9).tokens[-1]
    'lo'
    """
    vocab_size = check_positive_int("vocab_size", vocab_size)
    if not len(bpe.alphabet) <= vocab_size <= bpe.vocab_size:
        raise ValueError(f"vocab_size must be in [{len(bpe.alphabet)}, {bpe.vocab_size}] for this BPE, "
                         f"got {vocab_size}")
    m = vocab_size - len(bpe.alphabet)
    return BPE(bpe.alphabet, bpe.merges[:m], bpe.tokens[:vocab_size], bpe.counts[:m])


def _encode_chunk(chunk, index, rank, merges):
    """One chunk's ids: its characters, then the earliest-learned merge that applies, again and again."""
    word = tuple(index[ch] for ch in chunk)
    while len(word) > 1:
        ranks = [rank[pair] for pair in zip(word, word[1:]) if pair in rank]
        if not ranks:
            break
        r = min(ranks)                                # the merge learned first
        word = merge_pair(word, merges[r], len(index) + r)
    return list(word)


def encode(text, bpe):
    """The ids of ``text`` under ``bpe``: each chunk's characters, then the learned merges
    applied in the order they were learned. ValueError for a character not in the alphabet.

    >>> bpe = train_bpe("aaab", vocab_size=3)
    >>> encode("aaaa", bpe)
    [2, 2]
    """
    encode_chars(text, bpe.alphabet)                  # raises for unknown characters
    index = {ch: i for i, ch in enumerate(bpe.alphabet)}
    rank = {pair: r for r, pair in enumerate(bpe.merges)}
    done = {}                                         # chunk -> ids (a corpus repeats its words)
    ids = []
    for chunk in chunks(text):
        if chunk not in done:
            done[chunk] = _encode_chunk(chunk, index, rank, bpe.merges)
        ids.extend(done[chunk])
    return ids


def decode(ids, bpe):
    """The text of BPE ids: their tokens joined.

    >>> decode([2, 1], train_bpe("aaab", vocab_size=3))
    'aab'
    """
    return "".join(bpe.tokens[int(i)] for i in ids)


def tokens_per_char(text, bpe=None):
    """How many tokens ``text`` becomes per character: 1.0 with characters, less with BPE.

    >>> tokens_per_char("aaaa", train_bpe("aaab", vocab_size=3))
    0.5
    """
    _check_text("text", text)
    if bpe is None:
        return 1.0
    return len(encode(text, bpe)) / len(text)
