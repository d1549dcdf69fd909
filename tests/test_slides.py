"""The chapters' slides (bookbuild/slides.py, docs/<lang>/chN/slides.md, overrides/slides.html,
overrides/assets/slides/): built from the book's own sources, in both languages, offline.

Sources: every chapter has a deck in both languages, with the same slides (headings, figures,
listings) in each; every slide has a heading and speaker notes; every figure is one of attnkit's;
no number on a slide is typed (a digit comes from a macro, a listing, or a formula the chapter
itself writes). The build: the hook's checks name the slide that breaks a rule. The built site:
the decks are out of the search index, the print page and the nav, reachable from every chapter's
index page and the teacher's page, under the site's strict policy. In headless Chromium, under
that policy and with every outside request refused: every slide fits its 1280 × 720 page in the
print layout, and the PDF has one page per slide; the presenter view shows the slide's notes and
follows the deck, which follows it; the deck and its presenter view also work from file://, where
(as the teacher's page says) the book's modules, data and workers do not; and the one command of
the teacher's page, Python's own web server, serves a site whose Python runs in the browser.
"""

from __future__ import annotations

import html
import re
import socket
import subprocess
import sys
import time

import pytest

from book import DOCS, LANGS, ROOT, built_page, fences, pages

CHAPTERS = [f"ch{n}" for n in range(13)]
FIGURE_MACRO = re.compile(r"""\{\{\s*figure\(\s*["']([a-z0-9-]+)["']\s*\)\s*\}\}""")
LISTING = re.compile(r'--8<--\s+"([^"]+)"')
SEPARATOR = re.compile(r"^---[ \t]*$", re.M)


def deck(lang: str, chapter: str) -> str:
    return (DOCS / lang / chapter / "slides.md").read_text(encoding="utf-8")


def slides_of(text: str) -> list[str]:
    """A deck's source cut into slides at each line `---` (outside code fences)."""
    out, current, fence = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        if not fence and SEPARATOR.fullmatch(line):
            out.append("\n".join(current))
            current = []
        else:
            current.append(line)
    return out + ["\n".join(current)]


# ---------------------------------------------------------------------- sources


def test_every_chapter_has_a_deck_in_both_languages():
    missing = [f"docs/{lang}/{c}/slides.md" for lang in LANGS for c in CHAPTERS if not (DOCS / lang / c / "slides.md").is_file()]
    assert not missing, missing
    extra = sorted({p.as_posix() for lang in LANGS for p in pages(lang) if p.name == "slides.md"} - {f"{c}/slides.md" for c in CHAPTERS})
    assert not extra, f"decks outside a chapter: {extra}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_both_languages_show_the_same_slides(chapter):
    """Slide by slide: the same heading level, the same figures, the same listings, notes on each."""
    shape = {}
    for lang in LANGS:
        shape[lang] = []
        for n, slide in enumerate(slides_of(deck(lang, chapter)), 1):
            head = re.findall(r"^(#{1,2}) ", slide, re.M)
            assert len(head) == 1, f"docs/{lang}/{chapter}/slides.md slide {n}: one heading (# or ##), found {len(head)}"
            assert slide.count('<aside class="notes" markdown>') == 1, f"docs/{lang}/{chapter}/slides.md slide {n}: speaker notes"
            shape[lang].append((head[0], FIGURE_MACRO.findall(slide), LISTING.findall(slide)))
    assert shape["zh"] == shape["en"], f"{chapter}: the decks differ:\n zh {shape['zh']}\n en {shape['en']}"


