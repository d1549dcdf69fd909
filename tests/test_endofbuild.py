"""The end of a build is cached by content and gives what the uncached computation gives: the
site-wide scans of bookbuild/trim_and_minify.py (Material's stylesheet purged against the site's
tokens) and bookbuild/katex_math.py (KaTeX's fonts cut to the formulas' characters) remember what
each page and script contributes, so a rebuild after a one-sentence edit scans the edited page
and the print page, not all of them. A cache keyed by less than the text it scans would keep a class or a glyph
that a page no longer has (or drop one it gained): each test edits one file and compares with a
computation from an empty cache. Fast: no build, no browser.
"""

from __future__ import annotations

import random
import re
import sys

import pytest

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


def _material(pages, scripts, sheets):
    """Material's stylesheet purged as trim_and_minify._material_css purges it."""
    words = {w for text in pages for w in lean.tokens(text)} | {w for text in scripts for w in lean.tokens(text, script=True)}
    inline = [body for text in pages for body in lean.SCRIPT_BODY.findall(text)]
    prefixes = {p for text in [*scripts, *inline] for p in lean.TEMPLATE_PREFIX.findall(text)}
    keep = {v for text in [*pages, *scripts, *sheets] for v in lean.CUSTOM_PROPERTY.findall(text)}
    return lean.purge(MATERIAL_CSS, words, prefixes, keep, variables=True)


def test_material_purge_from_cached_tokens_is_the_computed_one(tmp_path, monkeypatch):
    """Material's purged stylesheet from the cache equals the computation from nothing; a page
    that gains a class gets the rule for it, as a fresh computation does."""
    for store, folder in ((lean._TOKENS, "tokens"), (lean._RESULTS, "results")):
        monkeypatch.setattr(store, "dir", tmp_path / "cache" / folder)
    pages, scripts, sheets = [PAGE.replace("{extra}", "")], [SCRIPT], [".x{color:var(--md-unused)}"]
    first = _material(pages, scripts, sheets)
    assert list((tmp_path / "cache").rglob("*.json")) and first == _material(pages, scripts, sheets)
    assert ".md-banner" not in first and ".md-tabs__link" in first and ".md-search-result__item" in first
    assert ".md-source__fact--version" in first and "--md-accent-fg-color" in first and "--md-unused" in first
    edited = [PAGE.replace("{extra}", '<p class="md-banner">'), *pages]
    again = _material(edited, scripts, sheets)
    assert ".md-banner" in again
    for store, folder in ((lean._TOKENS, "tokens"), (lean._RESULTS, "results")):
        monkeypatch.setattr(store, "dir", tmp_path / "empty" / folder)
    assert again == _material(edited, scripts, sheets) and first == _material(pages, scripts, sheets)


def test_tokens_are_keyed_by_the_text_and_whether_it_is_a_script(tmp_path, monkeypatch):
    monkeypatch.setattr(lean._TOKENS, "dir", tmp_path)
    page = PAGE.replace("{extra}", "")
    as_page, as_script = lean.tokens(page), lean.tokens(page, script=True)
    assert {"md-content", "md-tabs__link", "div", "data-x"} <= set(as_page)
    assert "body" in as_script and "md-content" in as_script   # a script: every word
    assert lean.tokens(page) == as_page and list(tmp_path.rglob("*.json"))   # a hit
    assert "md-banner" in lean.tokens(page.replace("md-content", "md-banner"))


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
    assert "x" in first[0] and "y" in first[0] and "z" not in first[0] and {"mathnormal", "other"} <= set(first[1])
    assert list((tmp_path / "cache").rglob("*.json")) and katex_math.site_usage(site) == first
    (site / "a" / "index.html").write_text(f'<p class="another">{formula.format("z")}</p>', encoding="utf-8")
    again = katex_math.site_usage(site)
    assert "z" in again[0] and "y" not in again[0] and "another" in set(again[1]) and "other" not in set(again[1])
    monkeypatch.setattr(bookcache, "CACHE", tmp_path / "empty")
    assert katex_math.site_usage(site) == again


def test_what_a_piece_of_code_can_run_is_its_imports_followed_through_attnkit():
    """bookcache.imports_of / closure / digest_for: the part of attnkit a key covers."""
    found = bookcache.imports_of("from .ch3 import a\nfrom attnkit.figures.ch4 import b\nimport attnkit.figures.ch5\n"
                                 "def f():\n    from attnkit import induction\n", package="attnkit.figures")
    assert found == ["__init__.py", "figures/__init__.py", "figures/ch3.py", "figures/ch4.py", "figures/ch5.py", "induction.py"]
    assert bookcache.imports_of("import importlib\nimportlib.import_module('attnkit.core')\n") is None
    assert bookcache.imports_of("import numpy as np\nfrom . import x\n") == []   # nothing of attnkit outside it
    names = {p.relative_to(bookcache.ATTNKIT).as_posix() for p in bookcache.closure([bookcache.ATTNKIT / "induction.py"])}
    assert {"induction.py", "tinygpt.py", "training.py", "__init__.py", "core.py"} <= names
    assert not names & {"guard.py", "exercise.py", "figures/ch11.py", "heads.py"}
    assert bookcache.closure([bookcache.ATTNKIT / "exercise.py"]) is None          # importlib: all of attnkit counts
    assert bookcache.digest_for(code="from attnkit.guard import Snapshot\n") != bookcache.digest_for(code="import attnkit.core\n")
    assert bookcache.digest_for(code="import importlib\nimportlib.import_module('x')\n") == bookcache.attnkit_digest(True)
