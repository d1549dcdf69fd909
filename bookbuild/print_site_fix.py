"""A faster anchor renaming for the print page of mkdocs-print-site-plugin (installed by offline_pdf.py).

mkdocs-print-site-plugin 2.9 makes each page's heading ids unique on the print page with
``urls.update_anchor_ids``, whose regex (``.*?id=`` after every tag opening) rescans the rest of a line
for every tag and then runs ``str.replace`` over the whole page per match: quadratic in the
length of a line. Build-time KaTeX writes long lines of spans, and this one function took 34 s
of a 52 s build. :func:`update_anchor_ids` below does the same renaming in one linear pass
(the same tags, the same ``<page key>-<id>`` result) and replaces the plugin's function.
"""

from __future__ import annotations

import re

from .patches import patch


# The tags whose ids the print page renames (print-site's list), each with its id attribute.
ANCHOR_TAG = re.compile(r'<(h[1-6]|sup|li)(\s(?:[^>"\']|"[^"]*"|\'[^\']*\')*?(?<![\w-])id=")([^"]*)"', re.I)


def update_anchor_ids(page_html: str, page_key: str) -> str:
    """Prefix the id of every h1–h6, sup and li tag with the page key, in one pass.

    >>> update_anchor_ids('<h2 class="a" id="x">X</h2><sup id="fnref:1"><span id="y">', "ch1")
    '<h2 class="a" id="ch1-x">X</h2><sup id="ch1-fnref:1"><span id="y">'
    """
    return ANCHOR_TAG.sub(lambda m: f'<{m[1]}{m[2]}{page_key}-{m[3]}"', page_html)


def install() -> None:
    """Put :func:`update_anchor_ids` in print-site's place, if print-site's is the code recorded in
    bookbuild/patches.py (another version keeps its own function: slow, never wrong)."""
    patch("mkdocs_print_site_plugin.urls:update_anchor_ids", lambda original: update_anchor_ids)