def test_every_figure_on_a_slide_is_one_of_the_books():
    from attnkit.figures import figure_modules

    known = set(figure_modules())
    used = {f for lang in LANGS for c in CHAPTERS for f in FIGURE_MACRO.findall(deck(lang, c))}
    assert used, "no deck shows a figure"
    assert used <= known, f"not figures of attnkit.figures: {sorted(used - known)}"
    # and each is shown by a page of the book in the same language (its alt text and caption come from there)
    for lang in LANGS:
        shown = {m for p in pages(lang) if p.name != "slides.md"
                 for m in re.findall(r"figures/([a-z0-9-]+)\.svg", (DOCS / lang / p).read_text(encoding="utf-8"))}
        assert used <= shown, f"{lang}: figures on slides that no page shows: {sorted(used - shown)}"


# No number on a slide is typed. What is left of a slide's source once its macros ({{ }}, {% %}),
# listings, code, formulas, tags and link targets are taken out must hold no digit, except inside
# a name that has letters too (GPT-2, bf16, 3Blue1Brown, 8B) or one of the names below, whose
# number is part of the name. A formula with a digit must be one the chapter's own pages write.
NAMES = re.compile(r"\bLlama [23](?:\.1)?\b|\bGemma 3\b|\bTable 1\b|表 1")
LIST_MARKER = re.compile(r"^[ \t]*\d+\.[ \t]", re.M)     # an ordered list's own numbering
STRIP = [re.compile(p, re.S) for p in (r"\{\{.*?\}\}", r"\{%.*?%\}", r"^```.*?^```", r"`[^`\n]*`", r"\\\(.*?\\\)",
                                       r"\\\[.*?\\\]", r"<[^>]+>", r"\]\([^)]*\)")]
TOKEN = re.compile(r"[\w.+\-−]*\d[\w.+\-−]*")
MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)


def typed_numbers(source: str) -> list[str]:
    """The numbers typed in a slide's source (see above).

    >>> typed_numbers('Amy gets {{ pct(0.9) }} of `x = 5`; the GPT-2 and Llama 3 8B in bf16, 3Blue1Brown')
    []
    >>> typed_numbers('a gap of 3 points, 20 times: see 3.3, 第 2 章 and 第2章, \\\\(e^{3}\\\\)')
    ['3', '20', '3.3', '2', '第2章']
    """
    text = source
    for pattern in STRIP[:2]:
        text = pattern.sub(" ", text)
    text = re.sub(r"^```.*?^```", " ", text, flags=re.S | re.M)
    for pattern in STRIP[3:]:
        text = pattern.sub(" ", text)
    text = LIST_MARKER.sub(" ", NAMES.sub(" ", text))
    return [t for t in TOKEN.findall(text) if not re.search(r"[A-Za-z]", t)]


def formulas_with_digits(source: str) -> list[str]:
    found = [a or b for a, b in MATH.findall(re.sub(r"\{\{.*?\}\}", "", source, flags=re.S))]
    return [" ".join(f.split()) for f in found if re.search(r"\d", f)]


def test_the_typed_number_check_can_fail():
    assert typed_numbers("softmax gives 94.6% to Amy") == ["94.6"]
    assert typed_numbers("小明分到 {{ pct(x) }}，小红 4.7%") == ["4.7"]
    assert typed_numbers("see the figure of {{ n }} heads in 3.1") == ["3.1"]
    assert formulas_with_digits(r"so \(e^{3} \approx 20.1\) and \(d_k\)") == [r"e^{3} \approx 20.1"]


@pytest.mark.parametrize("lang", LANGS)
def test_no_number_on_a_slide_is_typed(lang):
    problems = []
    for chapter in CHAPTERS:
        source = deck(lang, chapter)
        for n, slide in enumerate(slides_of(source), 1):
            found = typed_numbers(slide)
            if found:
                problems.append(f"docs/{lang}/{chapter}/slides.md slide {n}: {found}")
        book = " ".join(" ".join((DOCS / lang / p).read_text(encoding="utf-8").split())
                        for p in pages(lang) if p.parts[0] == chapter and p.name != "slides.md")
        for formula in formulas_with_digits(source):
            if formula not in book:
                problems.append(f"docs/{lang}/{chapter}/slides.md: the formula {formula!r} is not one of the chapter's")
    assert not problems, "typed numbers on slides (compute them with a macro):\n" + "\n".join(problems)


