"""The offline PDF of each language (made by `make pdf`: tools/pdf.py from the built print pages).

Checks the PDF itself (pdftotext, pdffonts, pdfimages from poppler-utils; links with pypdf) and
the print page it was printed from, in Chromium with print media (figures, answers, widgets).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import unicodedata
from pathlib import Path
from urllib.parse import urlparse

import pytest

from book import LANGS, ROOT, built_page, listing_source, nav_files, load_file
from importlib import import_module

SITE = Path(os.environ.get("BOOK_SITE", ROOT / "site"))  # BOOK_SITE: check a site built elsewhere
PRINT_PAGE = {"zh": "/print_page/", "en": "/en/print_page/"}
LANGUAGE_NAMES = {"zh": "简体中文", "en": "English"}

offline_pdf = import_module("bookbuild.offline_pdf")
pdf_tool = load_file(ROOT / "tools" / "pdf.py")


def book_pages(lang: str) -> list[str]:
    """The pages of the nav that exist (the PDF holds what the site holds), except the lab
    notebooks: the print-site plugin does not take mkdocs-jupyter pages, and each lab repeats an
    experiment that its chapter's pages (which are printed) show with listings and figures."""
    return [f for f in nav_files(lang) if (ROOT / "docs" / lang / f).is_file() and not re.search(r"/lab-[\w-]+\.py$", f)]


def source(lang: str, page: str) -> str:
    return (ROOT / "docs" / lang / page).read_text(encoding="utf-8")


def pdf_path(lang: str) -> Path:
    path = SITE / "pdf" / offline_pdf.PDF_NAMES[lang]
    assert path.is_file(), f"{path} missing: run `make pdf` (it builds the site and prints both PDFs)"
    return path


