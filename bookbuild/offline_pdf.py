"""The offline PDF of each language: build facts for its cover, its link in the nav, and the
print page's input.

* ``config.extra.build`` = {version, commit, date}: printed on the PDF cover
  (overrides/print/cover.tpl). The date is the build date in UTC, or SOURCE_DATE_EPOCH.
* The print page gets each page's final HTML: mkdocs-print-site-plugin copies a page's HTML in its
  own on_page_content, before the hooks (e.g. i18n.py joins Chinese lines there), so this
  hook's on_page_content, which runs last, hands it the finished HTML, with short lines in its
  formulas (:func:`short_lines`): print-site renames anchors with a regex that rescans the rest of
  a line at every tag, quadratic in the line's length, and KaTeX writes a formula as one long line
  of tags (34 s of a 52 s build). :func:`on_post_build` joins the formulas' lines again.
* The nav gets a last entry linking to this language's PDF, added here because the PDF does not
  exist while MkDocs builds and validates the nav (tools/pdf.py prints it from the built site).

Both languages' PDFs live in site/pdf/, two editions each (:func:`pdf_name`): the student edition
(the book: no answers, exercises as worksheets), which the nav and the home page link, and the
teacher's key (answers and reference solutions), which the home page links.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import tomllib
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.nav import Link

from .course import fill
from .nav_titles import TITLES

ROOT = Path(__file__).resolve().parents[1]


def pdf_name(lang: str, edition: str = "student") -> str:
    """The file name of a language's PDF in site/pdf/: edition "student" (the book) or "key"."""
    return f"seeing-attention-{lang}{'-key' if edition == 'key' else ''}.pdf"


KATEX = re.compile(r'<span class="katex">')
SPAN = re.compile(r"<(/?)span\b")
TAG_NAME = re.compile(r"<(/?[a-zA-Z][\w-]*)")
BREAK = "\n\f"             # a line break and a form feed: whitespace inside a tag, found nowhere else
BROKEN = re.compile(r"<(/?[a-zA-Z][\w-]*)\n\f")


def short_lines(html: str) -> str:
    r"""``html`` with a line break (:data:`BREAK`) after the name of every tag inside a formula
    (``<span\n\f class=``, ``</mi\n\f>``: the same HTML), so that no line of a formula is longer
    than one tag; :data:`BROKEN` finds them again.

    >>> html = '<p>x <span class="katex"><span class="m"><mi>e</mi></span></span> y</p>'
    >>> short_lines(html).replace(BREAK, "|")
    '<p>x <span| class="katex"><span| class="m"><mi|>e</mi|></span|></span|> y</p>'
    >>> BROKEN.sub(r"<\1", short_lines(html)) == html
    True
    """
    out, pos = [], 0
    while (start := KATEX.search(html, pos)) is not None:
        depth, end = 0, None
        for tag in SPAN.finditer(html, start.start()):
            depth += -1 if tag[1] else 1
            if depth == 0:
                end = html.index(">", tag.end()) + 1
                break
        if end is None:
            break
        out += [html[pos:start.start()], TAG_NAME.sub(lambda m: f"<{m[1]}{BREAK}", html[start.start():end])]
        pos = end
    return "".join(out) + html[pos:]


def build_info() -> dict:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    commit = os.environ.get("GITHUB_SHA", "")[:7]
    if not commit:
        result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        commit = result.stdout.strip() if result.returncode == 0 else ""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch else dt.datetime.now(dt.timezone.utc)
    return {"version": version, "commit": commit, "date": when.strftime("%Y-%m-%d")}


def on_post_build(config):   # after print-site wrote the print page (hooks run after plugins)
    path = Path(config.site_dir) / "print_page" / "index.html"
    if path.is_file():
        # its formulas' lines joined again, and the chapters' times written in (bookbuild/course.py)
        path.write_text(fill(BROKEN.sub(r"<\1", path.read_text(encoding="utf-8"))), encoding="utf-8")


def on_config(config):
    config.extra["build"] = build_info()
    return config


def on_nav(nav, config, files):
    lang = config.theme["language"]   # the PDFs are in the Chinese book's site/pdf/
    nav.items.append(Link(TITLES[lang]["pdf"], ("" if lang == "zh" else "../") + "pdf/" + pdf_name(lang)))
    return nav


@event_priority(-100)  # after every other plugin and hook: see mkdocs.yml, above `hooks:`
def on_page_content(html, page, config, files):
    if hasattr(page, "html"):  # set by print-site for every page it will combine
        page.html = short_lines(html)
    return html
