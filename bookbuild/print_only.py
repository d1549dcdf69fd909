"""Print-only figures are not fetched on screen: ``display: none`` (a widget's static form,
``<div class="print-only">``: overrides/assets/print.css) does not stop an ``<img>`` from
downloading, but a ``loading="lazy"`` one in a hidden container is never fetched. Printing loads
them: overrides/assets/print.js and tools/pdf.py switch them to eager first.
"""

from __future__ import annotations

import re
from pathlib import Path

from .html_tags import cached, regions

PRINT_ONLY = re.compile(r"""\bclass=["'][^"']*\bprint-only\b""")
IMG = re.compile("<img", re.I)


def lazy_print_only_images(html: str) -> str:
    """Add loading="lazy" to every <img> inside an element whose class includes print-only.

    >>> lazy_print_only_images('<div class="print-only"><p><img src="a.svg" /></p></div><img src="b.svg">')
    '<div class="print-only"><p><img loading="lazy" src="a.svg" /></p></div><img src="b.svg">'
    """
    out = []
    for text, tag, inside in regions(html, lambda name, attrs: bool(PRINT_ONLY.search(attrs))):
        is_img = tag and (tag["name"] or "").lower() == "img" and not tag["closing"]
        if inside and is_img and "loading=" not in tag["attrs"]:
            text = '<img loading="lazy"' + text[len("<img"):]
        out.append(text)
    return "".join(out)


def on_page_content(html, page, config, files):
    first = html.find("print-only")
    if first < 0 or not IMG.search(html, first):   # most pages: no image to make lazy
        return html
    # walking the tags of the few that have one cost 0.05 s a build
    return cached("print-only", html, "", [Path(__file__).resolve()], lambda: lazy_print_only_images(html))
