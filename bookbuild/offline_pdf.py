"""The offline PDF of each language: build facts for its cover, and a link to it in the nav.

* ``config.extra.build`` = {version, commit, date}: printed on the PDF cover
  (overrides/print/cover.tpl). The date is the build date in UTC, or SOURCE_DATE_EPOCH.
* The print page gets each page's final HTML: mkdocs-print-site-plugin keeps a copy of a page's
  HTML when its own on_page_content runs, which is before the hooks (e.g. i18n.py joins Chinese
  lines there). This hook's on_page_content runs last (event priority), so it hands the plugin
  the finished HTML.
* The nav gets a last entry that links to this language's PDF. The PDF does not exist while
  MkDocs builds (tools/pdf.py prints it from the built site afterwards), so the link is added
  here, after MkDocs validated the nav, rather than written into the nav of the configs.

* mkdocs-print-site-plugin 2.9 makes each page's heading ids unique on the print page with
  ``urls.update_anchor_ids``, whose regex (``.*?id=`` after every tag opening) rescans the rest of a line
  for every tag and then runs ``str.replace`` over the whole page per match: quadratic in the
  length of a line. Build-time KaTeX writes long lines of spans, and this one function took 34 s
  of a 52 s build. :func:`update_anchor_ids` below does the same renaming in one linear pass
  (the same tags, the same ``<page key>-<id>`` result) and replaces the plugin's function.

The PDFs live at site/pdf/ for both languages: see PDF_NAMES and tools/pdf.py.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import tomllib
from pathlib import Path

import mkdocs_print_site_plugin.urls
from mkdocs.plugins import event_priority
from mkdocs.structure.nav import Link

ROOT = Path(__file__).resolve().parents[1]
PDF_NAMES = {"zh": "seeing-attention-zh.pdf", "en": "seeing-attention-en.pdf"}
NAV_TITLES = {"zh": "下载 PDF", "en": "Download PDF"}


# The tags whose ids the print page renames (print-site's list), each with its id attribute.
ANCHOR_TAG = re.compile(r'<(h[1-6]|sup|li)(\s(?:[^>"\']|"[^"]*"|\'[^\']*\')*?(?<![\w-])id=")([^"]*)"', re.I)


def update_anchor_ids(page_html: str, page_key: str) -> str:
    """Prefix the id of every h1–h6, sup and li tag with the page key, in one pass.

    >>> update_anchor_ids('<h2 class="a" id="x">X</h2><sup id="fnref:1"><span id="y">', "ch1")
    '<h2 class="a" id="ch1-x">X</h2><sup id="ch1-fnref:1"><span id="y">'
    """
    return ANCHOR_TAG.sub(lambda m: f'<{m[1]}{m[2]}{page_key}-{m[3]}"', page_html)


# Only over the print-site code it was written from (its digest, as pagecache.PATCHED keeps them):
# another version keeps its own function (slow, never wrong) until this one is checked against it
# and the digest added here; tests/test_build.py::test_patched_internals_are_the_code_they_were_written_from
# fails meanwhile.
PRINT_SITE_SOURCES = {"0aee9101114eb8e4"}
update_anchor_ids.replaces = getattr(mkdocs_print_site_plugin.urls.update_anchor_ids, "replaces",
                                     mkdocs_print_site_plugin.urls.update_anchor_ids)


def replaced_source_digest() -> str:
    """The digest of the installed print-site's own update_anchor_ids."""
    from .pagecache import _source_digest

    return _source_digest(update_anchor_ids.replaces)


if replaced_source_digest() in PRINT_SITE_SOURCES:
    mkdocs_print_site_plugin.urls.update_anchor_ids = update_anchor_ids


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


def on_config(config):
    config.extra["build"] = build_info()
    return config


def on_nav(nav, config, files):
    lang = config.theme["language"]
    nav.items.append(Link(NAV_TITLES[lang], pdf_url(lang)))
    return nav


@event_priority(-100)  # after every other plugin and hook: see mkdocs.yml, above `hooks:`
def on_page_content(html, page, config, files):
    if hasattr(page, "html"):  # set by print-site for every page it will combine
        page.html = html
    return html