def test_every_code_fence_of_a_deck_is_a_listing():
    """A deck shows code only as the book's listings (run at build time, in its language)."""
    for lang in LANGS:
        for chapter in CHAPTERS:
            for fence in fences(deck(lang, chapter)):
                assert fence.info.startswith('python exec="on"'), f"docs/{lang}/{chapter}/slides.md:{fence.line}: {fence.info}"


def test_the_build_names_the_slide_that_breaks_a_rule():
    from mkdocs.exceptions import PluginError

    from bookbuild import slides

    good = '<h2 id="a">A</h2><p>x</p><aside class="notes"><p>n</p></aside>'
    assert len(slides.sections(f"<h1>T</h1><aside class=\"notes\"></aside><hr />{good}", "deck")) == 2
    for bad, says in ((f"{good}<hr /><h2>B</h2><p>no notes</p>", "slide 2 needs one"),
                      (f"{good}<hr /><p>no heading</p><aside class=\"notes\"></aside>", "slide 2 must begin with its one heading"),
                      (f'{good}<hr /><h2>C</h2><div data-widget="heads"></div><aside class="notes"></aside>', "an interactive widget")):
        with pytest.raises(PluginError, match=says):
            slides.sections(bad, "deck")


def test_a_listing_is_laid_out_to_fit():
    from bookbuild.slides import listing_layout

    assert listing_layout("x = 1\nprint(x)", "1") == ("side", 16.0)
    layout, size = listing_layout("\n".join(["y" * 90] * 30), "z" * 60)
    assert layout == "stacked" and size < 16
    # a Chinese character takes two columns
    assert listing_layout("x = '" + "汉" * 50 + "'", "汉" * 30)[0] == "stacked"


# ---------------------------------------------------------------------- the built site


@pytest.mark.parametrize("lang", LANGS)
def test_decks_are_built_out_of_search_print_and_nav(lang):
    from bookbuild.browser import SITE

    root = SITE / "en" if lang == "en" else SITE
    index = (root / "search" / "search_index.json").read_text(encoding="utf-8")
    printed = (root / "print_page" / "index.html").read_text(encoding="utf-8")
    for chapter in CHAPTERS:
        html_text = built_page(SITE, lang, f"{chapter}/slides.md").read_text(encoding="utf-8")
        assert html_text.count('<section data-slide="') == len(slides_of(deck(lang, chapter))), chapter
        assert f'"location":"{chapter}/slides/' not in index, f"{chapter}'s deck is in the search index"
        assert 'class="md-nav' not in html_text, "a deck carries no Material navigation"
        # reachable: the chapter's index page and the teacher's page link it, outside instant navigation
        for page in (f"{chapter}/index.md", "teach.md"):
            linking = built_page(SITE, lang, page).read_text(encoding="utf-8")
            target = ("slides/" if page.endswith("index.md") else f"../{chapter}/slides/")
            assert f'href="{target}" target="_self"' in linking, f"{page} does not link {chapter}'s deck"
    assert 'data-slide="' not in printed and "aside class=\"notes\"" not in printed, "a deck reached the print page"
    nav = built_page(SITE, lang, "ch3/index.md").read_text(encoding="utf-8")
    assert "slides/" not in "".join(re.findall(r'<nav class="md-nav.*?</nav>', nav, re.S)), "a deck is in the nav"


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_of_a_deck_is_in_the_site(lang):
    from bookbuild.browser import SITE

    problems = []
    for chapter in CHAPTERS:
        page = built_page(SITE, lang, f"{chapter}/slides.md")
        for src in re.findall(r'<img [^>]*src="([^"]+)"', page.read_text(encoding="utf-8")):
            if not (page.parent / src).resolve().is_file():
                problems.append(f"{chapter}: {src}")
        wanted = [f for s in slides_of(deck(lang, chapter)) for f in FIGURE_MACRO.findall(s)]
        shown = re.findall(r'<img [^>]*src="[^"]*figures/([a-z0-9-]+)\.svg"', page.read_text(encoding="utf-8"))
        if shown != wanted:
            problems.append(f"{chapter}: figures {shown}, the source asks for {wanted}")
    assert not problems, problems