def poppler(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@functools.cache
def pdf_text(lang: str) -> str:
    """The text of the PDF without running heads and page numbers, read twice: in reading
    order, then by physical layout (which keeps a line of code output on one line)."""
    texts = []
    for mode in ([], ["-layout"]):
        pages = poppler("pdftotext", *mode, "-enc", "UTF-8", str(pdf_path(lang)), "-").split("\f")
        texts.append("\n".join(line for page in pages for line in page.splitlines()
                               if squeeze(line) not in HEADS and not re.fullmatch(r"\s*\d+\s*", line)))
    return "\n\f\n".join(texts)


SMART = str.maketrans("‘’", "''")   # the page's typography (SmartyPants) curls a source's apostrophes


def squeeze(text: str) -> str:
    """Text without any whitespace: a PDF breaks lines (and Chinese has no spaces) anywhere; an
    apostrophe straight or curled."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(SMART))


HEADS = {squeeze(h) for h in pdf_tool.RUNNING_HEAD.values()}  # left out of the text


def printed(line: str, text: str, every: bool = True) -> bool:
    """Are the words of `line` in the squeezed PDF text? (all of them, or at least one)

    Words, not the whole line: a PDF's text layer may reorder the pieces of a line that mixes
    scripts or fonts (Chinese inside code output, a formula inside a sentence)."""
    if squeeze(line) in text:
        return True
    runs = [r for r in re.split(r'[^\w]+', line) if len(r) >= 2]
    found = [squeeze(r) in text for r in runs]
    return (all(found) if every else any(found)) if runs else True


def chapter_titles(lang: str) -> list[str]:
    """The nav's section titles: each section's index page's H1 (bookbuild/nav_titles.py)."""
    indexes = [f for f in nav_files(lang) if f.endswith("/index.md")]
    return [next(line[2:].strip() for line in (ROOT / "docs" / lang / f).read_text(encoding="utf-8").splitlines()
                 if line.startswith("# ")) for f in indexes]


@functools.cache
def print_page_facts(lang: str) -> dict:
    """What the print page holds, read in Chromium with print media (the state that is printed)."""
    from bookbuild.browser import launch, serve_site

    with serve_site(SITE, prefix=pdf_tool.site_prefix(SITE)) as base, launch() as browser:
        page = browser.new_page()
        page.goto(base + PRINT_PAGE[lang], timeout=300_000)   # 2 MB: a minute on a busy machine
        page.wait_for_load_state("load")
        page.wait_for_function(pdf_tool.READY, timeout=60_000, polling=100)
        page.emulate_media(media="print")
        page.evaluate(pdf_tool.PREPARE)
        facts = page.evaluate(FACTS)
        facts["outside"] = list(page.outside)
        return facts


FACTS = r"""() => {
  const shown = (el) => {
    if (!el || el.getClientRects().length === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const hasContent = (el) => shown(el) && (
    [...el.querySelectorAll('img, svg, canvas, table'), el].some((x) =>
      x.matches('img') ? x.naturalWidth > 0 && shown(x) : x.matches('svg, canvas, table') && shown(x))
    || el.innerText.trim().length > 0);
  const book = document.querySelector('#print-site-page');
  const printedFolds = () => [...book.querySelectorAll('details')].filter((d) => !d.closest('.screen-only'));
  return {
    pageTitles: [...book.querySelectorAll('section.print-page:not(.md-section) > h1')].map((h) => h.innerText.trim()),
    figures: [...book.querySelectorAll('img[src*="figures/"]')].map((img) => ({
      src: img.getAttribute('src'), loaded: img.naturalWidth > 0, shown: shown(img)})),
    // folds that print: not those a live widget draws inside its .screen-only box (an exercise's
    // hints and solution; the exercise prints its solution in its own print-only form)
    closedAnswers: printedFolds().filter((d) => !d.open || !shown(d.querySelector(':scope > :not(summary)'))).length,
    answers: printedFolds().map((d) => {
      const answer = (d.querySelector(':scope > p') || d).cloneNode(true);
      answer.querySelectorAll('.arithmatex, .katex, code').forEach((m) => m.replaceWith('\u0000'));
      // the longest run of plain text (formulas and code read differently in a PDF's text layer)
      return answer.textContent.split('\u0000').sort((a, b) => b.length - a.length)[0].trim().slice(0, 40);
    }),
    rawMath: [...book.querySelectorAll('.arithmatex')].filter((m) => !m.querySelector('.katex')).map((m) => m.textContent),
    katexErrors: [...book.querySelectorAll('.katex-error')].map((m) => m.textContent),
    codeBlocks: [...book.querySelectorAll('.highlight pre')].map((pre) => pre.innerText.trim().split('\n')[0]),
    screenOnlyPrinted: [...book.querySelectorAll('.screen-only')].filter(shown).length,
    widgets: [...book.querySelectorAll('[data-widget]')].map((w) => {
      const inside = [...w.querySelectorAll('.print-only')];
      const beside = [w.previousElementSibling, w.nextElementSibling].filter((e) => e && e.matches('.print-only'));
      return {
        name: w.dataset.widget,
        printed: shown(w),
        staticInside: inside.some(hasContent),
        staticBeside: beside.some(hasContent),
      };
    }),
  };
}"""


@pytest.fixture(params=LANGS)
def lang(request):
    return request.param


def test_page_count(lang):
    pages = len(__import__("pypdf").PdfReader(pdf_path(lang)).pages)
    n = len(book_pages(lang))
    # A cover, a contents page, then at least one page per page of the book (and no runaway layout).
    assert 2 + n <= pages <= 2 + 40 * n, f"{lang}: {pages} PDF pages for {n} book pages"


def test_cover_names_book_language_and_build(lang):
    first = poppler("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", str(pdf_path(lang)), "-")
    info = offline_pdf.build_info()
    assert squeeze("看见注意力") in squeeze(first) and "SeeingAttention" in squeeze(first)
    assert LANGUAGE_NAMES[lang] in first, f"{lang}: the cover does not name its language"
    assert info["version"] in first, f"{lang}: the cover has no version"
    assert re.search(r"\d{4}-\d{2}-\d{2}", first), f"{lang}: the cover has no build date"


def test_every_chapter_and_section_title_is_in_the_text(lang):
    text = squeeze(pdf_text(lang))
    titles = chapter_titles(lang) + print_page_facts(lang)["pageTitles"]
    assert len(print_page_facts(lang)["pageTitles"]) == len(book_pages(lang)), "a page of the nav is missing from the print page"
    missing = [t for t in titles if squeeze(t) not in text]
    assert not missing, f"{lang}: titles missing from the PDF text: {missing}"


def test_contents_links_to_every_page_with_page_numbers(lang):
    named, links = pdf_tool.internal_links(pdf_path(lang).read_bytes())
    # The contents fills the pages before the first page it points to (more than two since chapter 12).
    first = min(target for _, _, target in links if target)
    contents = [(page, anchor, target) for page, anchor, target in links if page < first]
    assert len(contents) >= len(book_pages(lang)), f"{lang}: the contents has too few links"
    broken = [(page, anchor) for page, anchor, target in links if target is None]
    assert not broken, f"{lang}: internal links that lead nowhere: {broken}"
    contents_text = poppler("pdftotext", "-enc", "UTF-8", "-f", "2", "-l", str(first - 1), str(pdf_path(lang)), "-")
    for _, anchor, target in contents:
        assert re.search(rf"(?m)\b{target}\s*$", contents_text), f"{lang}: no page number {target} for #{anchor}"


def test_no_link_points_back_at_the_machine_that_printed_it(lang):
    from pypdf import PdfReader

    uris = []
    for page in PdfReader(pdf_path(lang)).pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            if action.get("/URI"):
                uris.append(str(action["/URI"]))
    local = [u for u in uris if re.match(r"(?:https?:)?//(?:127\.0\.0\.1|localhost)|file:", u)]
    assert not local, f"{lang}: links to the local print server: {local}"


def test_fonts_are_embedded(lang):
    rows = poppler("pdffonts", str(pdf_path(lang))).splitlines()[2:]
    assert rows, f"{lang}: no fonts in the PDF"
    # columns: name, type (1-2 words), encoding, emb, sub, uni, object, id: read from the right.
    not_embedded = [row for row in rows if row.split()[-5] != "yes"]
    assert not not_embedded, f"{lang}: fonts not embedded:\n" + "\n".join(not_embedded)


@functools.cache
def system_cmap() -> set[int]:
    """Every code point that some font installed for Chromium (fontconfig) can draw."""
    from fontTools.ttLib import TTCollection, TTFont

    covered: set[int] = set()
    for file in sorted(set(poppler("fc-list", "--format", "%{file}\n").split("\n")) - {""}):
        try:
            fonts = TTCollection(file, lazy=True).fonts[:1] if file.lower().endswith((".ttc", ".otc")) else [TTFont(file, lazy=True)]
        except Exception:  # not an sfnt font (e.g. a Type 1 font): Chromium does not use it either
            continue
        for font in fonts:
            covered |= set((font.getBestCmap() or {}).keys())
    return covered


def test_no_empty_glyph_boxes(lang):
    text = pdf_text(lang)
    assert "\ufffd" not in text, f"{lang}: the PDF text has replacement characters"
    drawable = system_cmap()
    missing = sorted({ch for ch in text if unicodedata.category(ch)[0] not in "CZ" and ord(ch) not in drawable})
    assert not missing, f"{lang}: characters no installed font can draw (empty boxes): {''.join(missing)}"
    if lang == "zh":
        assert ord("注") in drawable, "no CJK font installed: install Debian's fonts-noto-cjk (make setup)"


def test_figures_are_vector_and_all_printed(lang):
    figures = print_page_facts(lang)["figures"]
    assert all(urlparse(f["src"]).path.endswith(".svg") for f in figures)
    # Every figure is vector (matplotlib's imshow would embed a bitmap; matrix_image does not), so a
    # raster image in the PDF can only be something else (a form control, a PNG).
    images = poppler("pdfimages", "-list", str(pdf_path(lang))).splitlines()[2:]
    svgs = {urlparse(f["src"]).path for f in figures}
    site_root = SITE / ("en" if lang == "en" else "")
    embedded = {p: (site_root / p.split("/figures/")[-1].join(["figures/", ""])).read_text(encoding="utf-8").count("<image") for p in svgs}
    assert len(images) <= sum(embedded.values()) * 2, (
        f"{lang}: raster images in the PDF that no figure embeds (e.g. a form control or a PNG):\n" + "\n".join(images))
    with_bitmaps = sorted(p.rsplit("/", 1)[-1] for p, n in embedded.items() if n)
    assert not with_bitmaps, f"{lang}: figures that embed bitmaps instead of vector drawing (use matrix_image): {with_bitmaps}"
    sources = sorted({f for page in book_pages(lang) for f in re.findall(r"figures/([a-z0-9-]+)\.svg", source(lang, page))})
    printed = sorted({re.search(r"figures/([a-z0-9-]+)\.svg", f["src"])[1] for f in figures})
    assert set(sources) <= set(printed), f"{lang}: figures missing from the print page: {set(sources) - set(printed)}"
    bad = [f["src"] for f in figures if not (f["loaded"] and f["shown"])]
    assert not bad, f"{lang}: figures not drawn in print: {bad}"


def test_math_is_rendered(lang):
    facts = print_page_facts(lang)
    assert not facts["rawMath"], f"{lang}: formulas left as TeX: {facts['rawMath'][:5]}"
    assert not facts["katexErrors"], f"{lang}: KaTeX errors: {facts['katexErrors'][:5]}"
    raw = re.findall(r"\\\(|\\\)|\\\[|\\\]|\\frac|\\sum|\\sqrt", pdf_text(lang))
    assert not raw, f"{lang}: raw TeX in the PDF text: {raw[:10]}"


def test_listings_print_with_their_output(lang):
    text = squeeze(pdf_text(lang))
    listings = [m for page in book_pages(lang) for m in re.findall(r'--8<--\s+"([^"]+)"', source(lang, page))]
    blocks = print_page_facts(lang)["codeBlocks"]
    assert len(blocks) >= 2 * len(listings), f"{lang}: {len(blocks)} code/output blocks for {len(listings)} listings"
    missing = [b for b in blocks if not printed(b, text)]
    assert not missing, f"{lang}: listing or output lines missing from the PDF: {missing}"
    for listing in sorted(set(listings)):
        code = listing_source(listing, lang)       # the [zh]/[en] lines of this book only
        line = max((l.split("#")[0].strip() for l in code.splitlines()), key=len)
        assert printed(line, text), f"{lang}: listing {listing} is not in the PDF ({line!r})"


def screen_only_texts(lang: str) -> list[str]:
    """Words that belong to the screen only: the button and download link under each listing
    (bookbuild/playground.py), the playground's start-up status and key help (app.js), and the
    sentences that tell the reader to drag a slider of a widget the PDF shows as a figure."""
    from bookbuild import playground

    app = (ROOT / "overrides" / "assets" / "playground" / "app.js").read_text(encoding="utf-8")
    table = app[app.index(f"  {lang}: {{"):]
    idle = re.search(r'idle: "([^"：:]+)', table)[1]                  # "Python is not loaded yet" / "Python 还没加载"
    keys = re.search(r"keys: \(mod\) => `\$\{mod\}([^`]+)`", table)[1]   # "+Enter runs · Tab indents · ..."
    sliders = {"zh": ["拖动滑块改变得分的除数", "在第二步之后拖动滑块"],
               "en": ["Drag the slider to change what the scores are divided by", "drag the slider and watch the shares"]}
    # (not the playground link's own words: the playground page's text names that link to describe it)
    return [playground.EDIT_TEXT[lang], playground.DOWNLOAD_TEXT[lang].format(name="softmax_cake.py"), idle, keys, *sliders[lang]]


def test_screen_only_text_never_prints(lang):
    """A printed book has no buttons to press and no Python to load: none of that text is in the PDF."""
    text = squeeze(pdf_text(lang)).lower()
    found = [t for t in screen_only_texts(lang) if squeeze(t).lower() in text]
    assert not found, f"{lang}: screen-only text in the PDF: {found}"
    # the check can fail: each of these words is on the screen, in the built pages or scripts
    assert all(len(squeeze(t)) >= 4 for t in screen_only_texts(lang))


def test_folded_answers_print_open(lang):
    facts = print_page_facts(lang)
    assert facts["closedAnswers"] == 0, f"{lang}: {facts['closedAnswers']} answers print folded"
    text = squeeze(pdf_text(lang))
    missing = [a for a in facts["answers"] if not printed(a, text, every=False)]
    assert not missing, f"{lang}: answers missing from the PDF: {missing}"


def test_every_widget_has_a_static_form_in_print(lang):
    """Convention: a widget [data-widget] is class="screen-only" and has a class="print-only"
    static form right beside it, or it prints with visible print-only content inside it."""
    facts = print_page_facts(lang)
    assert facts["screenOnlyPrinted"] == 0, f"{lang}: .screen-only elements are printed"
    problems = []
    for w in facts["widgets"]:
        if w["printed"] and not w["staticInside"]:
            problems.append(f"widget {w['name']} prints as an empty/live box without print-only content inside")
        elif not w["printed"] and not (w["staticInside"] or w["staticBeside"]):
            problems.append(f"widget {w['name']} has no visible print-only static form beside it")
    assert not problems, f"{lang}:\n" + "\n".join(problems)
    assert not facts["outside"], f"{lang}: the print page asked for outside resources: {facts['outside']}"


def test_widget_rule_catches_an_empty_box():
    """The widget check itself: a bare widget fails it, a widget with a static form passes."""
    from bookbuild.browser import launch

    html = """<div id="print-site-page">
      <div data-widget="bare" style="height:80px"></div>
      <div data-widget="ok" class="screen-only" style="height:80px"></div>
      <div class="print-only"><svg width="40" height="40"><rect width="40" height="40"/></svg></div>
    </div>"""
    css = (ROOT / "overrides" / "assets" / "print.css").read_text(encoding="utf-8")
    with launch() as browser:
        page = browser.new_page()
        page.set_content(f"<style>{css}</style>{html}")
        page.emulate_media(media="print")
        widgets = {w["name"]: w for w in page.evaluate(FACTS)["widgets"]}
    assert widgets["bare"]["printed"] and not widgets["bare"]["staticInside"]
    assert not widgets["ok"]["printed"] and widgets["ok"]["staticBeside"]


def test_pdf_is_linked_from_home_page_and_nav():
    for lang in LANGS:
        home = SITE / ("en/" if lang == "en" else "") / "index.html"
        html = home.read_text(encoding="utf-8")
        name = offline_pdf.PDF_NAMES[lang]
        links = re.findall(rf'href="([^"]*{re.escape(name)})"', html)
        assert len(links) >= 2, f"{home}: expected a link to {name} in the text and the nav, found {links}"
        for link in links:
            assert (home.parent / link).resolve() == pdf_path(lang).resolve(), f"{home}: {link} does not reach the PDF"


def test_print_page_holds_each_pages_final_html(lang):
    """Hooks that change a page after print-site copied it (Chinese line joining, glossary
    terms) reach the PDF too: bookbuild/offline_pdf.py hands over the finished HTML."""
    root = SITE / ("en" if lang == "en" else "")
    printed = (root / "print_page" / "index.html").read_text(encoding="utf-8")
    pages = []
    for page in book_pages(lang):
        html = built_page(SITE, lang, page).read_text(encoding="utf-8")
        pages.append(html.split('<article', 1)[-1].split('</article>', 1)[0])
    assert printed.count("<abbr") >= sum(p.count("<abbr") for p in pages), f"{lang}: glossary terms missing on the print page"
    if lang == "zh":
        assert not re.search(r"[。，；：！？]\n\s*[\u4e00-\u9fff]", printed.split("<pre", 1)[0]), "Chinese lines not joined on the print page"
