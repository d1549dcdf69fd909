"""Accessibility fixes that belong in the HTML itself (written at build time, so they are there
before any script runs and for readers without JavaScript). tests/test_axe.py checks every built
page with axe-core; tests/test_figure_text.py measures figure and widget labels at 375 px.

* Regions that scroll must be reachable by keyboard (WCAG 2.1.1, axe's
  scrollable-region-focusable): code cells of the lab notebooks (mkdocs-jupyter's
  ``div.highlight-ipynb``) and display formulas (``div.arithmatex``, which scroll sideways on a
  phone) get ``tabindex="0"`` and a name in the page's language ("代码单元 3" / "Code cell 3",
  "公式" / "Formula"), with ``role="group"``: a named group, not a landmark (a page has dozens).
  Tables (``<table>`` without a class, which Material wraps in its own scrolling box at run
  time) are wrapped at build time in a focusable, named box that does the scrolling instead
  ("表格，可左右滚动" / "Table, scrolls sideways"; assets/a11y.css lets Material's box overflow).
  Runs in ``on_page_content`` after the math hook and before offline_pdf.py hands the page to
  the print page, so the print page has them too.
* Text in the other language says so (WCAG 3.1.2, Language of Parts; see ``language_of_parts``):
  a screen reader then reads an English title in the Chinese book with an English voice.
* Figures open at full size on a phone (see ``on_post_page`` below).
"""

from __future__ import annotations

import re

from .html_tags import regions

NOTEBOOK_CODE = re.compile(r'<div class="highlight-ipynb(?P<rest>[^"]*)"(?P<attrs>[^>]*)>')
DISPLAY_MATH = re.compile(r'<div class="arithmatex"(?P<attrs>[^>]*)>')
TABLE = re.compile(r"<table>.*?</table>", re.S)
NAMES = {"zh": {"code": "代码单元 {n}", "math": "公式", "table": "表格，可左右滚动"},
         "en": {"code": "Code cell {n}", "math": "Formula", "table": "Table, scrolls sideways"}}


def on_page_content(html, page, config, files):
    names = NAMES[config.theme["language"]]
    counter = iter(range(1, 10**6))

    def code_cell(match):
        label = names["code"].format(n=next(counter))
        return (f'<div class="highlight-ipynb{match["rest"]}"{match["attrs"]} '
                f'tabindex="0" role="group" aria-label="{label}">')

    def formula(match):
        return f'<div class="arithmatex"{match["attrs"]} tabindex="0" role="group" aria-label="{names["math"]}">'

    def table(match):
        return (f'<div class="attn-table-scroll" tabindex="0" role="group" aria-label="{names["table"]}">'
                f'{match.group(0)}</div>')

    if 'class="highlight-ipynb' in html:
        html = NOTEBOOK_CODE.sub(code_cell, html)
    html = TABLE.sub(table, html)
    return language_of_parts(DISPLAY_MATH.sub(formula, html), config.theme["language"])


# Language of parts. A page's <html lang> names its book's language; a passage in the other one
# gets its own lang, so that a screen reader switches voice: in the Chinese book a run of three or
# more English words (a paper's title, the example sentence "The animal didn't cross the street
# ..."), in the English book a run of Chinese characters (the Chinese sources in the references).
# Shorter runs are names and technical terms (Transformer, softmax, GPT-2), which WCAG exempts.
# Code, formulas and an element that already has a lang are left as they are.
# tests/test_parity.py checks every built page for text in the other language without its lang.
_WORD = r"[A-Za-z](?:[\w'’.-]|&#?\w+;)*"
FOREIGN_RUN = {"zh": (re.compile(rf"{_WORD}(?:[ ,:;!?–—-]+{_WORD}){{2,}}"), "en"),
               "en": (re.compile(r"(?:[A-Za-z0-9]+(?=[\u3400-\u9fff]))?[\u3400-\u9fff]"
                                 r"(?:[\u3400-\u9fff\u3000-\u303f\uff00-\uffef\u2018-\u201d\w ·—…/+-]*[\u3400-\u9fff\u3000-\u303f\uff00-\uffef\u201d])?"), "zh")}
NOT_PROSE = {"script", "style", "pre", "code", "svg", "math", "kbd", "samp", "textarea"}
NOT_PROSE_CLASS = re.compile(r'\bclass="[^"]*\b(?:katex|arithmatex|highlight|highlight-ipynb|clipboard-copy-txt)\b')