def test_decks_load_only_the_sites_own_files_and_no_inline_script():
    from bookbuild.browser import SITE

    for lang in LANGS:
        for chapter in CHAPTERS:
            text = built_page(SITE, lang, f"{chapter}/slides.md").read_text(encoding="utf-8")
            head = text.split("</head>")[0]
            assert not re.search(r'(?:src|href)="(?:https?:)?//', text), f"{lang} {chapter}: a file from outside"
            assert not re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"{lang} {chapter}: an inline script"
            assert "script-src 'self'" in head and "'unsafe-inline'" not in head.split("script-src")[1].split(";")[0]
    reveal = SITE / "assets/vendor/reveal/reveal.js"
    assert reveal.read_bytes() == (ROOT / "node_modules/reveal.js/dist/reveal.js").read_bytes(), "reveal.js is vendored as published"


NARROW_FONT = re.compile(r'@font-face\s*\{\s*font-family:\s*"Book Code Narrow";(.*?)\}', re.S)


def test_slides_draw_chinese_code_with_the_books_narrow_symbols():
    """A Chinese listing on a slide lines up as on its page: slides.css takes the same symbols from
    the narrow Latin font as book.css does (a copy: the slides load no Material stylesheet)."""
    book = NARROW_FONT.findall((ROOT / "overrides/assets/book.css").read_text(encoding="utf-8"))
    slides = NARROW_FONT.findall((ROOT / "overrides/assets/slides/slides.css").read_text(encoding="utf-8"))
    assert len(book) == len(slides) == 1, (book, slides)
    assert " ".join(slides[0].split()) == " ".join(book[0].split()), "slides.css's Book Code Narrow differs from book.css's"


# ---------------------------------------------------------------------- in the browser

PRINT_FITS = """() => [...document.querySelectorAll('.pdf-page > section')].map((s, i) => {
  const r = s.getBoundingClientRect();
  let bottom = 0, right = 0;
  for (const el of s.querySelectorAll('.slide-body > *:not(aside)')) {
    const b = el.getBoundingClientRect();
    bottom = Math.max(bottom, b.bottom - r.top); right = Math.max(right, b.right - r.left);
  }
  for (const pre of s.querySelectorAll('pre')) if (pre.scrollWidth > pre.clientWidth + 1) right = 99999;
  return {n: i + 1, bottom: Math.round(bottom), right: Math.round(right)};
})"""


# the fonts loaded and two frames drawn since: a condition, where a fixed 300 ms wait guessed at the load
LAID_OUT = "() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"


