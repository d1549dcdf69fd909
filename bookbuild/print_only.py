"""Print-only figures are not fetched on screen.

``<div class="print-only">`` (the static form of a widget, see overrides/assets/print.css) is
``display: none`` on screen, but ``display: none`` does not stop an ``<img>`` from downloading.
A ``loading="lazy"`` image inside a hidden container is never fetched, so every image inside a
print-only element gets ``loading="lazy"``. Printing loads them: overrides/assets/print.js and
tools/pdf.py switch them to eager before the page is printed.
"""

from __future__ import annotations

import re

from .html_tags import TAG, VOID

PRINT_ONLY = re.compile(r"""\bclass=["'][^"']*\bprint-only\b""")


def lazy_print_only_images(html: str) -> str:
    """Add loading="lazy" to every <img> inside an element whose class includes print-only.

    >>> lazy_print_only_images('<div class="print-only"><p><img src="a.svg" /></p></div><img src="b.svg">')
    '<div class="print-only"><p><img loading="lazy" src="a.svg" /></p></div><img src="b.svg">'
    """
    out, last = [], 0
    stack: list[tuple[str, bool]] = []  # open elements: (tag, opens a print-only region)
    inside = 0
    for m in TAG.finditer(html):
        closing, tag, attrs, selfclosing = m[1], (m[2] or "").lower(), m[3] or "", m[4]
        if not tag:
            continue  # a comment
        if closing:
            while stack:
                name, opened = stack.pop()
                inside -= opened
                if name == tag:
                    break
            continue
        if tag == "img" and inside and "loading=" not in attrs:
            out.append(html[last:m.start()] + "<img loading=\"lazy\"")
            last = m.start() + len("<img")
        if tag not in VOID and not selfclosing:
            opened = bool(PRINT_ONLY.search(attrs))
            stack.append((tag, opened))
            inside += opened
    out.append(html[last:])
    return "".join(out)


def on_page_content(html, page, config, files):
    return lazy_print_only_images(html) if "print-only" in html else html
