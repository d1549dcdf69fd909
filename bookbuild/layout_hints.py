"""How many lines each paragraph and heading will take, so that the browser may skip laying out
the ones far off screen until the reader scrolls near them.

Laying out text was most of the main-thread work of loading a long page on a phone: with the
skip (and the widgets', whose heights book.css holds), Lighthouse's total blocking time on the tour
went from 190-490 ms to 50-230 ms and its performance score from 84-93 to 92-95 (load 1.7-2.4).
overrides/assets/book.css gives
every top-level block that carries a hint ``content-visibility: auto`` and, as the size to hold
for it until it is drawn, ``contain-intrinsic-size: auto <lines>lh`` (``auto``: once drawn, the
block keeps its real size). The hint is ``style="--cv:N;--cvw:M"``: an *over*-estimate of its
lines in the narrowest phone layout (a 320 px screen: 18 em of text per line) and in the narrowest
wide one (a 960 px screen: 42.8 em), counting a Han character or full-width mark as 1 em and any
other character as 0.6 em, plus 10 % and one line for lines that break early, and a quarter more
for a paragraph with a formula (taller lines). A formula counts its TeX source.

Why it must not be short: a block held at less than its height would lie, while skipped, over
the blocks after it, and axe-core (run by Lighthouse and by tests/test_axe.py) then reads the
colours of the wrong block behind its text (axe-core#2768). tests/test_pages.py checks on every
page, at 375 and 1280 px, that no block is taller than what it holds.

Only paragraphs and headings, whose margins never collapse with a child's (a list, a figure, a
code block or an admonition would change its spacing); and only those of the page itself (the
print page nests them in sections, where the rule does not apply).
"""

from __future__ import annotations

import html
import math
import re
import unicodedata

from .html_tags import TAG, VOID

HINTED = {"p": 1.0, "h2": 1.5625, "h3": 1.25, "h4": 1.0}   # font size in em of the text around
LINE_EM = {"phone": 18.0, "wide": 42.8}   # a line's width in em of 16 px text (see the docstring)
TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)
UNHINTED = re.compile(r"<(img|svg|table|div|figure|pre|iframe|video|textarea|input)\b")


def element_end(text: str, start: int) -> int:
    """Where the element whose start tag begins at ``start`` ends (after its end tag)."""
    depth = 0
    for m in TAG.finditer(text, start):
        tag = (m[2] or "").lower()
        if not tag or tag in VOID or m["selfclosing"]:
            continue
        depth += -1 if m[1] else 1
        if depth == 0:
            return m.end()
    return len(text)


def formulas_as_tex(inner: str) -> str:
    """Each rendered formula (KaTeX's HTML and MathML) replaced by its TeX source."""
    while (start := inner.find('<span class="arithmatex"')) >= 0:
        end = element_end(inner, start)
        tex = TEX.search(inner, start, end)
        inner = inner[:start] + html.escape(html.unescape(tex[1]) if tex else "") + inner[end:]
    return inner


def text_em(inner: str) -> float:
    """The width of a block's text on one line, in em: 1 for a Han character or full-width mark,
    0.6 for any other character; a formula by its TeX source.

    >>> text_em("注意力 is <b>all</b>")
    7.2
    """
    text = html.unescape(re.sub(r"<[^>]*>", "", formulas_as_tex(inner)))
    return round(sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text if c != "\n"), 6)


def lines(inner: str, font_em: float, layout: str) -> int:
    """An over-estimate of the lines a block's HTML takes in ``layout`` ("phone" or "wide")."""
    per_line = LINE_EM[layout] / font_em
    n = math.ceil(text_em(inner) / per_line * 1.1) + 1 + len(re.findall(r"<br\b", inner))
    if 'class="arithmatex"' in inner:
        n = math.ceil(n * 1.25)
    return n


def blocks(content: str):
    """(start, end of the start tag, end, tag) of each top-level <p>, <h2>, <h3>, <h4>."""
    depth, start = 0, None
    for m in TAG.finditer(content):
        closing, tag, selfclosing = m["closing"], (m["name"] or "").lower(), m["selfclosing"]
        if not tag or tag in VOID or selfclosing:
            continue
        if not closing:
            if depth == 0 and tag in HINTED:
                start = (m.start(), m.end(), tag)
            depth += 1
        else:
            depth -= 1
            if depth == 0 and start and tag == start[2]:
                yield start[0], start[1], m.end(), tag
                start = None


def hint(content: str) -> str:
    """``content`` with each top-level paragraph and heading carrying its line estimates.

    >>> hint('<h2 id="a">Hi</h2>\\n<div><p>inside</p></div>\\n<p>注意力</p>')
    '<h2 id="a" style="--cv:2;--cvw:2">Hi</h2>\\n<div><p>inside</p></div>\\n<p style="--cv:2;--cvw:2">注意力</p>'
    """
    out, last = [], 0
    for start, open_end, end, tag in blocks(content):
        opening = content[start:open_end]
        inner = content[open_end:end - len(tag) - 3]
        if "style=" in opening or UNHINTED.search(inner):
            continue   # styled already, or holding something whose height text does not tell
        phone, wide = (lines(inner, HINTED[tag], layout) for layout in ("phone", "wide"))
        out += [content[last:open_end - 1], f' style="--cv:{phone};--cvw:{wide}">']
        last = open_end
    out.append(content[last:])
    return "".join(out)


def on_page_content(html_, page, config, files):
    return hint(html_)
