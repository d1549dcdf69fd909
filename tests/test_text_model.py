"""Chapter 12's tokenizers, decoding and text model (attnkit.bpe, attnkit.sampling, attnkit.realtext):
against brute force, their own invariants, and clear errors for bad input."""

from collections import Counter

import numpy as np
import pytest

from attnkit import bpe, realtext, sampling, tinygpt
from attnkit.sampling import Mulberry32, draw, next_distribution, top_k_filter, top_p_filter, with_temperature


# ---- BPE ------------------------------------------------------------------------------------

def _brute_force_bpe(text, vocab_size):
    """BPE the slow, obvious way: recount every pair of every chunk before each merge."""
    alphabet = sorted(set(text))
    words = [[alphabet.index(c) for c in chunk] for chunk in bpe.chunks(text)]
    tokens = list(alphabet)
    while len(tokens) < vocab_size:
        counts = Counter(p for w in words for p in zip(w, w[1:]))
        best = max(counts.values())
        pair = min(p for p, c in counts.items() if c == best)
        new = len(tokens)
        tokens.append(tokens[pair[0]] + tokens[pair[1]])
        words = [list(bpe.merge_pair(tuple(w), pair, new)) for w in words]
    return tokens


@pytest.mark.parametrize("text", ["the cat and the hat sat on the mat, the end.",
                                  "子曰：学而时习之，不亦说乎？子曰：君子不器。子曰：君子周而不比。"])
def test_train_bpe_equals_brute_force(text):
    size = len(set(text)) + 12
    assert list(bpe.train_bpe(text, size).tokens) == _brute_force_bpe(text, size)


@pytest.mark.slow
def test_bpe_round_trips_the_real_books_and_shortens_them():
    for lang in ("zh", "en"):
        text = realtext.corpus(lang)
        alphabet = len(bpe.char_vocab(text))
        model = bpe.train_bpe(text, alphabet + 100)
        ids = bpe.encode(text, model)
        assert bpe.decode(ids, model) == text
        assert len(ids) < len(text)
        assert max(ids) < model.vocab_size


def test_merges_are_nested_and_deterministic():
    text = realtext.corpus("en")[:20000]
    a = len(bpe.char_vocab(text))
    big, small = bpe.train_bpe(text, a + 60), bpe.train_bpe(text, a + 25)
    assert bpe.truncate(big, a + 25) == small
    assert bpe.train_bpe(text, a + 60) == big


def test_encode_applies_merges_in_learned_order():
    model = bpe.train_bpe("aaab aaab", 4)           # ' ' = 0, 'a' = 1, 'b' = 2, then 'aa' = 3
    assert bpe.encode("aaa", model) == [3, 1]
    assert bpe.encode_chars("ba", ["a", "b"]) == [1, 0]


@pytest.mark.parametrize("call, message", [
    (lambda: bpe.char_vocab(""), "empty"),
    (lambda: bpe.train_bpe("", 3), "empty"),
    (lambda: bpe.encode_chars("猫", ["a"]), "outside the vocabulary"),
    (lambda: bpe.encode("xyz", bpe.train_bpe("aab", 3)), "outside the vocabulary"),
    (lambda: bpe.train_bpe("abab", 9), "larger than this corpus allows"),
    (lambda: bpe.train_bpe("abc", 2), "smaller than the corpus"),
    (lambda: bpe.truncate(bpe.train_bpe("aab", 3), 5), "must be in"),
])
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.slow
def test_tokens_per_char_of_the_books_differ_by_language():
    zh, en = realtext.tokenization("zh"), realtext.tokenization("en")
    assert zh["sizes"][0][1] == en["sizes"][0][1] == 1.0
    assert zh["sizes"][-1][1] > 2 * en["sizes"][-1][1]           # Chinese gains far less from BPE
    assert [r for _, r in en["sizes"]] == sorted((r for _, r in en["sizes"]), reverse=True)
    assert zh["first_merges"][0][0] == "子曰"


# ---- decoding ------------------------------------------------------------------------------

def test_temperature_top_k_top_p_against_definitions():
    logits = np.array([2.0, 0.5, 1.0, -1.0, 1.0])
    p = with_temperature(logits, 1.0)
    np.testing.assert_allclose(p, np.exp(logits) / np.exp(logits).sum())
    np.testing.assert_allclose(with_temperature(logits, 0.5), np.exp(2 * logits) / np.exp(2 * logits).sum())
    k2 = top_k_filter(p, 2)                          # ties at 1.0: the smaller id (2) is kept
    assert np.flatnonzero(k2).tolist() == [0, 2] and k2.sum() == pytest.approx(1)
    for top_p in (0.05, 0.5, 0.8, 0.99, 1.0):
        kept = top_p_filter(p, top_p)
        order = np.argsort(-p, kind="stable")
        n = np.count_nonzero(kept)
        assert p[order[:n]].sum() >= top_p - 1e-12                   # reaches p
        assert n == 1 or p[order[:n - 1]].sum() < top_p - 1e-12     # with as few as possible
    assert next_distribution(logits, top_k=1).tolist() == [1.0, 0, 0, 0, 0]


