"""The offline PDF of each language: build facts for its cover, and a link to it in the nav.

* ``config.extra.build`` = {version, commit, date}: printed on the PDF cover
  (overrides/print/cover.tpl). The date is the build date in UTC, or SOURCE_DATE_EPOCH.
* The print page gets each page's final HTML: mkdocs-print-site-plugin keeps a copy of a page's
  HTML when its own on_page_content runs, which is before the hooks (e.g. cjk_lines.py joins Chinese
  lines there). This hook's on_page_content runs last (event priority), so it hands the plugin
  the finished HTML, with short lines in its formulas (:func:`short_lines`): print-site renames
  the page's anchors with a regex that rescans the rest of a line at every tag, quadratic in the
  length of a line, and KaTeX writes each formula as one long line of tags (34 s of a 52 s build).
  Once print-site has written the print page, the formulas get their one line back
  (:func:`on_post_build`): the print page holds what the pages hold.
* ``overrides/print/pdf.css`` (:data:`PDF_CSS`) is the print page's layout, which tools/pdf.py
  adds before printing; the site does not serve it (bookbuild/vendor.py leaves it out).
* The nav gets a last entry that links to this language's PDF. The PDF does not exist while
  MkDocs builds (tools/pdf.py prints it from the built site afterwards), so the link is added
  here, after MkDocs validated the nav, rather than written into the nav of the configs.

The PDFs live at site/pdf/ for both languages, two editions each (tools/pdf.py): the student
edition (the book: no answers, exercises as worksheets), which the nav and the home page link, and
the teacher's key (the answers and reference solutions), which the home page links: see
:func:`pdf_name`.
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
PDF_NAMES = {"zh": "seeing-attention-zh.pdf", "en": "seeing-attention-en.pdf"}   # the student edition
KEY_NAMES = {"zh": "seeing-attention-zh-key.pdf", "en": "seeing-attention-en-key.pdf"}   # the teacher's key


def pdf_name(lang: str, edition: str = "student") -> str:
    """The file name of a language's PDF in site/pdf/: edition "student" (the book) or "key"."""
    return (PDF_NAMES if edition == "student" else KEY_NAMES)[lang]


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


def pdf_url(lang: str) -> str:
    """Site-relative URL of a language's PDF, from the root of that language's site."""
    return ("" if lang == "zh" else "../") + "pdf/" + PDF_NAMES[lang]


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


PDF_CSS = "print/pdf.css"      # in overrides/, read by tools/pdf.py


def on_nav(nav, config, files):
    lang = config.theme["language"]
    nav.items.append(Link(TITLES[lang]["pdf"], pdf_url(lang)))
    return nav


@event_priority(-100)  # after every other plugin and hook: see mkdocs.yml, above `hooks:`
def on_page_content(html, page, config, files):
    if hasattr(page, "html"):  # set by print-site for every page it will combine
        page.html = short_lines(html)
    return html
