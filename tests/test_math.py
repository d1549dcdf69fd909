"""Math is rendered at build time (bookbuild/katex_math.py): every formula is KaTeX HTML + MathML in
the built page, no page loads KaTeX's script, and the cache is keyed by what changes the output."""

from __future__ import annotations

import re

import pytest

from book import ROOT
from importlib import import_module

SITE = ROOT / "site"
ELEMENT = re.compile(r'<(span|div) class="arithmatex"[^>]*>(.*?)</\1>\s*', re.S)
# Where TeX delimiters may legitimately appear: code, styles, scripts and MathML's TeX annotation.
NOT_PROSE = re.compile(r"<(pre|code|style|script|annotation|textarea)\b.*?</\1>", re.S)
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$")


def math_hook():
    return import_module("bookbuild.katex_math")


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
            # <math> with no xmlns: the HTML parser puts it in the MathML namespace (bookbuild/katex_math.py)
            if not body.startswith(expected) or not re.search(r'<span class="katex-mathml"><math(?: display="block")?>', body):
                problems.append(f"{path.relative_to(SITE)}: {body[:80]!r}")
        prose = NOT_PROSE.sub("", ELEMENT.sub("", text))
        for raw in RAW_TEX.finditer(prose):
            problems.append(f"{path.relative_to(SITE)}: raw TeX delimiter left: {prose[raw.start() - 40:raw.end() + 40]!r}")
    assert formulas > 100, f"only {formulas} formulas found in the site"
    assert not problems, "\n".join(problems[:20])


def test_display_math_stands_apart_in_the_sources():
    """A display formula (\\[ ... \\]) glued to the sentence before or after it is read by
    arithmatex as part of that paragraph: the screen shows it, but it reached the search index as
    KaTeX markup and the PDF as raw TeX (12.4 once). Each delimiter stands on its own line, with a
    blank line (or the other delimiter) around the block."""
    problems = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            if line.strip() == "\\[" and i and lines[i - 1].strip():
                problems.append(f"{path.relative_to(ROOT)}:{i + 1}: no blank line before \\[")
            if line.strip() == "\\]" and i + 1 < len(lines) and lines[i + 1].strip():
                problems.append(f"{path.relative_to(ROOT)}:{i + 1}: no blank line after \\]")
    assert not problems, "\n".join(problems)


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


# ---- KaTeX's stylesheet and fonts, cut to the book's formulas (katex_math.cut_katex_assets) ----

class _DrawnText:
    """The characters inside ``<span class="katex-html">`` elements, read with html.parser (not
    with the hook's own regular expressions)."""

    def __init__(self):
        from html.parser import HTMLParser

        self.chars: set[str] = set()
        outer = self

        class Parser(HTMLParser):
            depth = 0   # open spans inside a katex-html span (0: outside)

            def handle_starttag(self, tag, attrs):
                if self.depth:
                    self.depth += tag == "span"
                elif tag == "span" and "katex-html" in (dict(attrs).get("class") or "").split():
                    self.depth = 1

            def handle_endtag(self, tag):
                if self.depth and tag == "span":
                    self.depth -= 1

            def handle_data(self, data):
                if self.depth:
                    outer.chars.update(data)

        self.parser = Parser(convert_charrefs=True)


