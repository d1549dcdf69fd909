"""Accessibility fixes written into the HTML at build time, there before any script runs
(tests/test_axe.py runs axe-core on the built pages):

* regions that scroll take keyboard focus and a name (WCAG 2.1.1) as a ``role="group"``: notebook
  code cells, display formulas, and class-less tables, wrapped in a box that scrolls (assets/a11y.css)
  where Material would wrap them at run time; the print page gets them too (offline_pdf.py);
* text in the other language has a ``lang`` (WCAG 3.1.2): in the Chinese book a run of three or more
  English words, in the English book a run of Chinese; shorter runs are names (GPT-2), and code,
  formulas and elements with a ``lang`` are left alone;
* on screen, each figure links to its SVG, which assets/figure-zoom.js opens full size (a 700 px
  figure shows its labels at 3-7 CSS px on a phone: tests/test_figure_text.py);
* each chapter's ``<nav>`` is named by its title (Material's label for it may hold only an icon).
"""

from __future__ import annotations

import re
from pathlib import Path

from .html_tags import cached, regions

NOTEBOOK_CODE = re.compile(r'<div class="highlight-ipynb(?P<rest>[^"]*)"(?P<attrs>[^>]*)>')
DISPLAY_MATH = re.compile(r'<div class="arithmatex"(?P<attrs>[^>]*)>')
TABLE = re.compile(r"<table>.*?</table>", re.S)
NAMES = {"zh": {"code": "代码单元 {n}", "math": "公式", "table": "表格，可左右滚动"},
         "en": {"code": "Code cell {n}", "math": "Formula", "table": "Table, scrolls sideways"}}


def on_page_content(html, page, config, files):
    lang = config.theme["language"]   # walking every page's tags cost 0.2 s of a warm build
    return cached("a11y", html, lang, [Path(__file__).resolve()], lambda: accessible(html, lang))


def accessible(html: str, lang: str) -> str:
    """``html`` with its scrolling regions focusable and named, and the other language's text marked."""
    names = NAMES[lang]
    counter = iter(range(1, 10**6))
    focusable = 'tabindex="0" role="group" aria-label'

    def code_cell(match):
        label = names["code"].format(n=next(counter))
        return f'<div class="highlight-ipynb{match["rest"]}"{match["attrs"]} {focusable}="{label}">'

    if 'class="highlight-ipynb' in html:
        html = NOTEBOOK_CODE.sub(code_cell, html)
    html = TABLE.sub(f'<div class="attn-table-scroll" {focusable}="{names["table"]}">' r"\g<0></div>", html)
    html = DISPLAY_MATH.sub(rf'<div class="arithmatex"\g<attrs> {focusable}="{names["math"]}">', html)
    return language_of_parts(html, lang)


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

    wrap = rf'<span lang="{other}">\g<0></span>'
    return "".join(run.sub(wrap, text) if tag is None and not inside else text
                   for text, tag, inside in regions(html, alone))


FIGURE_IMG = re.compile(r'<img (?P<attrs>[^>]*\bsrc="(?P<src>[^"]*figures/[a-z0-9-]+\.svg)"[^>]*)>')
ZOOM_HINT = {"zh": "点按放大", "en": "Tap to enlarge"}
SUBNAV = re.compile(r'(<nav class="md-nav" data-md-level="\d+" aria-labelledby=")(?P<id>__nav_[\d_]+)_label('
                    r'"[^>]*>\s*<label class="md-nav__title" for="(?P=id)")>')


def name_subnavs(html: str) -> str:
    """Point each chapter's <nav> at its own title, the label inside it that shows the chapter's name.

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
    return FIGURE_IMG.sub(rf'<a class="attn-zoom" href="\g<src>">\g<0>'
                          f'<span class="attn-zoom__hint" aria-hidden="true">{hint}</span></a>', output)


def on_post_template(output_content, template_name, config):
    # 404.html is a template, not a page: it has the same navigation
    return name_subnavs(output_content) if template_name == "404.html" else output_content
