"""attnkit.qa: the toy question of chapter 9 is real cross-attention."""

import numpy as np
import pytest

from attnkit.core import scaled_dot_product_attention
from attnkit.qa import FEATURE_NAMES, FEATURES, PASSAGE, QUESTION, qa_weights, qa_example


@pytest.mark.parametrize("lang, where, city, other", [("zh", "哪里", "上海", "北京"),
                                                      ("en", "where", "Rome", "Paris")])
def test_question_word_finds_the_city_of_the_person_asked_about(lang, where, city, other):
    ex = qa_example(lang)
    assert ex.weights.shape == (len(QUESTION[lang]), len(PASSAGE[lang]))
    np.testing.assert_allclose(ex.weights.sum(-1), 1.0, rtol=0, atol=1e-14)
    assert ex.top(where) == city and ex.share(where, city) > 0.7 > 0.2 > ex.share(where, other)
    # what it took is mostly a place
    assert np.argmax(ex.out[ex.question.index(where)]) == FEATURES.index("place")


def test_equals_single_head_attention_by_hand():
    ex = qa_example("en")
    w_q, w_k, w_v, _ = qa_weights(8.0)
    _, w = scaled_dot_product_attention(ex.x @ w_q, ex.memory @ w_k, ex.memory @ w_v)
    np.testing.assert_allclose(ex.weights, w, rtol=0, atol=1e-14)


def test_order_of_the_passage_does_not_matter():
    ex = qa_example("zh")
    flipped = qa_example("zh", passage=PASSAGE["zh"][::-1])
    np.testing.assert_allclose(flipped.weights, ex.weights[:, ::-1], rtol=0, atol=1e-14)


def test_names_and_bad_input():
    assert all(len(v) == len(FEATURES) for v in FEATURE_NAMES.values())
    with pytest.raises(ValueError, match="lang must be 'zh' or 'en'"):
        qa_example("fr")
    with pytest.raises(ValueError, match=r"unknown passage words \['Lyon'\]"):
        qa_example("en", passage=["Tom", "Lyon"])
