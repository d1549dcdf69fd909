"""The offline PDFs of each language (made by `make pdf`: tools/pdf.py from the built print pages):
the student edition (the book) and the teacher's key.

Checks the PDFs themselves (pdftotext, pdffonts, pdfimages from poppler-utils; links and text
with pypdf) and the print page they were printed from, in Chromium with print media (figures,
answers, widgets, words that only mean something on screen).
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


def pdf_path(lang: str, edition: str = "student") -> Path:
    path = SITE / "pdf" / offline_pdf.pdf_name(lang, edition)
    assert path.is_file(), f"{path} missing: run `make pdf` (it builds the site and prints both editions)"
    return path


def poppler(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@functools.cache
def pdf_text(lang: str, edition: str = "student") -> str:
    """The text of the PDF without running heads and page numbers, read twice: in reading
    order, then by physical layout (which keeps a line of code output on one line)."""
    texts = []
    for mode in ([], ["-layout"]):
        pages = poppler("pdftotext", *mode, "-enc", "UTF-8", str(pdf_path(lang, edition)), "-").split("\f")
        texts.append("\n".join(line for page in pages for line in page.splitlines()
                               if squeeze(line) not in HEADS and not re.fullmatch(r"\s*\d+\s*", line)))
    return "\n\f\n".join(texts)


SMART = str.maketrans("‘’", "''")   # the page's typography (SmartyPants) curls a source's apostrophes


def squeeze(text: str) -> str:
    """Text without any whitespace: a PDF breaks lines (and Chinese has no spaces) anywhere; an
    apostrophe straight or curled."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(SMART))


HEADS = {squeeze(h) for h in [*pdf_tool.RUNNING_HEAD.values(), *pdf_tool.KEY_HEAD.values()]}  # left out of the text


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
    from bookbuild.publish import public_prefix

    with serve_site(SITE, prefix=public_prefix(SITE)[1]) as base, launch() as browser:
        page = browser.new_page()
        page.goto(base + PRINT_PAGE[lang], timeout=300_000)   # 2 MB: a minute on a busy machine
        page.wait_for_load_state("load")
        page.wait_for_function(pdf_tool.script("ready"), timeout=60_000, polling=100)
        page.emulate_media(media="print")
        page.evaluate(pdf_tool.script("prepare"), pdf_tool.MAX_NAME)
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
    answers: printedFolds().filter((d) => d.matches('.question, .q-answer')).map((d) => {
      // a folded question's answer is its first paragraph; a checked question's, its whole fold
      // (the first line only says which choice or number)
      const answer = (d.matches('.q-answer') ? d : (d.querySelector(':scope > p') || d)).cloneNode(true);
      answer.querySelectorAll(':scope > summary').forEach((m) => m.remove());
      answer.querySelectorAll('.arithmatex, .katex, code').forEach((m) => m.replaceWith('\u0000'));
      // the longest run of plain text (formulas and code read differently in a PDF's text layer)
      return answer.textContent.split('\u0000').sort((a, b) => b.length - a.length)[0].trim().slice(0, 40);
    }),
    questions: [...printedFolds().filter((d) => d.matches('.question')).map((d) => d.querySelector('summary').innerText.trim()),
                ...[...book.querySelectorAll('.attn-question .q-prompt')].map((p) => p.innerText.trim())],   // checked questions
    printedText: book.innerText,
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


@pytest.mark.parametrize("edition", pdf_tool.EDITIONS)
def test_every_name_fits_in_a_pdf_name(lang, edition):
    """A named destination (a link's target, named by its id percent-encoded) is a PDF name: at
    most 127 bytes. Before tools/pdf.py shortened long ids, 41 headings of the Chinese book (up to
    178 bytes) were longer, and poppler reported each as a syntax error."""
    path = pdf_path(lang, edition)
    assert not pdf_tool.long_names(path), f"{lang} ({edition}): names over {pdf_tool.MAX_NAME} bytes"
    errors = subprocess.run(["pdfinfo", "-dests", str(path)], check=True, capture_output=True, text=True).stderr
    assert "Syntax Error" not in errors, f"{lang} ({edition}): poppler reports:\n{errors[:2000]}"


@pytest.mark.parametrize("edition", pdf_tool.EDITIONS)
def test_every_font_is_named_and_embedded(lang, edition):
    """pdffonts: every font embedded, with a name, and none a Type 3 font (what Chromium makes of
    a CFF font such as the installed Noto CJK: each glyph a drawing, no name; bookbuild/pdf_fonts.py
    gives the CJK fonts TrueType outlines)."""
    rows = poppler("pdffonts", str(pdf_path(lang, edition))).splitlines()[2:]
    assert rows, f"{lang}: no fonts in the PDF"
    # columns: name, type (1-2 words), encoding, emb, sub, uni, object, id: read from the right.
    not_embedded = [row for row in rows if row.split()[-5] != "yes"]
    assert not not_embedded, f"{lang} ({edition}): fonts not embedded:\n" + "\n".join(not_embedded)
    unnamed = [row for row in rows if row.startswith("[none]") or " Type 3 " in row]
    assert not unnamed, f"{lang} ({edition}): Type 3 or unnamed fonts:\n" + "\n".join(unnamed[:10])
    if lang == "zh":
        assert any("NotoSansCJKsc" in row and "CID TrueType" in row for row in rows), rows


