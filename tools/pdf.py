"""Print the whole book, two editions per language, from the built site.

    python tools/pdf.py [--site site] [--lang zh en] [--edition student key]

Prints each language's print page (mkdocs-print-site-plugin's) in headless Chromium into site/pdf/
(names: bookbuild/offline_pdf.py): the student edition (no answers; exercises and questions as
worksheets with ruled room) and the teacher's key (each page's questions with their answers, its
exercises with a reference solution). What runs in the page is overrides/print/pdf.js, its layout
overrides/print/pdf.css; Chinese is drawn with Noto CJK given TrueType outlines (bookbuild/pdf_fonts.py).
The contents get their page numbers in passes (print, read where each entry lands, write the numbers
in, until they settle); qpdf then packs the PDF (its tags for screen readers were a third of its bytes).
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

# The longest name a PDF may hold, in bytes (PDF 1.7, Annex C.2): a named destination is one.
MAX_NAME = 127
SCRIPTS = (ROOT / "overrides" / "print" / "pdf.js").read_text(encoding="utf-8")


def script(name: str) -> str:
    """The function ``name`` of overrides/print/pdf.js, as page.evaluate takes it (one argument)."""
    return f"(arg) => {{\n{SCRIPTS}\nreturn {name}(arg);\n}}"


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
    with tempfile.NamedTemporaryFile(suffix=".pdf") as raw:
        raw.write(pdf)
        raw.flush()
        return subprocess.run(["qpdf", "--object-streams=generate", "--compress-streams=y", "--recompress-flate",
                               "--compression-level=9", "--deterministic-id", raw.name, "-"],
                              check=True, stdout=subprocess.PIPE).stdout


def print_edition(browser, base: str, lang: str, edition: str, out: Path) -> None:
    """Print one edition of one language into ``out``, or stop saying what is broken."""
    start = time.perf_counter()
    page = browser.new_page(1280, 900)
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    # The print page is 2 MB with every figure: on a busy machine its load took 65 s (Playwright's default is 30)
    page.goto(base + PRINT_PAGE[lang], timeout=300_000)
    page.wait_for_load_state("load")
    page.evaluate(script("eager"))
    page.wait_for_function(script("ready"), timeout=60_000, polling=100)
    page.emulate_media(media="print")
    head = (RUNNING_HEAD if edition == "student" else KEY_HEAD)[lang]
    page.add_style_tag(content=f'@page {{ @top-center {{ content: "{head.replace(chr(34), "")}"; }} }} '
                               '@page :first { @top-center { content: none; } }')
    page.add_style_tag(path=str(ROOT / "overrides" / "print" / "pdf.css"))     # the print page's own layout
    kept = page.evaluate(script(edition), WORKSHEET[lang])
    prepared = page.evaluate(script("prepare"), MAX_NAME)
    anchors = prepared["anchors"]
    page.wait_for_function(script("ready"), timeout=60_000, polling=100)
    problems = page.evaluate(script("broken")) + [f"failed to load: {url}" for url in failed] + [
        f"link to the local site that the PDF cannot follow: {href}" for href in prepared["leaks"]]
    checks = {"the table of contents has no entries": not anchors,
              f"the {edition} edition found no questions or no exercises: {kept}":
                  not (kept["questions"] and kept["exercises"]),
              f"requests to outside the site: {page.outside}": page.outside,
              f"errors in the page: {page.errors}": page.errors}
    problems += [problem for problem, found in checks.items() if found]
    if problems:
        raise SystemExit(f"{lang} ({edition}): not printing a broken book:\n  " + "\n  ".join(problems))

    numbers: dict[str, int] = {}
    for _ in range(4):
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True, outline=True, tagged=True)
        where, _ = internal_links(pdf)
        if too_long := long_names(pdf):
            raise SystemExit(f"{lang} ({edition}): PDF names longer than {MAX_NAME} bytes (prepare() in pdf.js "
                             f"shortens the ids links point at): {too_long[:5]}")
        if missing := [a for a in anchors if a not in where]:
            raise SystemExit(f"{lang} ({edition}): contents links that lead nowhere in the PDF: {missing}")
        found = {a: where[a] for a in anchors}
        if found == numbers:
            break
        numbers = found
        page.evaluate(script("setNumbers"), numbers)
    else:
        raise SystemExit(f"{lang} ({edition}): contents page numbers did not settle: {numbers}")
    page.close()
    packed = pack(pdf)
    if type3 := type3_fonts(packed):
        raise SystemExit(f"{lang} ({edition}): fonts embedded as Type 3 (a CFF font Chromium drew as pictures; "
                         f"bookbuild/pdf_fonts.py gives the CJK fonts TrueType outlines): {type3[:5]}")
    path = out / pdf_name(lang, edition)
    path.write_bytes(packed)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(_reader(packed).pages)} pages, "
          f"{len(packed) / 1024:.0f} KiB (Chromium wrote {len(pdf) / 1024:.0f}), {kept['questions']} questions, "
          f"{kept['exercises']} exercises, {time.perf_counter() - start:.1f} s "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--lang", nargs="+", default=list(PRINT_PAGE), choices=list(PRINT_PAGE))
    parser.add_argument("--edition", nargs="+", default=list(EDITIONS), choices=list(EDITIONS))
    args = parser.parse_args()
    out = args.site / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    if "BOOK_PDF_FONTS" not in os.environ:
        # The fonts (cut to both print pages' characters and the words added here) are made once, then
        # one process per language prints at the same time: each is mostly Chromium's layout, on one core.
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
                print_edition(browser, base, lang, edition, out)


if __name__ == "__main__":
    main()
