"""The end of a build is cached by content and gives what the uncached computation gives: the
site-wide scans of bookbuild/trim_and_minify.py (Material's stylesheet trimmed to the site's classes) and
bookbuild/katex_math.py (KaTeX's fonts cut to the formulas' characters) remember what each page
and script contributes, so a rebuild after a one-sentence edit scans the edited page and the print
page, not all of them. A cache keyed by less than the text it scans would keep a class or a glyph
that a page no longer has (or drop one it gained): each test edits one file and compares with a
computation from an empty cache. Fast: no build, no browser.
"""

from __future__ import annotations

import random
import re
import sys

import pytest

from book import ROOT
from importlib import import_module

lean = import_module("bookbuild.trim_and_minify")
katex_math = import_module("bookbuild.katex_math")
bookcache = sys.modules[lean.Store.__module__]   # the one the hooks import (their Store, their CACHE)


def test_key_parts_of_different_types_or_splits_differ():
    key = bookcache.key
    assert key("x") != key(b"x") and key("1") != key(1) and key(None) != key("None")
    assert key(["a", "b"]) != key(["ab"]) != key("ab") and key("a", "b") != key(["a", "b"])
    assert key("页\ud800") == key("页\ud800")   # a lone surrogate (kept by the page cache) can be keyed


@pytest.mark.parametrize("name", ["PRINT_SITE", "HEAD_ALTERNATE", "PLAYGROUND_CSS"])
def test_removing_a_tag_with_its_indentation_is_re_sub_with_leading_spaces(name):
    """trim_and_minify.py searches its tags from the ``<`` on and removes the spaces before each match itself
    (a pattern that starts with ``[ \\t]*`` is tried at every character of a 2 MB print page):
    the result is what ``re.sub(r"[ \\t]*(?:pattern)", "")`` gives, on random mixtures of the tags,
    spaces, tabs, newlines and text."""
    pattern = getattr(lean, name)
    reference = re.compile(r"[ \t]*(?:" + pattern.pattern + ")", pattern.flags)
    tags = {
        "PRINT_SITE": ['<link rel="stylesheet" href="css/print-site-material.css">', '<script src="../js/print-site.js"></script>'],
        "HEAD_ALTERNATE": ['<link rel="alternate" href="/en/" hreflang="en">'],
        "PLAYGROUND_CSS": ['<link rel="stylesheet" href="assets/playground/playground.css">'],
    }[name]
    pieces = [*tags, " ", "\t", "\n", "x", "<p>", '"', "<link "]
    rng = random.Random(name)
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert lean._remove_indented(pattern, text) == reference.sub("", text), repr(text)


PAGE = ('<html><head><script>const c = `md-source__fact--${x}`; el.classList.add("md-tabs__link")</script></head>'
        '<body><div class="md-typeset md-content" data-x="--md-accent-fg-color">{extra}</div></body></html>')
SCRIPT = 'document.body.classList.add("md-search-result__item"); const v = "var(--md-code-bg-color)";'
MATERIAL_CSS = (".md-typeset{color:red}.md-content .md-typeset{margin:0}.md-tabs__link{x:1}.md-banner{x:2}"
                ".md-search-result__item{--md-code-bg-color:1;y:var(--md-code-bg-color)}.md-source__fact--version{z:3}"
                ".md-nav__link--active{w:4}:root{--md-accent-fg-color:1;--md-unused:2}")


def _uncached(monkeypatch, tmp_path, function, *args):
    """``function(*args)`` with lean's stores in an empty folder."""
    for store in ("_FACTS", "_TRIMMED"):
        monkeypatch.setattr(getattr(lean, store), "dir", tmp_path / store)
    try:
        return function(*args)
    finally:
        monkeypatch.undo()