@pytest.mark.parametrize("edition", pdf_tool.EDITIONS)
def test_each_pdf_is_at_most_6_mb(lang, edition):
    size = pdf_path(lang, edition).stat().st_size
    assert size <= 6 * 1024 * 1024, f"{lang} ({edition}): {size / 1024 / 1024:.1f} MB (issue 38: at most 6)"


def chinese_sentences(count: int = 24) -> list[str]:
    """Sentences of the Chinese book's prose, spread over it: one sentence per line in the sources
    (a line of 12-60 characters, mostly Chinese, with no markup, formula or number macro, not in
    a fold), that the print page prints."""
    printed_text = squeeze(print_page_facts("zh")["printedText"])
    found = []
    for page in book_pages("zh"):
        for line in source("zh", page).splitlines():
            if (12 <= len(line) <= 60 and line.endswith("。") and not line[0].isspace() and not re.search(r"[\\{}<>\[\]`*|#$_]", line)
                    and sum("\u4e00" <= c <= "\u9fff" for c in line) >= 0.7 * len(line) and squeeze(line) in printed_text):
                found.append(line)
    step = max(1, len(found) // count)
    return found[::step][:count]


def test_chinese_text_can_be_selected_searched_and_copied():
    """A sample of the Chinese book's sentences is found in the PDF's text as poppler extracts it
    (search, copy) and as pypdf does (another reader's text layer), character for character."""
    from pypdf import PdfReader

    sentences = chinese_sentences()
    assert len(sentences) >= 20, sentences
    popper_text = squeeze(pdf_text("zh"))
    reader_text = squeeze("".join(page.extract_text() or "" for page in PdfReader(pdf_path("zh")).pages))
    missing = [s for s in sentences if squeeze(s) not in popper_text]
    assert not missing, f"not found by pdftotext: {missing}"
    missing = [s for s in sentences if squeeze(s) not in reader_text]
    assert not missing, f"not found by pypdf: {missing}"


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


def solution_lines(lang: str) -> dict[str, list[str]]:
    """{exercise id: the lines of its reference solution (in ``lang``) that nothing else the
    print page prints has}: the starting code, a listing or the prose may share a line with a
    solution (``e = np.exp(x - np.max(x))``); such a line proves nothing."""
    from bookbuild import exercise_pages

    printed_text = squeeze(print_page_facts(lang)["printedText"])
    found = {}
    for exercise_id, (_, ex) in exercise_pages.load_all().items():
        lines = [line.split("#")[0].strip() for line in exercise_pages.for_language(ex.solution, lang).splitlines()]
        own = [line for line in lines if len(squeeze(line)) >= 10 and printed_text.count(squeeze(line)) == 1]
        if own:
            found[exercise_id] = own
    return found


def own_answers(lang: str) -> list[str]:
    """The folded answers' longest runs of plain text that nothing else the print page prints has."""
    facts = print_page_facts(lang)
    printed_text = squeeze(facts["printedText"])
    return [a for a in facts["answers"] if len(squeeze(a)) >= 12 and printed_text.count(squeeze(a)) == 1]


def test_student_edition_holds_no_answer_and_no_solution(lang):
    """Not one folded answer (its longest run of plain text) and not one line of a reference
    solution is in the student edition (the lines and runs that the rest of the book does not
    print too); every question is."""
    facts = print_page_facts(lang)
    assert facts["closedAnswers"] == 0, f"{lang}: {facts['closedAnswers']} answers print folded"
    text = squeeze(pdf_text(lang, "student"))
    answers = own_answers(lang)
    assert len(answers) >= 60, f"{lang}: only {len(answers)} answers found on the print page"
    leaked = [a for a in answers if squeeze(a) in text]
    assert not leaked, f"{lang}: answers in the student edition: {leaked[:5]}"
    solutions = solution_lines(lang)
    assert len(solutions) >= 20, solutions
    leaked = [f"{i}: {line}" for i, lines in solutions.items() for line in lines if squeeze(line) in text]
    assert not leaked, f"{lang}: reference solutions in the student edition: {leaked[:5]}"
    questions = [q for q in facts["questions"] if len(squeeze(q)) >= 8]
    assert len(questions) >= 60, questions
    missing = [q for q in questions if not printed(q, text)]
    assert not missing, f"{lang}: questions missing from the student edition: {missing[:5]}"


def test_teacher_key_holds_every_answer_and_solution(lang):
    facts = print_page_facts(lang)
    text = squeeze(pdf_text(lang, "key"))
    missing = [a for a in facts["answers"] if not printed(a, text, every=False)]
    assert not missing, f"{lang}: answers missing from the teacher's key: {missing}"
    missing = [f"{i}: {line}" for i, lines in solution_lines(lang).items() for line in lines if not printed(line, text)]
    assert not missing, f"{lang}: reference solutions missing from the teacher's key: {missing}"
    cover = poppler("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", str(pdf_path(lang, "key")), "-")
    assert squeeze(pdf_tool.KEY_HEAD[lang].split("·")[-1]) in squeeze(cover), f"{lang}: the key's cover does not say what it is"


def test_exercises_print_as_worksheets(lang):
    """Each exercise of the student edition: its task, its starting code, then ruled room
    labelled "Your code:" (tools/pdf.py WORKSHEET)."""
    from bookbuild import exercise_pages

    text = pdf_text(lang, "student")
    label = pdf_tool.WORKSHEET[lang]["code"]
    embedded = [e for e, page in exercise_pages.embedded_in(lang).items() if page in book_pages(lang)]
    assert text.split("\f")[0].count(label) == len(embedded), (
        f"{lang}: {text.split(chr(12))[0].count(label)} worksheets for {len(embedded)} exercises")
    squeezed = squeeze(text)
    for exercise_id in embedded:
        _, ex = exercise_pages.load_all()[exercise_id]
        starter = [line.strip() for line in exercise_pages.for_language(ex.starter, lang).splitlines() if line.strip()]
        assert printed(max(starter, key=len), squeezed), f"{lang}: {exercise_id}'s starting code is not printed"


SCREEN_WORDS = {
    # an action only a screen answers: press, click, tap, drag, a slider, hover, scroll, a button...
    "en": re.compile(r"\b(?:press(?:es|ing)?|click(?:s|ed|ing)?|tap(?:s|ping)?|drag(?:s|ged|ging)?|sliders?|"
                     r"hover(?:s|ing)?|scroll(?:s|ing)?|buttons?|tick|type your|menu)\b", re.I),
    "zh": re.compile(r"按下|点击|点开|点一下|轻点|轻触|拖动|拖一拖|可以拖|滑块|悬停|鼠标|按钮|输入你|勾上|勾选|菜单|"
                     r"可以点|能点|直接点|按“[^”]{1,10}”[，：]"),
}
# A sentence may name such an action on paper when it says where it happens (the book's website),
# and a publisher is a Press.
SCREEN_WORDS_ALLOWED = {"en": re.compile(r"website|web page|University Press|idea truly clicks"),
                        "zh": re.compile(r"网站上|网页上")}


def screen_sentences(text: str, lang: str) -> list[str]:
    """The sentences of ``text`` that ask for something only a screen can do.

    >>> screen_sentences('Press “Check my code” and see. Every number is computed.', "en")
    ['Press “Check my code” and see.']
    >>> screen_sentences("按“检查我的代码”，浏览器会试。它按“位置”转。网站上可以拖动滑块。", "zh")
    ['按“检查我的代码”，浏览器会试']
    """
    sentences = re.split(r"(?<=[.!?;:])\s+|[。！？；\n]", text)
    return [s.strip() for s in sentences if SCREEN_WORDS[lang].search(s) and not SCREEN_WORDS_ALLOWED[lang].search(s)]


def test_nothing_that_only_works_on_screen_prints(lang):
    """The print page's printed text (print media: .screen-only hidden) asks the reader to press,
    click, tap, drag, hover or scroll nowhere, and names no slider, button or menu, unless it says
    that this happens on the book's website."""
    found = screen_sentences(print_page_facts(lang)["printedText"], lang)
    assert not found, f"{lang}: screen-only words on paper:\n" + "\n".join(found)


def test_concept_table_prints_as_a_landscape_handout(lang):
    """7.1's concept table: on landscape pages of their own (print.css @page handout), two at most."""
    from pypdf import PdfReader

    head = {"zh": ["生活比喻", "准确含义"], "en": ["Everyday", "Precise meaning"]}[lang]
    pages = poppler("pdftotext", "-enc", "UTF-8", str(pdf_path(lang)), "-").split("\f")
    with_table = [i for i, page in enumerate(pages) if all(h in page for h in head)]
    assert 1 <= len(with_table) <= 2, f"{lang}: the concept table spans pages {with_table}"
    reader = PdfReader(pdf_path(lang))
    for i in with_table:
        box = reader.pages[i].mediabox
        assert box.width > box.height, f"{lang}: page {i + 1} of the concept table is not landscape"


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
    """The student edition from the home page's text and the nav; the teacher's key from the text."""
    for lang in LANGS:
        home = SITE / ("en/" if lang == "en" else "") / "index.html"
        html = home.read_text(encoding="utf-8")
        for edition, least in (("student", 2), ("key", 1)):
            name = offline_pdf.pdf_name(lang, edition)
            links = re.findall(rf'href="([^"]*{re.escape(name)})"', html)
            assert len(links) >= least, f"{home}: expected {least} links to {name}, found {links}"
            for link in links:
                assert (home.parent / link).resolve() == pdf_path(lang, edition).resolve(), f"{home}: {link} does not reach the PDF"


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
