"""The PDFs on the build's side: the cover's facts, the print page's input, the link in the nav.

* ``config.extra.build`` = {version, commit, date (UTC, or SOURCE_DATE_EPOCH)} for the cover
  (overrides/print/cover.html).
* print-site copies a page's HTML in its own on_page_content, before the hooks: this one runs last and
  hands it the finished HTML, its formulas cut into short lines (:func:`short_lines`: print-site's anchor
  regex is quadratic in a line's length, 34 s of a 52 s build); :func:`on_post_build` joins them again.
* The nav's last entry links this language's PDF (site/pdf/, :func:`pdf_name`; tools/pdf.py prints it).
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
    """{version, commit, date}: what the cover says about this build."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    commit = os.environ.get("GITHUB_SHA", "")[:7] or subprocess.run(    # no output outside a git checkout
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
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
