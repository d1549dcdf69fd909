"""Math is rendered at build time (docs/hooks/katex_math.py): every formula is KaTeX HTML + MathML in
the built page, no page loads KaTeX's script, and the cache is keyed by what changes the output."""

from __future__ import annotations

import re

import pytest

from book import ROOT, load_file

SITE = ROOT / "site"
ELEMENT = re.compile(r'<(span|div) class="arithmatex"[^>]*>(.*?)</\1>\s*', re.S)
# Where TeX delimiters may legitimately appear: code, styles, scripts and MathML's TeX annotation.
NOT_PROSE = re.compile(r"<(pre|code|style|script|annotation|textarea)\b.*?</\1>", re.S)
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$")


def math_hook():
    return load_file(ROOT / "docs" / "hooks" / "katex_math.py")


def built_html():
    found = sorted(SITE.rglob("*.html"))
    assert found, "no built site: run make build"
    return found


def test_no_page_loads_katex_script():
    loads = [f"{p.relative_to(SITE)}: {tag}" for p in built_html()
             for tag in re.findall(r"<script\b[^>]*>", p.read_text(encoding="utf-8")) if "katex" in tag]
    assert not loads, "\n".join(loads)
    assert not list(SITE.rglob("katex*.js")) and not list(SITE.rglob("auto-render*.js")), "KaTeX's script is still shipped"
    assert (SITE / "assets" / "vendor" / "katex" / "katex.min.css").is_file()
    assert list((SITE / "assets" / "vendor" / "katex" / "fonts").glob("*.woff2"))


def test_every_formula_is_katex_markup_with_mathml():
    formulas, problems = 0, []
    for path in built_html():
        text = path.read_text(encoding="utf-8")
        for element, body in ELEMENT.findall(text):
            formulas += 1
            expected = '<span class="katex-display">' if element == "div" else '<span class="katex">'
            if not body.startswith(expected) or '<math xmlns="http://www.w3.org/1998/Math/MathML"' not in body:
                problems.append(f"{path.relative_to(SITE)}: {body[:80]!r}")
        prose = NOT_PROSE.sub("", ELEMENT.sub("", text))
        for raw in RAW_TEX.finditer(prose):
            problems.append(f"{path.relative_to(SITE)}: raw TeX delimiter left: {prose[raw.start() - 40:raw.end() + 40]!r}")
    assert formulas > 100, f"only {formulas} formulas found in the site"
    assert not problems, "\n".join(problems[:20])


def test_display_and_inline_math_keep_their_mode():
    page = (SITE / "ch3" / "softmax" / "index.html").read_text(encoding="utf-8")
    # (the accessibility hook may add attributes to display math: it scrolls, so it takes focus)
    assert re.search(r'<div class="arithmatex" data-search-exclude[^>]*><span class="katex-display">', page)
    assert re.search(r'<span class="arithmatex" data-search-exclude[^>]*><span class="katex">', page)


def test_math_is_left_out_of_the_search_index():
    index = (SITE / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "katex" not in index and "\\frac" not in index


def test_render_math_renders_escaped_tex_in_both_modes():
    hook = math_hook()
    hook.renderer.load()
    try:
        out = hook.render_math('<p><span class="arithmatex">\\(a &lt; b\\)</span></p>'
                               '<div class="arithmatex">\\[\n\\frac{1}{2}\n\\]</div>', "test")
    finally:
        hook.renderer.close()
    assert '<annotation encoding="application/x-tex">a &lt; b</annotation>' in out
    assert '<span class="katex-display">' in out and "mfrac" in out
    assert "\\(" not in out and "\\[" not in out


def test_a_formula_katex_cannot_parse_stops_the_build_with_its_text():
    from mkdocs.exceptions import PluginError

    hook = math_hook()
    hook.renderer.load()
    hook.renderer.cache = {}
    try:
        with pytest.raises(PluginError, match=r"ch9/x\.md: KaTeX cannot render '\\\\frac\{a\}\{'"):
            hook.render_math('<span class="arithmatex">\\(\\frac{a}{\\)</span>', "ch9/x.md")
    finally:
        hook.renderer.close()


def test_cache_key_depends_on_text_mode_and_katex_version():
    hook = math_hook()
    hook.renderer.load()
    key = hook.renderer.key
    assert key("x", False) != key("x", True)
    assert key("x", False) != key("y", False)
    before = key("x", False)
    hook.renderer.salt = hook.renderer.salt.replace(hook.katex_version(), "0.0.0")
    assert key("x", False) != before
