"""One HTML tag pattern for the build (bookbuild/html_tags.py): every module that walks a page's
tags reads a ``>`` inside a quoted attribute value as part of the value, not as the tag's end
(four patterns disagreed on it before)."""

from bookbuild import a11y, glossary, html_tags, print_only

QUOTED = '<p title="a > b" data-x=\'c > d\'>'


def test_the_pattern_reads_a_quoted_gt_as_part_of_the_attribute():
    m = html_tags.TAG.match(QUOTED)
    assert (m["closing"], m["name"], m["attrs"], m["selfclosing"]) == ("", "p", ' title="a > b" data-x=\'c > d\'', "")
    texts = [text for text, tag, _ in html_tags.regions(f"x{QUOTED}y</p>", lambda name, attrs: False) if tag is None]
    assert [text for text in texts if text] == ["x", "y"]


def test_every_module_walking_tags_uses_it():
    for module in (a11y, glossary, print_only):
        source = open(module.__file__, encoding="utf-8").read()
        assert "from .html_tags import" in source and "re.compile(r\"<!--" not in source, module.__name__


def test_print_only_images_inside_a_tag_with_a_quoted_gt():
    html = '<div class="print-only" title="x > y"><p><img src="a.svg"></p></div><p><img src="b.svg"></p>'
    assert print_only.lazy_print_only_images(html) == html.replace('<img src="a.svg">', '<img loading="lazy" src="a.svg">')


def test_a11y_marks_the_other_language_after_a_quoted_gt():
    out = a11y.language_of_parts(f'{QUOTED}论文 Attention Is All You Need 提出了</p>', "zh")
    assert out.startswith(QUOTED) and '<span lang="en">Attention Is All You Need</span>' in out
