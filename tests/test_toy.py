"""The toy model resolves its example sentences the right way, by honest attention arithmetic."""

import numpy as np
import pytest

from attnkit import scaled_dot_product_attention, softmax, toy


@pytest.mark.parametrize("key", sorted(toy.SENTENCES))
def test_example_resolves_the_right_way(key):
    example = toy.SENTENCES[key]
    r = toy.attend(example.text, example.lang)
    row = r.row(example.focus, example.step)
    assert r.top(example.focus, example.step) in example.expect
    assert r.share(example.focus, example.expect, example.step) > 0.75
    # every single expected word beats every other word
    others = [w for t, w in zip(r.tokens, row) if t not in example.expect]
    best_expected = max(w for t, w in zip(r.tokens, row) if t in example.expect)
    assert best_expected > 3 * max(others)


@pytest.mark.parametrize("pair", [("cat-ball-hungry", "cat-ball-fun"),
                                  ("animal-street-tired", "animal-street-wide"),
                                  ("apple-fruit-zh", "apple-launch-zh"),
                                  ("apple-fruit-en", "apple-launch-en")])
def test_pairs_differ(pair):
    a, b = (toy.SENTENCES[k] for k in pair)
    ra, rb = toy.attend(a.text, a.lang), toy.attend(b.text, b.lang)
    assert ra.top(a.focus, a.step) != rb.top(b.focus, b.step)


def test_one_step_cannot_tell_the_pair_apart():
    """Step 1 alone: the pronoun's scores for the two nouns are equal in both sentences."""
    for key in ("cat-ball-hungry", "cat-ball-fun"):
        r = toy.attend(toy.SENTENCES[key].text, "zh", steps=1)
        row = r.row("它", step=1)
        assert row[r.index("小猫")] == pytest.approx(row[r.index("球")])


def test_rows_sum_to_one():
    for example in toy.SENTENCES.values():
        r = toy.attend(example.text, example.lang)
        for step in r.steps:
            np.testing.assert_allclose(step.weights.sum(axis=-1), 1.0)
            assert (step.weights >= 0).all()


def test_equals_manual_computation():
    r = toy.attend(toy.SENTENCES["animal-street-tired"].text, "en")
    x = toy.embed(r.tokens, "en")
    np.testing.assert_array_equal(r.x, x)
    h = x
    for number, step in zip((1, 2), r.steps):
        w_q, w_k, w_v = toy.STEPS[number]
        q, k, v = h @ w_q, h @ w_k, h @ w_v
        scores = q @ k.T
        weights = softmax(scores / np.sqrt(q.shape[-1]))
        np.testing.assert_allclose(step.q, q)
        np.testing.assert_allclose(step.scores, scores)
        np.testing.assert_allclose(step.scaled, scores / np.sqrt(2))
        np.testing.assert_allclose(step.weights, weights)
        np.testing.assert_allclose(step.out, weights @ v)
        out, w = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(step.out, out)
        h = h + weights @ v
        np.testing.assert_allclose(step.x_next, h)
    # the last step's arrays are the result's own
    np.testing.assert_array_equal(r.weights, r.steps[1].weights)
    np.testing.assert_array_equal(r.out, r.steps[1].out)


def test_matrices_have_the_documented_shapes():
    d = len(toy.FEATURES)
    for number, (w_q, w_k, w_v) in toy.STEPS.items():
        assert w_q.shape == w_k.shape == (d, len(toy.STEP_SLOTS[number]))
        assert w_v.shape == (d, d)
    assert all(len(names) == d for names in toy.FEATURE_NAMES.values())


def test_lexicon_uses_only_known_features():
    for lang, lexicon in toy.LEXICON.items():
        for word, features in lexicon.items():
            assert set(features) <= set(toy.FEATURES), (lang, word)
            assert toy.tokenize(word, lang) == [word.lower()], (lang, word)


class TestTokenize:
    def test_chinese_longest_match(self):
        assert toy.tokenize("水果摊上的苹果又甜又脆。", "zh") == ["水果摊", "上", "的", "苹果", "又", "甜", "又", "脆"]

    def test_english_words_and_punctuation(self):
        assert toy.tokenize("  The animal didn’t   cross, the street. ", "en") == [
            "the", "animal", "didn't", "cross", "the", "street"]

    @pytest.mark.parametrize("text", ["", "   ", "，。！", "...", "\u200d"])
    def test_empty_raises(self, text):
        with pytest.raises(ValueError, match="no words"):
            toy.tokenize(text, "zh")

    def test_emoji_is_one_unknown_token(self):
        tokens = toy.tokenize("它🐱了", "zh")
        assert tokens == ["它", "🐱", "了"]
        r = toy.attend(tokens, "zh")
        assert r.known == [True, False, True]
        assert not r.x[1].any()

    def test_emoji_with_joiner_and_variation_selector(self):
        # ZWJ and variation selectors are dropped; each visible code point is its own token
        assert toy.tokenize("❤️👩\u200d👩 cat", "en") == ["❤", "👩", "👩", "cat"]

    def test_unknown_words_embed_as_zero(self):
        r = toy.attend("The zebra was tired", "en")
        assert r.known == [True, False, True, True]
        assert not r.x[1].any()
        np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0)

    def test_mixed_latin_in_chinese(self):
        assert toy.tokenize("它是GPT4", "zh") == ["它", "是", "GPT4"]

    def test_too_long_raises(self):
        with pytest.raises(ValueError, match=f"at most {toy.MAX_TOKENS}"):
            toy.tokenize("猫" * (toy.MAX_TOKENS + 1), "zh")
        assert len(toy.tokenize("猫" * toy.MAX_TOKENS, "zh")) == toy.MAX_TOKENS

    @pytest.mark.parametrize("lang", ["fr", None, "ZH"])
    def test_bad_lang(self, lang):
        with pytest.raises(ValueError, match="lang must be"):
            toy.tokenize("cat", lang)

    def test_not_a_string(self):
        with pytest.raises(ValueError, match="must be a string"):
            toy.tokenize(["cat"], "en")

    def test_embed_needs_a_list(self):
        with pytest.raises(ValueError, match="non-empty list"):
            toy.embed([], "en")
        with pytest.raises(ValueError, match="non-empty list"):
            toy.embed("cat", "en")


def test_attend_bad_steps():
    with pytest.raises(ValueError, match="steps must be 1 or 2"):
        toy.attend("cat", "en", steps=3)


def test_unknown_focus_token():
    r = toy.attend("the cat", "en")
    with pytest.raises(ValueError, match="is not a token"):
        r.row("dog")


def test_matrix_table_labels_rows_in_the_page_language():
    text = toy.matrix_table(toy.W_Q1, toy.STEP_SLOTS[1], "zh")
    assert "代词" in text and "6.0" in text
    with pytest.raises(ValueError):
        toy.matrix_table(np.ones((3, 2)), ["a", "b"])


@pytest.mark.parametrize("x, w, message", [
    (np.array([]), np.ones((2, 2)), r"x must have at least 2 dimensions \(n, d_model\), got shape \(0,\)"),
    (np.array([[np.nan, 1.0]]), np.ones((2, 2)), "x contains NaN or infinity"),
    (np.ones((3, 2)), np.ones((4, 2)), r"w_q must have shape \(d_model, d\) with d_model = 2 rows .*got shape \(4, 2\)"),
])
def test_attention_step_bad_input(x, w, message):
    from attnkit.toy import attention_step
    with pytest.raises(ValueError, match=message):
        attention_step(x, w, w, w)
