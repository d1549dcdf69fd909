"""Print the whole book, one PDF per language, from the built site.

    python tools/pdf.py [--site site] [--lang zh en]

Reads site/print_page/ (zh) and site/en/print_page/ (en), written by mkdocs-print-site-plugin,
in Debian's headless Chromium (Playwright), and writes site/pdf/seeing-attention-<lang>.pdf.
Before printing it loads the print-only figures (lazy on screen: bookbuild/print_only.py),
waits until every formula is KaTeX markup (rendered at build time), every figure has loaded and
the fonts are ready, opens every folded answer, and checks that nothing was requested from
outside the site. The table of contents gets page numbers in two passes: print, read where
each contents link lands in the PDF, write the numbers in, print again (and check them).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from bookbuild.browser import launch, serve_site  # noqa: E402
from bookbuild.offline_pdf import PDF_NAMES  # noqa: E402  (the build names the files)

PRINT_PAGE = {"zh": "/print_page/", "en": "/en/print_page/"}
RUNNING_HEAD = {"zh": "看见注意力 · Seeing Attention", "en": "Seeing Attention · 看见注意力"}

# Print-only figures are loading="lazy" (never fetched on screen): fetch them for print.
EAGER = """() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => { img.loading = 'eager'; })"""

# True when the page is ready to print: math typeset, figures decoded, fonts loaded.
READY = """() => {
  const math = [...document.querySelectorAll('.arithmatex')];
  const mathDone = math.every((el) => el.querySelector('.katex'));
  const imgs = [...document.images];
  const imgsDone = imgs.every((img) => img.complete);
  return mathDone && imgsDone && document.fonts.status === 'loaded';
}"""

PREPARE = """() => {
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
  for (const a of entries) {
    if (a.querySelector('.toc-title')) continue;
    const title = document.createElement('span');
    title.className = 'toc-title';
    title.append(...a.childNodes);
    const leader = document.createElement('span');
    leader.className = 'toc-leader';
    const number = document.createElement('span');
    number.className = 'toc-page';
    a.append(title, leader, number);
  }
  return {anchors: entries.map((a) => decodeURIComponent(a.getAttribute('href').slice(1))), leaks};
}"""

BROKEN = """() => {
  const problems = [];
  for (const img of document.images) {
    if (img.complete && img.naturalWidth === 0) problems.push('figure did not load: ' + img.getAttribute('src'));
  }
  for (const el of document.querySelectorAll('.katex-error')) problems.push('KaTeX error: ' + el.textContent);
  return problems;
}"""

SET_NUMBERS = """(numbers) => {
  document.querySelectorAll('#print-page-toc a[href^="#"]').forEach((a) => {
    const n = numbers[decodeURIComponent(a.getAttribute('href').slice(1))];
    a.querySelector('.toc-page').textContent = n === undefined ? '' : String(n);
  });
}"""


def _dest_name(value) -> str:
    """'/ch3-softmax' or '/index-%E5%B0%8F' (a PDF name) -> 'ch3-softmax', 'index-小'."""
    return unquote(str(value).removeprefix("/"))


def internal_links(pdf) -> tuple[dict[str, int], list[tuple[int, str, int | None]]]:
    """Where the PDF's named destinations are, and every internal link in it.

    Returns ({anchor: 1-based page}, [(page of the link, anchor, page it leads to or None)]).
    """
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)
    named = {_dest_name(name): reader.get_destination_page_number(dest) + 1
             for name, dest in reader.named_destinations.items()}
    links = []
    for number, page in enumerate(reader.pages, 1):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest = annot.get("/Dest")
            action = annot.get("/A")
            if dest is None and action is not None and action.get("/S") == "/GoTo":
                dest = action.get("/D")
            if dest is not None and not isinstance(dest, list):
                links.append((number, _dest_name(dest), named.get(_dest_name(dest))))
    return named, links


def print_language(browser, base: str, lang: str, out: Path) -> dict:
    page = browser.new_page(1280, 900)
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    # The print page is 2 MB with every figure: on a busy machine its load took 65 s (Playwright's default is 30)
    page.goto(base + PRINT_PAGE[lang], timeout=300_000)
    page.wait_for_load_state("load")
    page.evaluate(EAGER)
    page.wait_for_function(READY, timeout=60_000, polling=100)
    page.emulate_media(media="print")
    head = RUNNING_HEAD[lang].replace('"', "")
    page.add_style_tag(content=f'@page {{ @top-center {{ content: "{head}"; }} }} @page :first {{ @top-center {{ content: none; }} }}')
    prepared = page.evaluate(PREPARE)
    anchors = prepared["anchors"]
    page.wait_for_function(READY, timeout=60_000, polling=100)
    problems = page.evaluate(BROKEN)
    if not anchors:
        problems.append("the table of contents has no entries")
    problems += [f"link to the local site that the PDF cannot follow: {href}" for href in prepared["leaks"]]
    if page.outside:
        problems.append(f"requests to outside the site: {page.outside}")
    problems += [f"failed to load: {url}" for url in failed]
    if page.errors:
        problems.append(f"errors in the page: {page.errors}")
    if problems:
        raise SystemExit(f"{lang}: not printing a broken book:\n  " + "\n  ".join(problems))

    options = dict(format="A4", print_background=True, prefer_css_page_size=True, outline=True, tagged=True)
    numbers: dict[str, int] = {}
    for attempt in range(4):
        pdf = page.pdf(**options)
        where, _ = internal_links(pdf)
        missing = [a for a in anchors if a not in where]
        if missing:
            raise SystemExit(f"{lang}: contents links that lead nowhere in the PDF: {missing}")
        found = {a: where[a] for a in anchors}
        if found == numbers:
            break
        numbers = found
        page.evaluate(SET_NUMBERS, numbers)
    else:
        raise SystemExit(f"{lang}: contents page numbers did not settle: {numbers}")
    path = out / PDF_NAMES[lang]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pdf)
    page.close()
    return {"path": path, "bytes": len(pdf), "contents": numbers}


def site_prefix(site: Path) -> str:
    """The path part of SITE_URL the site was built for ('' or e.g. '/seeing-attention').

    The print page is rendered with the context of the 404 page, whose links are rooted at that
    path, so it is served under it to print."""
    sitemap = site / "sitemap.xml"
    found = re.search(r"<loc>([^<]+)</loc>", sitemap.read_text(encoding="utf-8")) if sitemap.is_file() else None
    return urlparse(found[1]).path.rstrip("/") if found else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--lang", nargs="+", default=list(PRINT_PAGE), choices=list(PRINT_PAGE))
    args = parser.parse_args()
    out = args.site / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    if len(args.lang) > 1:
        # One process per language, at the same time: a language's print is mostly Chromium laying
        # out and printing ~170 pages on one core, so two run in about the time of the longer one.
        runs = [subprocess.Popen([sys.executable, __file__, "--site", str(args.site), "--lang", lang])
                for lang in args.lang]
        failed = [lang for lang, run in zip(args.lang, runs) if run.wait() != 0]
        if failed:
            sys.exit(f"tools/pdf.py: printing failed for {', '.join(failed)} (see above)")
        return
    with serve_site(args.site, prefix=site_prefix(args.site)) as base, launch() as browser:
        for lang in args.lang:
            start = time.perf_counter()
            result = print_language(browser, base, lang, out)
            from pypdf import PdfReader

            pages = len(PdfReader(result["path"]).pages)
            print(f"{result['path'].relative_to(ROOT) if result['path'].is_relative_to(ROOT) else result['path']}: "
                  f"{pages} pages, {result['bytes'] / 1024:.0f} KiB, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