@pytest.mark.parametrize("lang", LANGS)
def test_every_slide_fits_and_prints(lang, tmp_path):
    """The print layout (reveal's ?print-pdf): every slide's content within its 1280 × 720 page, no
    listing cut off; the PDF has one page per slide; the same with the notes on pages of their own;
    no console error, no request outside the site, under the site's policy."""
    from pypdf import PdfReader

    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    problems = []
    with serve_site() as base, launch() as browser:
        page = browser.new_page(csp=True)
        for chapter in CHAPTERS:
            count = len(slides_of(deck(lang, chapter)))
            page.goto(f"{base}{prefix}{chapter}/slides/?print-pdf", wait_until="load")
            page.wait_for_function("() => document.querySelectorAll('.pdf-page').length > 0")
            page.evaluate(LAID_OUT)
            for slide in page.evaluate(PRINT_FITS):
                if slide["bottom"] > 720 - 8 or slide["right"] > 1280 - 8:
                    problems.append(f"{chapter} slide {slide['n']}: content reaches {slide['right']} × {slide['bottom']} px")
            pdf = tmp_path / f"{chapter}.pdf"
            page.pdf(path=str(pdf), width="1280px", height="720px", print_background=True)
            pages_printed = len(PdfReader(str(pdf)).pages)
            if pages_printed != count:
                problems.append(f"{chapter}: {pages_printed} PDF pages for {count} slides")
        page.goto(f"{base}{prefix}ch3/slides/?print-pdf&showNotes=separate-page", wait_until="load")
        page.wait_for_function("() => document.querySelectorAll('.speaker-notes-pdf').length > 0")
        notes = page.evaluate("() => [...document.querySelectorAll('.speaker-notes-pdf')].map(n => n.innerText)")
        assert len(notes) == len(slides_of(deck(lang, "ch3"))) and all(n.strip() for n in notes), notes
        label = page.evaluate("() => getComputedStyle(document.querySelector('.speaker-notes-pdf'), '::before').content")
        assert label.strip('"') == ("演讲备注" if lang == "zh" else "Speaker notes"), label
        assert not page.errors and not page.outside, (page.errors, page.outside)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_presenter_view_follows_the_deck_and_drives_it(lang):
    """S opens the presenter view (under the site's policy: no inline script): this slide's notes,
    the count, the current and next slide in frames; moving in either window moves the other."""
    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    source = slides_of(deck(lang, "ch3"))
    with serve_site() as base, launch() as browser:
        deck_page = browser.new_page(csp=True)
        deck_page.goto(f"{base}{prefix}ch3/slides/#/2", wait_until="load")
        deck_page.wait_for_function("() => document.querySelector('.reveal.ready')")
        with deck_page.context.expect_page() as opened:
            deck_page.keyboard.press("s")
        presenter = opened.value
        errors = []
        presenter.on("console", lambda m: m.type == "error" and errors.append(m.text))
        presenter.on("pageerror", lambda e: errors.append(str(e)))
        presenter.wait_for_load_state("load")
        presenter.wait_for_function("() => /2/.test(document.querySelector('.presenter__count').textContent)")

        def notes_of(n):
            aside = re.search(r'<aside class="notes" markdown>(.*?)</aside>', source[n - 1], re.S).group(1)
            return re.sub(r"\{\{.*?\}\}|[*`]", "", aside).split()[:3]

        shown = presenter.locator(".presenter__notes-body").inner_text()
        assert all(word.strip("“”\"'.,") in shown for word in notes_of(2)), shown
        frames = presenter.evaluate("() => [...document.querySelectorAll('iframe')].map(f => f.getAttribute('src'))")
        assert frames[0].endswith("?receiver#/2") and frames[1].endswith("?receiver#/3"), frames
        presenter.keyboard.press("ArrowRight")
        deck_page.wait_for_function("() => location.hash === '#/3'")
        deck_page.keyboard.press("ArrowRight")
        presenter.wait_for_function("() => /4/.test(document.querySelector('.presenter__count').textContent)")
        assert all(word.strip("“”\"'.,") in presenter.locator(".presenter__notes-body").inner_text() for word in notes_of(4))
        presenter.locator(".presenter__pause").click()
        assert presenter.locator(".presenter__pause").inner_text() == ("继续计时" if lang == "zh" else "Resume the timer")
        assert not errors and not deck_page.errors and not deck_page.outside, (errors, deck_page.errors, deck_page.outside)