def language_of_parts(html: str, lang: str) -> str:
    """``html`` with each run of the other language's text wrapped in ``<span lang="...">``.

    >>> language_of_parts("<p>论文《Attention Is All You Need》提出了 Transformer。</p>", "zh")
    '<p>论文《<span lang="en">Attention Is All You Need</span>》提出了 Transformer。</p>'
    >>> language_of_parts('<p>李宏毅. 自注意力机制与Transformer课程[EB/OL]. Bilibili, 2024.</p>', "en")
    '<p><span lang="zh">李宏毅</span>. <span lang="zh">自注意力机制与Transformer课程</span>[EB/OL]. Bilibili, 2024.</p>'
    >>> language_of_parts('<p>B站UP主. 动画讲解GPT/Transformer系列视频</p>', "en")
    '<p><span lang="zh">B站UP主</span>. <span lang="zh">动画讲解GPT/Transformer系列视频</span></p>'
    >>> language_of_parts('<code>for a in b if c</code><p lang="en">one two three</p>', "zh")
    '<code>for a in b if c</code><p lang="en">one two three</p>'
    """
    run, other = FOREIGN_RUN[lang]

    def alone(name, attrs):   # text inside is left as it is
        return name in NOT_PROSE or bool(NOT_PROSE_CLASS.search(attrs)) or " lang=" in attrs

    return "".join(run.sub(lambda m: f'<span lang="{other}">{m[0]}</span>', text) if tag is None and not inside else text
                   for text, tag, inside in regions(html, alone))


# Figures on a phone: a figure drawn for a page 700 px wide shows its labels at 3–7 CSS px on a
# 375 px screen. Each figure on a screen page is wrapped in a link to its own SVG; a tap (or
# Enter) opens it at full size in a dialog that scrolls (assets/figure-zoom.js), or, without
# JavaScript, as the SVG file itself. tests/test_figure_text.py measures the labels both ways.
# Screen pages only (on_post_page): the print page and the PDF print figures at paper size.
FIGURE_IMG = re.compile(r'<img (?P<attrs>[^>]*\bsrc="(?P<src>[^"]*figures/[a-z0-9-]+\.svg)"[^>]*)>')
ZOOM_HINT = {"zh": "点按放大", "en": "Tap to enlarge"}


# Navigation landmarks need names that tell them apart (axe's best-practice rule
# landmark-unique). Material names each chapter's sub-navigation by the label that folds it
# (aria-labelledby="__nav_3_label"), which holds only an icon when the chapter has an index page
# (navigation.indexes): ten <nav> landmarks with the same empty name. Each is named by its own
# title instead, the label inside it that shows the chapter's name ("Chapter 0 · Before we start").
SUBNAV = re.compile(r'(<nav class="md-nav" data-md-level="\d+" aria-labelledby=")(?P<id>__nav_[\d_]+)_label('
                    r'"[^>]*>\s*<label class="md-nav__title" for="(?P=id)")>')


def name_subnavs(html: str) -> str:
    """Point each chapter's <nav> at its own title (see SUBNAV).

    >>> name_subnavs('<nav class="md-nav" data-md-level="1" aria-labelledby="__nav_3_label" '
    ...              'aria-expanded="false"> <label class="md-nav__title" for="__nav_3">')
    '<nav class="md-nav" data-md-level="1" aria-labelledby="__nav_3_title" aria-expanded="false"> <label class="md-nav__title" for="__nav_3" id="__nav_3_title">'
    """
    return SUBNAV.sub(lambda m: f'{m[1]}{m["id"]}_title{m[3]} id="{m["id"]}_title">', html)


def on_post_page(output, page, config):
    output = name_subnavs(output)
    if "figures/" not in output:
        return output
    hint = ZOOM_HINT[config.theme["language"]]

    def zoomable(match):
        return (f'<a class="attn-zoom" href="{match["src"]}">{match.group(0)}'
                f'<span class="attn-zoom__hint" aria-hidden="true">{hint}</span></a>')

    return FIGURE_IMG.sub(zoomable, output)


def on_post_template(output_content, template_name, config):
    # 404.html is a template, not a page: it has the same navigation
    return name_subnavs(output_content) if template_name == "404.html" else output_content
