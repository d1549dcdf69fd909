"""attnkit.toy_heads: four heads on the toy model, and the tour's bilingual examples."""

import re

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


# The tour promises that its main text needs no maths: one symbol, \(\sqrt{d_k}\), said in words
# where it appears; every other formula sits in a fold "for the curious" (indented under ???).
TOUR_MAIN_MATH = {r"\sqrt{d_k}", "d_k", "d_k = 64"}


def tour_main_math(markdown: str) -> set[str]:
    """The inline and display formulas of a page's main text: lines not indented into a fold."""
    main = "\n".join(line for line in markdown.splitlines() if not line.startswith("    "))
    return {m.strip() for m in re.findall(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", main, flags=re.S) for m in m if m}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tour_keeps_its_promise_of_no_maths(lang):
    from book import DOCS
    text = (DOCS / lang / "tour.md").read_text(encoding="utf-8")
    assert tour_main_math(text) <= TOUR_MAIN_MATH, tour_main_math(text) - TOUR_MAIN_MATH
    assert ("给好奇的你" if lang == "zh" else "For the curious") in text


def test_tour_main_math_sees_formulas_outside_folds():
    page = "Text \\(e^{s}\\) here.\n\n??? note \"x\"\n    Fold \\(\\sin(p)\\).\n"
    assert tour_main_math(page) == {"e^{s}"}