def test_material_trim_from_cached_file_facts_is_the_computed_one(tmp_path, monkeypatch):
    """Material's trimmed stylesheet from the cache equals the computation from nothing; a page
    that gains a class (or a script that adds one) gets the rule for it, as a fresh computation does."""
    cache = tmp_path / "cache"
    monkeypatch.setattr(lean._FACTS, "dir", cache / "facts")
    monkeypatch.setattr(lean._TRIMMED, "dir", cache / "trimmed")
    pages, scripts, sheets = [PAGE.replace("{extra}", "")], [SCRIPT], [".x{color:var(--md-unused)}"]
    first = lean.trim_material(MATERIAL_CSS, pages, scripts, sheets)
    assert list((cache / "facts").rglob("*.json")) and first == lean.trim_material(MATERIAL_CSS, pages, scripts, sheets)
    assert ".md-banner" not in first and ".md-tabs__link" in first and ".md-search-result__item" in first
    assert ".md-source__fact--version" in first and "--md-accent-fg-color" in first and "--md-unused" in first
    edited = [PAGE.replace("{extra}", '<p class="md-banner">'), *pages]
    again = lean.trim_material(MATERIAL_CSS, edited, scripts, sheets)
    monkeypatch.undo()
    assert ".md-banner" in again
    assert again == _uncached(monkeypatch, tmp_path / "fresh", lean.trim_material, MATERIAL_CSS, edited, scripts, sheets)
    assert first == _uncached(monkeypatch, tmp_path / "fresh2", lean.trim_material, MATERIAL_CSS, pages, scripts, sheets)


def test_file_facts_are_keyed_by_the_text_and_whether_it_is_a_script(tmp_path, monkeypatch):
    monkeypatch.setattr(lean._FACTS, "dir", tmp_path)
    page = PAGE.replace("{extra}", "")
    as_page, as_script = lean.file_facts(page, False), lean.file_facts(page, True)
    assert "md-content" in as_page[0] and "md-tabs__link" in as_page[0] and "md-source__fact--" in as_page[1]
    assert "class" in as_script[0] and "class" not in as_page[0]   # a script: every token, not only classes
    assert [list(f) for f in lean.file_facts(page, False)] == [list(f) for f in as_page]   # a hit
    assert "md-banner" in lean.file_facts(page.replace("md-content", "md-banner"), False)[0]


def test_katex_usage_from_the_cache_follows_each_page(tmp_path, monkeypatch):
    """The characters and classes KaTeX's fonts and stylesheet are cut to: cached per page, they
    follow an edit of one formula as a scan of every page does."""
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    formula = '<span class="katex"><span class="katex-html"><span class="mord mathnormal">{}</span></span></span>'
    (site / "index.html").write_text(f"<p>{formula.format('x')}</p>", encoding="utf-8")
    (site / "a" / "index.html").write_text(f'<p class="other">{formula.format("y")}</p>', encoding="utf-8")
    monkeypatch.setattr(bookcache, "CACHE", tmp_path / "cache")
    first = katex_math.site_usage(site)
    assert "x" in first[0] and "y" in first[0] and "z" not in first[0] and {"mathnormal", "other"} <= first[1]
    assert list((tmp_path / "cache").rglob("*.json")) and katex_math.site_usage(site) == first
    (site / "a" / "index.html").write_text(f'<p class="another">{formula.format("z")}</p>', encoding="utf-8")
    again = katex_math.site_usage(site)
    assert "z" in again[0] and "y" not in again[0] and "another" in again[1] and "other" not in again[1]
    monkeypatch.setattr(bookcache, "CACHE", tmp_path / "empty")
    assert katex_math.site_usage(site) == again


def test_class_values_are_what_the_word_boundary_pattern_finds():
    """lean.class_values replaces ``CLASS_ATTR.findall`` (twice as fast on the print page): the same
    values, on random mixtures of attributes, quotes, word characters and CJK, and on built pages."""
    pieces = ['class="', '"', "a", "x", " ", "-", "_", "页", "data-", "<p ", ">", "b c"]
    rng = random.Random(3)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert lean.class_values(text) == lean.CLASS_ATTR.findall(text), repr(text)
    for path in sorted((ROOT / "site").glob("*/*/index.html"))[:20]:
        text = path.read_text(encoding="utf-8")
        assert lean.class_values(text) == lean.CLASS_ATTR.findall(text), path


def test_figure_imports_are_cached_under_the_source(tmp_path, monkeypatch):
    monkeypatch.setattr(bookcache, "CACHE", tmp_path)
    source = b"from .ch3 import a\nfrom attnkit.figures.ch4 import b\nimport attnkit.figures.ch5\n"
    assert bookcache._direct_imports(source) == ["ch3.py", "ch4.py"] and list(tmp_path.rglob("*.imports.json"))
    assert bookcache._direct_imports(source) == ["ch3.py", "ch4.py"]   # a hit
    assert bookcache._direct_imports(source.replace(b"ch3", b"ch6")) == ["ch6.py", "ch4.py"]
