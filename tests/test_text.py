"""attnkit.text: display-width padding for the tables listings print."""

import pytest

from attnkit.text import pad, width


def test_width_counts_han_as_two_columns():
    assert width("小猫") == 4
    assert width("it") == 2
    assert width("（对照）") == 8        # full-width brackets are wide too


@pytest.mark.parametrize("align", ["<", ">", "^"])
def test_pad_reaches_the_display_width(align):
    for s in ["损失", "loss", "第 1 轮", "x"]:
        assert width(pad(s, 10, align)) == 10


def test_pad_leaves_wide_text_alone():
    assert pad("完全相同的起点", 4) == "完全相同的起点"


def test_pad_rejects_an_unknown_alignment():
    with pytest.raises(ValueError, match="align must be"):
        pad("x", 4, "left")