def test_katex_fonts_have_no_wide_glyphs():
    """cut_katex_assets keys (and cuts) the fonts by the formulas' characters without the wide
    (CJK) ones, so both languages share one cut: right only while no KaTeX font maps one."""
    import io
    import unicodedata

    from fontTools.ttLib import TTFont

    fonts = sorted((ROOT / "node_modules" / "katex" / "dist" / "fonts").glob("*.woff2"))
    assert len(fonts) == 20
    for path in fonts:
        wide = [chr(c) for c in TTFont(io.BytesIO(path.read_bytes())).getBestCmap()
                if unicodedata.east_asian_width(chr(c)) in ("W", "F")]
        assert not wide, f"{path.name} has wide glyphs {wide[:10]}: key the fonts by every character again"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_katex_fonts_keep_every_glyph_a_formula_draws(lang):
    """Each subset font still maps every character that some formula of this language shows and
    that KaTeX's full font has; and it is smaller (the point of cutting it)."""
    import io

    from fontTools.ttLib import TTFont

    site = SITE / "en" if lang == "en" else SITE
    drawn = _DrawnText()
    for path in sorted(site.rglob("*.html")):
        if lang == "zh" and path.relative_to(SITE).parts[0] == "en":
            continue
        drawn.parser.feed(path.read_text(encoding="utf-8"))
    assert {"=", "x", "∑"} <= drawn.chars, sorted(drawn.chars)[:40]
    fonts = sorted((site / "assets" / "vendor" / "katex" / "fonts").glob("*.woff2"))
    # the fonts the trimmed stylesheet names, and only those: a family no rule names left (unused_faces)
    css = (site / "assets" / "vendor" / "katex" / "katex.min.css").read_text(encoding="utf-8")
    assert {p.name for p in fonts} == set(re.findall(r"fonts/([\w-]+\.woff2)", css))
    assert {"KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2", "KaTeX_Size1-Regular.woff2"} <= {p.name for p in fonts}
    assert len(fonts) < 20 and "KaTeX_Fraktur-Regular.woff2" not in {p.name for p in fonts}
    smaller = 0
    for path in fonts:
        full = ROOT / "node_modules" / "katex" / "dist" / "fonts" / path.name
        cmap_full = TTFont(io.BytesIO(full.read_bytes())).getBestCmap()
        cmap_cut = TTFont(io.BytesIO(path.read_bytes())).getBestCmap()
        wanted = {ord(c) for c in drawn.chars | set("()0123456789")} & set(cmap_full)
        assert not wanted - set(cmap_cut), f"{lang} {path.name}: lost {[chr(c) for c in sorted(wanted - set(cmap_cut))]}"
        assert all(cmap_cut[c] == cmap_full[c] for c in cmap_cut), path.name   # the same glyphs, not renamed
        smaller += path.stat().st_size < full.stat().st_size
    assert smaller == len(fonts)


@pytest.mark.browser
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_trimmed_katex_stylesheet_styles_every_formula_as_the_full_one(dark):
    """Put KaTeX's whole stylesheet back in place of the trimmed one and compare every property
    of every element inside each formula (and its ::before/::after), on the pages with the most math."""
    from bookbuild.browser import launch, serve_site

    full = (ROOT / "node_modules" / "katex" / "dist" / "katex.min.css").read_text(encoding="utf-8")
    trimmed = (SITE / "assets" / "vendor" / "katex" / "katex.min.css").read_text(encoding="utf-8")
    assert len(trimmed) < len(full) / 2
    compare = """async (full) => {
      const link = [...document.querySelectorAll('link[rel=stylesheet]')].find((l) => l.href.includes('katex.min.css'));
      if (!link) return { error: 'no katex.min.css link' };
      const elements = [...document.querySelectorAll('.katex, .katex *')];
      const body = getComputedStyle(document.body);
      const names = [];
      for (let i = 0; i < body.length; i++) names.push(body[i]);
      const computed = () => elements.flatMap((el) => [null, '::before', '::after'].map((pseudo) => {
        const style = getComputedStyle(el, pseudo);
        return pseudo && style.content === 'none' ? 'none' : names.map((n) => style.getPropertyValue(n)).join(';');
      }));
      await document.fonts.ready;
      const cut = computed();
      const style = document.createElement('style');
      style.textContent = full.replaceAll('url(fonts/', `url(${new URL('fonts/', link.href).href}`);  // the site's fonts
      link.after(style);
      link.sheet.disabled = true;
      await document.fonts.ready;
      const whole = computed();
      const differ = [];
      cut.forEach((row, i) => {
        if (row !== whole[i] && differ.length < 3) {
          const a = row.split(';'), b = whole[i].split(';');
          differ.push(elements[Math.floor(i / 3)].className + ': ' + names.filter((_, j) => a[j] !== b[j]).slice(0, 5).join(', '));
        }
      });
      return { elements: elements.length, differ };
    }"""
    paths = ["/ch3/softmax/", "/ch9/table1/", "/ch9/tiled/", "/ch1/telephone-game/", "/en/ch3/scaling/", "/en/ch4/position/"]
    with serve_site() as base, launch() as browser:
        page = browser.new_page(1280, 900, dark=dark)
        for path in paths:
            page.goto(base + path)
            page.wait_for_load_state("load")
            result = page.evaluate(compare, full)
            assert "error" not in result, f"{path}: {result.get('error')}"
            assert result["elements"] > 100 and not result["differ"], f"{path}: styled differently when trimmed: {result['differ']}"
        page.context.close()
