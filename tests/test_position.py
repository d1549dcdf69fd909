"""attnkit.position: permutation equivariance, the shift matrix, RoPE and section 4.3's heads."""

import numpy as np
import pytest

from attnkit import sinusoidal_positional_encoding
from attnkit.position import (counting_encoding, order_demo, order_heads, pe_similarity, rope, rope_scores,
                              shift_error, shift_matrix)


def test_order_blind_without_positions_and_not_with_them():
    d = order_demo()
    assert d.same_rows and not d.same_rows_with_position and d.gap_with_position > 0.1


@pytest.mark.parametrize("k", [-7, -1, 0, 1, 3, 40])
def test_shift_matrix_moves_every_position_and_is_a_rotation(k):
    assert shift_error(k, 16, 60) < 1e-12
    m = shift_matrix(k, 16)
    assert np.allclose(m @ m.T, np.eye(16))
    assert np.allclose(shift_matrix(k, 16) @ shift_matrix(-k, 16), np.eye(16))


def test_pe_similarity_depends_only_on_offset():
    s = pe_similarity(30, 32)
    for k in range(-5, 6):
        diag = np.diagonal(s, offset=k)
        assert np.allclose(diag, diag[0])
    pe = sinusoidal_positional_encoding(30, 32)
    assert np.allclose(np.linalg.norm(pe, axis=1), np.sqrt(16))


def test_rope_scores_depend_only_on_offset_and_keep_lengths():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 8))
    assert rope_scores(q, k, 5, 2) == pytest.approx(rope_scores(q, k, 105, 102), rel=1e-10)
    x = rng.normal(size=(6, 8))
    assert np.allclose(np.linalg.norm(rope(x), axis=1), np.linalg.norm(x, axis=1))
    with pytest.raises(ValueError, match="even"):
        rope(np.ones((2, 3)))


def test_counting_grows_without_bound():
    assert counting_encoding(500)[-1, 0] == 500


@pytest.mark.parametrize("lang,a,b,verb", [("zh", "小猫", "小狗", "追着"), ("en", "cat", "dog", "chased")])
def test_order_heads_read_who_chased_whom(lang, a, b, verb):
    for first, second in ((a, b), (b, a)):
        tokens = [first, verb, second] if lang == "zh" else ["the", first, verb, "the", second]
        r = order_heads(tokens, lang)
        assert (r.top(0, verb), r.top(1, verb)) == (first, second)
        blind = order_heads(tokens, lang, use_position=False).weights[0, tokens.index(verb)]
        assert blind[tokens.index(first)] == pytest.approx(blind[tokens.index(second)])
