"""Print-only figures are not fetched on screen.

``<div class="print-only">`` (the static form of a widget, see overrides/assets/print.css) is
``display: none`` on screen, but ``display: none`` does not stop an ``<img>`` from downloading.
A ``loading="lazy"`` image inside a hidden container is never fetched, so every image inside a
print-only element gets ``loading="lazy"``. Printing loads them: overrides/assets/print.js and
tools/pdf.py switch them to eager before the page is printed.
"""

from __future__ import annotations

import re

from .html_tags import regions

PRINT_ONLY = re.compile(r"""\bclass=["'][^"']*\bprint-only\b""")


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
    return lazy_print_only_images(html) if "print-only" in html else html
