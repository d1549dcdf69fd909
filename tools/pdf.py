"""Print the whole book, two editions per language, from the built site.

    python tools/pdf.py [--site site] [--lang zh en] [--edition student key]

Prints site/print_page/ (zh) and site/en/print_page/ (en), written by mkdocs-print-site-plugin, in
headless Chromium (bookbuild/browser.py) into site/pdf/ (names: bookbuild/offline_pdf.py):

* the student edition: the book with no answer and no reference solution; each coding exercise
  prints as a worksheet (the task, the starting code, ruled room to write), each question with a
  few ruled lines under it;
* the teacher's key: for every page that has them, its questions with their answers and its
  exercises with a reference solution, with its own contents.

Before printing it loads the print-only figures (lazy on screen: bookbuild/print_only.py), waits
for the formulas, figures and fonts, opens every folded answer and checks that nothing was asked
from outside the site. Chinese is drawn with Noto CJK given TrueType outlines (bookbuild/pdf_fonts.py:
Chromium writes CFF fonts as Type 3). The contents get page numbers in passes: print, read where
each contents link lands, write the numbers in, print again until they settle. qpdf then packs the
PDF's objects into compressed object streams (the tags for screen readers were a third of its bytes).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from bookbuild import pdf_fonts  # noqa: E402
from bookbuild.browser import launch, serve_site  # noqa: E402
from bookbuild.offline_pdf import pdf_name  # noqa: E402  (the build names the files)
from bookbuild.publish import public_prefix  # noqa: E402

PRINT_PAGE = {"zh": "/print_page/", "en": "/en/print_page/"}
EDITIONS = ("student", "key")
RUNNING_HEAD = {"zh": "看见注意力 · Seeing Attention", "en": "Seeing Attention · 看见注意力"}
KEY_HEAD = {"zh": "看见注意力 · 教师答案册", "en": "Seeing Attention · Teacher's key"}
WORKSHEET = {"zh": {"code": "你的代码：", "answer": "你的回答："},   # the worksheets' labels
             "en": {"code": "Your code:", "answer": "Your answer:"}}

# A helper of the scripts below: a new element of a class, with children (nodes or text).
ELEMENT = """const element = (tag, className, ...children) => {
    const el = document.createElement(tag);
    el.className = className;
    el.append(...children);
    return el;
  };"""

# The student edition: no answer, no reference solution. A folded question keeps its question
# (the summary) and gets ruled lines; an exercise's printed form (bookbuild/exercise_pages.py: the
# starting code, then the solution in a fold) loses the fold and gets ruled room for as many
# lines as the solution has, and a few more. Returns what it changed.
STUDENT = r"""(words) => {
  """ + ELEMENT + r"""
  const book = document.querySelector('#print-site-page');
  const ruled = (lines, label) => element('div', 'worksheet-room', element('p', 'worksheet-room__label', label),
    ...Array.from({length: lines}, () => element('div', 'worksheet-room__line')));
  let questions = 0, exercises = 0, solutions = 0;
  for (const form of book.querySelectorAll('[data-widget="exercise"] + .print-only')) {
    const solution = form.querySelector('details');
    const lines = solution ? solution.querySelector('pre').innerText.trim().split('\n').length : 8;
    if (solution) solution.remove();
    form.classList.add('worksheet');
    form.append(ruled(Math.max(8, lines + 3), words.code));
    exercises += 1;
  }
  for (const d of book.querySelectorAll('details.question')) {
    const question = element('p', 'worksheet-question__text', ...d.querySelector(':scope > summary').childNodes);
    d.replaceWith(element('div', 'worksheet-question', question, ruled(3, words.answer)));
    questions += 1;
  }
  // any other reference solution (a success fold) leaves too
  for (const d of book.querySelectorAll('details.success')) { d.remove(); solutions += 1; }
  return {questions, exercises, solutions};
}"""

# The teacher's key: each page keeps its title and, in order, its questions, folded or checked (with their answers)
# and its exercises (the task before the widget, the printed form with its reference solution),
# each run under the heading it sits under; pages and chapters left empty go, and so do their
# entries in the contents. Returns what it kept.
KEY = """() => {
  const book = document.querySelector('#print-site-page');
  let questions = 0, exercises = 0;
  for (const page of book.querySelectorAll('section.print-page[heading-number]:not(.md-section)')) {
    const title = page.querySelector(':scope > h1');
    const kept = [];
    let heading = null, shown = null;
    for (const el of page.querySelectorAll('h2, h3, details.question, .attn-question, [data-widget="exercise"]')) {
      if (el.matches('h2, h3')) { heading = el; continue; }
      if (heading && heading !== shown) { kept.push(heading); shown = heading; }
      if (el.matches('details.question, .attn-question')) { kept.push(el); questions += 1; continue; }   // folded or checked
      const task = [];
      for (let p = el.previousElementSibling; p && !p.matches('h1, h2, h3, h4'); p = p.previousElementSibling) {
        if (!p.matches('.screen-only, [data-widget]')) task.unshift(p);
      }
      kept.push(...task, ...[el.nextElementSibling].filter((form) => form && form.matches('.print-only')));
      exercises += 1;
    }
    if (kept.length) page.replaceChildren(...[title, ...kept].filter(Boolean));
    else page.remove();
  }
  book.querySelectorAll('section.print-page.md-section').forEach((chapter) =>
    chapter.querySelector('section.print-page[heading-number]') || chapter.remove());
  for (const a of [...document.querySelectorAll('#print-page-toc a[href]')]) {   // the page's own URL + #id
    const id = decodeURIComponent(new URL(a.href, location.href).hash.slice(1));
    if (id && !document.getElementById(id)) a.closest('li').remove();
  }
  document.querySelectorAll('#print-page-toc ul').forEach((list) => list.querySelector('li') || list.remove());
  return {questions, exercises};
}"""

# Print-only figures are loading="lazy" (never fetched on screen): fetch them for print.
EAGER = """() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => { img.loading = 'eager'; })"""

# The longest name a PDF may hold, in bytes (PDF 1.7, Annex C.2): a named destination is one.
MAX_NAME = 127

# True when the page is ready to print: math typeset, figures decoded, fonts loaded.
READY = """() => [...document.querySelectorAll('.arithmatex')].every((el) => el.querySelector('.katex'))
  && [...document.images].every((img) => img.complete) && document.fonts.status === 'loaded'"""

PREPARE = """() => {
  const MAX_NAME = """ + str(MAX_NAME) + """;
  """ + ELEMENT + """
  document.querySelectorAll('details').forEach((d) => d.setAttribute('open', ''));
  // Links inside the book become links inside the PDF: same-page anchors are made plain '#id'
  // (a PDF viewer cannot follow a link back to the local server that printed it).
  const here = location.origin + location.pathname;
  const leaks = [];
  for (const a of document.querySelectorAll('#print-site-page a[href]')) {
    const url = new URL(a.getAttribute('href'), location.href);
    if (url.origin !== location.origin) continue;
    if (url.origin + url.pathname === here && url.hash) a.setAttribute('href', url.hash);
    else if (!a.closest('.screen-only')) leaks.push(a.getAttribute('href'));
  }
  // Chromium names a link's destination in the PDF by the target's id, percent-encoded; a PDF
  // name is at most 127 bytes (PDF 1.7, Annex C), and 41 ids of the Chinese book (a heading's id
  // holds its words: ch10-sharing-kv-每个词元… is 178 bytes encoded) were longer: poppler reports
  // each as a syntax error and a reader that keeps to the limit may not follow the link. Such a
  // target gets a short id (pdf-1, pdf-2, ...) and its links follow. encodeURIComponent escapes
  // at least what Chromium does; print_edition checks the names in the PDF.
  const targets = new Map();
  for (const a of document.querySelectorAll('#print-site-page a[href^="#"]')) {
    const id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (encodeURIComponent(id).length > MAX_NAME) (targets.get(id) || targets.set(id, []).get(id)).push(a);
  }
  let renamed = 0;
  for (const [id, links] of targets) {
    const target = document.getElementById(id);
    if (!target) continue;
    do renamed += 1; while (document.getElementById(`pdf-${renamed}`));
    target.id = `pdf-${renamed}`;
    links.forEach((a) => a.setAttribute('href', `#${target.id}`));
  }
  // A heading that does not print (inside .screen-only: the playground's instructions) is not
  // listed in the contents.
  for (const a of [...document.querySelectorAll('#print-page-toc a[href^="#"]')]) {
    const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    if (target && target.getClientRects().length === 0) a.closest('li').remove();
  }
  // A chapter whose first page is its own index page (same title): print that title once,
  // and list it once in the contents (the chapter entry leads to it).
  for (const chapter of document.querySelectorAll('#print-site-page section.md-section')) {
    const heading = chapter.querySelector(':scope > h1');
    const first = chapter.querySelector(':scope > section.print-page');
    const firstTitle = first && first.querySelector(':scope > h1');
    const text = (h) => { const c = h.cloneNode(true); c.querySelectorAll('.headerlink').forEach((x) => x.remove()); return c.textContent.trim(); };
    if (!heading || !firstTitle || text(heading) !== text(firstTitle)) continue;
    heading.remove();
    for (const a of document.querySelectorAll('#print-page-toc a')) {
      if (new URL(a.href, location.href).hash === '#' + first.id) a.closest('li').remove();
    }
  }
  // Contents entries: title, dotted leader, page number (filled in after the first pass).
  const entries = [...document.querySelectorAll('#print-page-toc a[href^="#"]')];
  for (const a of entries.filter((a) => !a.querySelector('.toc-title'))) {
    a.append(element('span', 'toc-title', ...a.childNodes), element('span', 'toc-leader'), element('span', 'toc-page'));
  }
  return {anchors: entries.map((a) => decodeURIComponent(a.getAttribute('href').slice(1))), leaks};
}"""

BROKEN = """() => [
  ...[...document.images].filter((img) => img.complete && img.naturalWidth === 0)
    .map((img) => 'figure did not load: ' + img.getAttribute('src')),
  ...[...document.querySelectorAll('.katex-error')].map((el) => 'KaTeX error: ' + el.textContent)]"""

SET_NUMBERS = """(numbers) => {
  document.querySelectorAll('#print-page-toc a[href^="#"]').forEach((a) => {
    const n = numbers[decodeURIComponent(a.getAttribute('href').slice(1))];
    a.querySelector('.toc-page').textContent = n === undefined ? '' : String(n);
  });
}"""


def _reader(pdf):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)


def _dest_name(value) -> str:
    """'/ch3-softmax' or '/index-%E5%B0%8F' (a PDF name) -> 'ch3-softmax', 'index-小'."""
    return unquote(str(value).removeprefix("/"))


def internal_links(pdf) -> tuple[dict[str, int], list[tuple[int, str, int | None]]]:
    """Where the PDF's named destinations are, and every internal link in it.

    Returns ({anchor: 1-based page}, [(page of the link, anchor, page it leads to or None)]).
    """
    reader = _reader(pdf)
    named = {_dest_name(name): reader.get_destination_page_number(dest) + 1
             for name, dest in reader.named_destinations.items()}
    links = []
    for number, page in enumerate(reader.pages, 1):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest, action = annot.get("/Dest"), annot.get("/A")
            if dest is None and action is not None and action.get("/S") == "/GoTo":
                dest = action.get("/D")
            if dest is not None and not isinstance(dest, list):
                links.append((number, _dest_name(dest), named.get(_dest_name(dest))))
    return named, links


def long_names(pdf) -> list[str]:
    """The named destinations of a PDF whose names are longer than a PDF name may be (MAX_NAME bytes)."""
    return [name for name in _reader(pdf).named_destinations if len(str(name).removeprefix("/").encode()) > MAX_NAME]


def type3_fonts(pdf) -> list[str]:
    """The Type 3 fonts of a PDF (each glyph a drawing: what Chromium makes of a CFF font), by page."""
    found = []
    for number, page in enumerate(_reader(pdf).pages, 1):
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        found += [f"page {number}: {name}" for name, font in fonts.items() if font.get_object().get("/Subtype") == "/Type3"]
    return found


def pack(pdf: bytes) -> bytes:
    """The same PDF with its objects in compressed object streams and every stream recompressed
    (qpdf, lossless): Chromium writes each of ~32 000 tags for screen readers as a plain object."""
    if shutil.which("qpdf") is None:
        raise SystemExit("tools/pdf.py needs qpdf: install Debian's qpdf package (make setup does it).")
    with tempfile.TemporaryDirectory() as tmp:
        raw, packed = Path(tmp) / "raw.pdf", Path(tmp) / "packed.pdf"
        raw.write_bytes(pdf)
        subprocess.run(["qpdf", "--object-streams=generate", "--compress-streams=y", "--recompress-flate",
                        "--compression-level=9", "--deterministic-id", str(raw), str(packed)], check=True)
        return packed.read_bytes()


def print_edition(browser, base: str, lang: str, edition: str, out: Path) -> dict:
    page = browser.new_page(1280, 900)
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    # The print page is 2 MB with every figure: on a busy machine its load took 65 s (Playwright's default is 30)
    page.goto(base + PRINT_PAGE[lang], timeout=300_000)
    page.wait_for_load_state("load")
    page.evaluate(EAGER)
    page.wait_for_function(READY, timeout=60_000, polling=100)
    page.emulate_media(media="print")
    head = (RUNNING_HEAD if edition == "student" else KEY_HEAD)[lang]
    page.add_style_tag(content=f'@page {{ @top-center {{ content: "{head.replace(chr(34), "")}"; }} }} '
                               '@page :first { @top-center { content: none; } }')
    page.add_style_tag(path=str(ROOT / "overrides" / "print" / "pdf.css"))     # the print page's own layout
    page.evaluate(f"() => {{ document.documentElement.dataset.edition = {edition!r}; }}")
    kept = page.evaluate(STUDENT, WORKSHEET[lang]) if edition == "student" else page.evaluate(KEY)
    prepared = page.evaluate(PREPARE)
    anchors = prepared["anchors"]
    page.wait_for_function(READY, timeout=60_000, polling=100)
    problems = page.evaluate(BROKEN)
    if not anchors:
        problems.append("the table of contents has no entries")
    if not (kept["questions"] and kept["exercises"]):
        problems.append(f"the {edition} edition found no questions or no exercises: {kept}")
    problems += [f"link to the local site that the PDF cannot follow: {href}" for href in prepared["leaks"]]
    if page.outside:
        problems.append(f"requests to outside the site: {page.outside}")
    problems += [f"failed to load: {url}" for url in failed]
    if page.errors:
        problems.append(f"errors in the page: {page.errors}")
    if problems:
        raise SystemExit(f"{lang} ({edition}): not printing a broken book:\n  " + "\n  ".join(problems))

    numbers: dict[str, int] = {}
    for attempt in range(4):
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True, outline=True, tagged=True)
        where, _ = internal_links(pdf)
        if too_long := long_names(pdf):
            raise SystemExit(f"{lang} ({edition}): PDF names longer than {MAX_NAME} bytes (PREPARE shortens the ids "
                             f"links point at): {too_long[:5]}")
        if missing := [a for a in anchors if a not in where]:
            raise SystemExit(f"{lang} ({edition}): contents links that lead nowhere in the PDF: {missing}")
        found = {a: where[a] for a in anchors}
        if found == numbers:
            break
        numbers = found
        page.evaluate(SET_NUMBERS, numbers)
    else:
        raise SystemExit(f"{lang} ({edition}): contents page numbers did not settle: {numbers}")
    page.close()
    packed = pack(pdf)
    if type3 := type3_fonts(packed):
        raise SystemExit(f"{lang} ({edition}): fonts embedded as Type 3 (a CFF font Chromium drew as pictures; "
                         f"bookbuild/pdf_fonts.py gives the CJK fonts TrueType outlines): {type3[:5]}")
    path = out / pdf_name(lang, edition)
    path.write_bytes(packed)
    return {"path": path, "pages": len(_reader(packed).pages), "bytes": len(packed), "unpacked": len(pdf), "kept": kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--lang", nargs="+", default=list(PRINT_PAGE), choices=list(PRINT_PAGE))
    parser.add_argument("--edition", nargs="+", default=list(EDITIONS), choices=list(EDITIONS))
    args = parser.parse_args()
    out = args.site / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    if "BOOK_PDF_FONTS" not in os.environ:
        # Chromium draws Chinese with Noto CJK given TrueType outlines (bookbuild/pdf_fonts.py): a
        # fontconfig of its own, cut to the characters of both print pages and the words added here,
        # made once and handed through the environment to one process per language, which run at
        # the same time: a language's print is mostly Chromium laying out ~240 pages on one core.
        with tempfile.TemporaryDirectory(prefix="book-pdf-fonts-") as fonts:
            extra = "".join([*RUNNING_HEAD.values(), *KEY_HEAD.values(),
                             *(word for words in WORKSHEET.values() for word in words.values())])
            pages = [args.site / PRINT_PAGE[lang].strip("/") / "index.html" for lang in PRINT_PAGE]
            env = {**os.environ, "BOOK_PDF_FONTS": fonts, "FONTCONFIG_FILE": str(
                pdf_fonts.fontconfig(Path(fonts), pdf_fonts.page_characters(*pages) + extra))}
            runs = [subprocess.Popen([sys.executable, __file__, "--site", str(args.site), "--lang", lang,
                                      "--edition", *args.edition], env=env) for lang in args.lang]
            if failed := [lang for lang, run in zip(args.lang, runs) if run.wait() != 0]:
                sys.exit(f"tools/pdf.py: printing failed for {', '.join(failed)} (see above)")
        return
    with serve_site(args.site, prefix=public_prefix(args.site)[1]) as base, launch() as browser:
        for lang in args.lang:
            for edition in args.edition:
                start = time.perf_counter()
                result = print_edition(browser, base, lang, edition, out)
                shown = result["path"].relative_to(ROOT) if result["path"].is_relative_to(ROOT) else result["path"]
                print(f"{shown}: {result['pages']} pages, {result['bytes'] / 1024:.0f} KiB (Chromium wrote "
                      f"{result['unpacked'] / 1024:.0f}), {result['kept']['questions']} questions, "
                      f"{result['kept']['exercises']} exercises, {time.perf_counter() - start:.1f} s "
                      f"(load average {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