def test_slides_work_from_file_where_the_books_modules_cannot():
    """What the teacher's page says about file://, measured: the deck runs, and its presenter view
    follows it; a chapter page's widgets (a module), the data they fetch, Python's worker and the
    folder links do not."""
    from playwright.sync_api import sync_playwright

    from bookbuild.browser import CHROMIUM_FLAGS, SITE, chromium_path

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        context = browser.new_context()
        errors = []
        deck_page = context.new_page()
        deck_page.on("pageerror", lambda e: errors.append(str(e)))
        deck_page.goto((SITE / "ch3/slides/index.html").as_uri(), wait_until="load")
        deck_page.wait_for_function("() => document.querySelector('.reveal.ready')")
        presenter = context.new_page()
        presenter.goto((SITE / "ch3/slides/index.html").as_uri() + "?presenter", wait_until="load")
        deck_page.keyboard.press("ArrowRight")
        presenter.wait_for_function("() => /2/.test(document.querySelector('.presenter__count').textContent)")
        assert not errors, errors
        book = context.new_page()
        book.goto((SITE / "ch3/softmax/index.html").as_uri(), wait_until="load")
        book.wait_for_timeout(1500)
        assert book.evaluate("() => [...document.querySelectorAll('[data-widget]')].every(w => !w.dataset.mounted)")
        found = book.evaluate("""async () => {
          const out = {};
          try { await fetch('../../data/widgets/exercises.json'); out.fetch = 'ok'; } catch (e) { out.fetch = e.name; }
          try { new Worker('../../assets/playground/worker.js'); out.worker = 'ok'; } catch (e) { out.worker = e.name; }
          try { await import('../../assets/widgets/common.js'); out.module = 'ok'; } catch (e) { out.module = e.name; }
          return out; }""")
        assert found == {"fetch": "TypeError", "worker": "SecurityError", "module": "TypeError"}, found
        book.goto((SITE / "ch3/index.html").as_uri(), wait_until="load")
        book.locator("article a[href='softmax/']").first.click()
        book.wait_for_load_state("load")
        assert book.url.endswith("/ch3/softmax/") and "index.html" in book.evaluate("document.body.innerText"), \
            "a folder link from file:// was expected to show the folder's listing"
        browser.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_classroom_command_serves_a_book_whose_python_runs():
    """The teacher's page's one command, `python3 -m http.server 8000 --directory site`, on a free
    port: a coding exercise is checked by Python in the browser, search finds pages, nothing leaves."""
    from bookbuild.browser import SITE, launch

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(SITE)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        base = f"http://127.0.0.1:{port}"
        with launch() as browser:
            page = browser.new_page(csp=True)
            page.set_default_timeout(180_000)
            page.goto(f"{base}/en/ch3/softmax/", wait_until="load")
            widget = page.locator('[data-exercise="ch3-softmax"]')
            widget.locator('[data-action="check"]').click()
            page.wait_for_function("() => !['checking', 'idle', 'loading'].includes("
                                   "document.querySelector(`[data-exercise='ch3-softmax'] .ex-status`).dataset.state)")
            state = widget.locator(".ex-status").get_attribute("data-state")
            assert state == "failed-case", widget.inner_text()    # the starter code was checked on a case: Python ran
            page.goto(f"{base}/en/ch3/", wait_until="load")
            page.keyboard.press("s")
            page.keyboard.type("softmax")
            page.wait_for_function("() => /\\d/.test(document.querySelector('.md-search-result__meta').innerText)")
            assert not page.errors and not page.outside, (page.errors, page.outside)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_slide_pages_speak_their_language():
    """Every word a deck shows (toolbar, presenter view, reveal's own labels we replace) is in
    the page's language."""
    from bookbuild.browser import SITE

    text = built_page(SITE, "zh", "ch3/slides.md").read_text(encoding="utf-8")
    tools = re.search(r'<nav class="deck-tools".*?</nav>', text, re.S).group(0)
    # the link to the English deck names its language in English, as the book's language selector does
    assert re.search(r'<a href="[^"]*en/ch3/slides/" hreflang="en" lang="en"[^>]*>English</a>', tools), tools
    tools = re.sub(r'<a [^>]*hreflang="en"[^>]*>English</a>', "", tools)
    words = html.unescape(re.sub(r"<[^>]+>", " ", tools))
    assert not re.search(r"[A-Za-z]{3,}", words.replace("PDF", "")), words