def test_draw_follows_the_distribution():
    p = np.array([0.1, 0.6, 0.3])
    rng = Mulberry32(5)
    counts = np.bincount([draw(p, rng.random()) for _ in range(20000)], minlength=3) / 20000
    np.testing.assert_allclose(counts, p, atol=0.015)
    assert draw([0.0, 1.0, 0.0], 0.0) == 1 and draw([0.5, 0.5, 0.0], 0.999999) == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"temperature": 0}, "temperature"), ({"temperature": -1.0}, "temperature"),
    ({"temperature": float("nan")}, "temperature"), ({"top_k": 0}, "top_k"), ({"top_k": 1.5}, "top_k"),
    ({"top_p": 0.0}, "top_p"), ({"top_p": 1.01}, "top_p"), ({"top_p": -0.2}, "top_p"),
])
def test_bad_decoding_settings_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        next_distribution([1.0, 2.0], **kwargs)
    params = tinygpt.init(4, 8, 2, 1, 5, seed=0)
    with pytest.raises(ValueError, match=message):
        sampling.generate(params, [0, 1], 3, **kwargs)


def test_generate_is_reproducible_and_greedy_is_top_k_1():
    params = tinygpt.init(6, 8, 2, 1, 5, seed=1)
    a = sampling.generate(params, [0, 1], 8, temperature=1.3, seed=4)
    assert a == sampling.generate(params, [0, 1], 8, temperature=1.3, seed=4)
    greedy = tinygpt.generate(params, [0, 1], 8, temperature=0)[2:].tolist()
    assert sampling.generate(params, [0, 1], 8, top_k=1) == greedy


def test_mulberry32_known_values():
    # the first numbers of mulberry32(1), as JavaScript's reference implementation prints them
    rng = Mulberry32(1)
    assert [rng.random() for _ in range(3)] == [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]


# ---- the text model ------------------------------------------------------------------------

def test_trainer_is_deterministic_and_learns_a_pattern():
    text = "abcd" * 200
    p1, l1, _ = realtext.TextTrainer(text, steps=60, n_ctx=8, d_model=16, n_heads=2, n_layers=1,
                                     batch=8, lr=0.01).run()
    p2, l2, _ = realtext.TextTrainer(text, steps=60, n_ctx=8, d_model=16, n_heads=2, n_layers=1,
                                     batch=8, lr=0.01).run()
    assert l1 == l2
    assert l1[-1] < 0.2 * l1[0]


def test_trainer_stops_early_and_keeps_the_step_with_the_lowest_validation_loss():
    """The validation part is the tenth before the exam; the weights kept are those of the lowest
    validation loss; training stops after `patience` checks without a new lowest."""
    rng = np.random.default_rng(0)
    text = "".join(rng.choice(list("abcdefgh"), 3000))           # random letters: nothing to learn, soon overfit
    trainer = realtext.TextTrainer(text, steps=400, n_ctx=8, d_model=16, n_heads=2, n_layers=1, batch=8,
                                   lr=0.03, check_every=20, patience=3)
    params, losses, _ = trainer.run()
    steps, values = zip(*trainer.validation)
    assert steps[0] == 0 and all(b - a == 20 for a, b in zip(steps, steps[1:]))
    best = int(np.argmin(values))
    assert trainer.best_step == steps[best]
    assert len(losses) == steps[-1] < 400                      # it stopped early...
    assert len(steps) - 1 - best == 3                          # ...after 3 checks with nothing lower
    kept = realtext.TextTrainer(text, steps=400, n_ctx=8, d_model=16, n_heads=2, n_layers=1, batch=8,
                                lr=0.03, check_every=20, patience=3)
    kept.params = params
    assert kept.validation_loss() == pytest.approx(values[best])   # the weights returned are the best step's
    train, validation, exam = realtext.split(text)
    assert (len(train), len(validation), len(exam)) == (2400, 300, 300)


def test_trainer_refuses_a_text_too_short():
    with pytest.raises(ValueError, match="at least n_ctx"):
        realtext.TextTrainer("abc", n_ctx=8)
    with pytest.raises(ValueError, match="validation part has 5 characters"):
        realtext.TextTrainer("ab" * 25, n_ctx=8)


def test_previous_token_score_of_a_head_that_looks_one_back():
    params = tinygpt.init(5, 8, 2, 1, 6, seed=0)
    tokens = np.array([[0, 1, 2, 3, 4, 0]])
    w_k = params["h0.attn.w_k"]
    params["h0.attn.w_k"] = w_k * 0                         # all scores equal: uniform rows
    scores = realtext.previous_token_scores(params, tokens)     # (L, H)
    expected = np.mean([1 / (i + 1) for i in range(1, 6)])
    np.testing.assert_allclose(scores, expected)
