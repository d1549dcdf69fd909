"""attnkit.story: the story layer of section 7.3."""

import numpy as np
import pytest

from attnkit import multi_head_attention, scaled_dot_product_attention, split_heads
from attnkit.layers import feed_forward, layer_norm
from attnkit.story import (D_HEAD, D_MODEL, FEATURES, N_HEADS, STORY, story, story_embed, story_table,
                           story_tokens, story_weights)

SHE = {"zh": ("她", "小红", "小明", "饿", "递", "苹果"),
       "en": ("she", "mary", "tom", "hungry", "handed", "apple")}


def test_story_tokens_and_errors():
    assert story_tokens(STORY["zh"], "zh") == ["小明", "把", "苹果", "递", "给", "小红", "因为", "她", "饿", "了"]
    assert len(story_tokens(STORY["en"], "en")) == 10
    with pytest.raises(ValueError, match="not a word of the story lexicon"):
        story_tokens("小猫饿了", "zh")
    with pytest.raises(ValueError, match="not a word of the story lexicon"):
        story_tokens("The cat was hungry", "en")
    with pytest.raises(ValueError, match="lang must be"):
        story("fr")
    with pytest.raises(ValueError, match="strength must be a finite number"):
        story_weights(float("inf"))


def test_embedding_plus_position_keeps_both_readable():
    e, pe = story_embed(story_tokens(STORY["zh"], "zh"), "zh")
    assert e.shape == pe.shape == (10, D_MODEL)
    assert not e[:, len(FEATURES):].any() and not pe[:, :len(FEATURES)].any()
    assert set(np.unique(e)) <= {0.0, 1.0}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_story_layer_matches_its_definition(lang):
    s = story(lang)
    w = story_weights()
    out, weights = multi_head_attention(s.x, w["w_q"], w["w_k"], w["w_v"], w["w_o"], N_HEADS)
    assert np.allclose(s.attn, out) and np.allclose(s.weights, weights)
    # every head by hand: its own columns of Q, K, V, then concat @ W_O
    q, k, v = (split_heads(s.x @ w[m], N_HEADS) for m in ("w_q", "w_k", "w_v"))
    heads = [scaled_dot_product_attention(q[h], k[h], v[h])[0] for h in range(N_HEADS)]
    assert np.allclose(np.concatenate(heads, axis=-1) @ w["w_o"], s.attn)
    assert np.allclose(s.scores, q @ np.swapaxes(k, -1, -2))
    assert np.allclose(s.weights.sum(-1), 1)
    assert np.allclose(s.h, layer_norm(s.x + s.attn))
    assert np.allclose(s.y, layer_norm(s.h + feed_forward(s.h, w["w_1"], w["b_1"], w["w_2"], w["b_2"])))
    assert q.shape == (N_HEADS, 10, D_HEAD)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_story_tells_what_the_chapter_says(lang):
    she, mary, tom, hungry, handed, apple = SHE[lang]
    s = story(lang)
    assert s.top(she, 0) == mary and s.weight(she, mary) > 0.8 > 0.1 > s.weight(she, tom)
    assert s.top(she, 1) == hungry
    assert s.top(handed, 2) == apple
    assert np.allclose(s.row(she, 2), 1 / 10)            # nothing to ask in head 2: even shares
    assert s.eaters() == [she]                            # the FFN unit fires on the pronoun only
    assert s.feature("y", she, "eater") == max(s.y[:, FEATURES.index("eater")])


def test_both_languages_compute_the_same_numbers():
    zh, en = story("zh"), story("en")
    assert np.isclose(zh.weight("她", "小红"), en.weight("she", "mary"))
    assert np.isclose(zh.hidden[zh.index("她"), 0], en.hidden[en.index("she"), 0])


def test_the_toy_heads_are_blind_to_position():
    """Swapping the names leaves the weight of 她 on 小红 unchanged: the heads never read PE."""
    swapped = story("zh", text="小红把苹果递给小明，因为她饿了。")
    assert np.isclose(swapped.weight("她", "小红"), story("zh").weight("她", "小红"))


def test_stronger_queries_sharpen_the_weights():
    shares = [story("en", strength=s).weight("she", "mary") for s in (1, 2, 5, 10)]
    assert shares == sorted(shares)


def test_story_table_checks_shape():
    with pytest.raises(ValueError, match="rows must have shape"):
        story_table(np.zeros((2, 3)), ["a", "b"], ["x", "y"])


def test_story_table_checks_its_labels():
    with pytest.raises(ValueError, match="tokens and columns must be lists of strings, got int and list"):
        story_table(np.eye(2), 2, ["a", "b"])
    with pytest.raises(ValueError, match="rows contains NaN or infinity"):
        story_table([[np.nan]], ["a"], ["b"])
