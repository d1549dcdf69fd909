"""attnkit.toy_heads: four heads on the toy model, and the tour's bilingual examples."""

import numpy as np
import pytest

from attnkit import scaled_dot_product_attention, toy
from attnkit.toy_heads import HEAD_NAMES, HEADS, TOUR_SENTENCES, attend_heads, tour_sentence, tour_weight


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_head_finds_its_relation(lang):
    text = TOUR_SENTENCES["cat-ball-fun"].text[lang]
    r = attend_heads(text, lang)
    it = "它" if lang == "zh" else "it"
    ball, fun = ("球", "好玩") if lang == "zh" else ("ball", "shiny")
    chased = "追着" if lang == "zh" else "chased"
    kitten = "小猫" if lang == "zh" else "kitten"
    assert r.tokens[r.top(0, it)] == ball                       # reference
    assert r.tokens[r.top(1, it)] == fun                        # clue
    row = r.weights[2, r.tokens.index(chased)]                  # action: the verb's participants
    assert row[r.tokens.index(kitten)] == pytest.approx(row[r.tokens.index(ball)]) and row[r.tokens.index(ball)] > 0.4
    because = "因为" if lang == "zh" else "because"
    assert toy.LEXICON[lang][r.tokens[r.top(3, because)]] == ("action",)   # grammar
    assert len(HEAD_NAMES[lang]) == len(HEADS) == 4


def test_heads_are_attention_on_the_step_one_output_and_concatenate():
    r = attend_heads("小猫追着球跑，因为它很好玩。", "zh")
    x = toy.attend("小猫追着球跑，因为它很好玩。", "zh", steps=1).x_next
    for h, (w_q, w_k) in enumerate(HEADS.values()):
        out, w = scaled_dot_product_attention(x @ w_q, x @ w_k, x)
        np.testing.assert_allclose(r.weights[h], w)
        np.testing.assert_allclose(r.outs[h], out)
    np.testing.assert_allclose(r.concat, np.concatenate(list(r.outs), axis=-1))
    np.testing.assert_allclose(r.weights.sum(-1), 1.0)
    assert r.concat.shape == (len(r.tokens), 4 * len(toy.FEATURES))


@pytest.mark.parametrize("sid", sorted(TOUR_SENTENCES))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tour_sentences_resolve_as_the_tour_says(sid, lang):
    r, i, step = tour_sentence(sid, lang)
    expected = {
        "cat-ball-fun": {"zh": ["球"], "en": ["ball"]},
        "cat-ball-hungry": {"zh": ["小猫"], "en": ["kitten"]},
        "apple-fruit": {"zh": ["水果摊", "甜", "脆"], "en": ["fruit", "sweet", "crisp"]},
        "apple-launch": {"zh": ["发布会", "手机"], "en": ["phone", "launch", "event"]},
    }[sid][lang]
    assert all(r.known), f"{sid} ({lang}) has words the toy does not know: {r.tokens}"
    row = r.row(r.tokens[i], step)
    assert set(np.array(r.tokens)[row >= row.max() - 1e-12]) == set(expected)
    assert sum(tour_weight(sid, lang, t) for t in expected) > 0.8


def test_tour_sentence_rejects_unknown_ids():
    with pytest.raises(ValueError, match="unknown tour sentence"):
        tour_sentence("nope", "zh")
