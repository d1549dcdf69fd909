"""bookbuild/layout_hints.py: each top-level paragraph and heading gets an over-estimate of its
lines (the browser holds that height while it skips laying the block out); tests/test_pages.py
checks the estimates against the drawn pages."""

import doctest

from bookbuild import layout_hints


def test_docstring_examples():
    assert doctest.testmod(layout_hints).failed == 0


def test_only_top_level_text_blocks_get_a_hint():
    html = ('<p>a</p>\n<blockquote>\n<p>nested</p>\n</blockquote>\n<ul>\n<li><p>item</p></li>\n</ul>\n'
            '<p><img alt="x" src="f.svg"></p>\n<p style="color: red">styled</p>\n<h3 id="x">Title</h3>')
    out = layout_hints.hint(html)
    assert out.count("--cv:") == 2
    assert '<p style="--cv:2;--cvw:2">a</p>' in out and '<h3 id="x" style="--cv:2;--cvw:2">' in out
    assert "<p>nested</p>" in out and "<p>item</p>" in out and '<p><img alt="x" src="f.svg"></p>' in out


def test_a_long_paragraph_gets_more_lines_on_a_phone_and_a_formula_counts_its_tex():
    long = "注意力" * 60                       # 180 em of Han text: 10 phone lines, 5 wide ones
    phone, wide = layout_hints.lines(long, 1.0, "phone"), layout_hints.lines(long, 1.0, "wide")
    assert phone == 12 and wide == 6            # ceil(180 / 18 * 1.1) + 1, ceil(180 / 42.8 * 1.1) + 1
    math = ('<span class="arithmatex"><span class="katex"><span class="katex-mathml"><math><semantics><mi>x</mi>'
            '<annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math></span>'
            '<span class="katex-html" aria-hidden="true"><span class="mord">a</span></span></span></span>')
    assert layout_hints.text_em(math) == round(0.6 * len("\\frac{a}{b}"), 6)
    assert layout_hints.lines(math, 1.0, "phone") == 3   # one line and one spare, a quarter more for the formula
