"""Build glue for the two languages (each built by its own process): the English ``site_url`` ends in
``en/``; permalinks' tooltips speak the book's language; on Chinese pages a line break after a CJK
character is dropped outside <pre> (one sentence per source line; a browser would show a space).
"""

from __future__ import annotations

import re

PERMALINK_TITLE = {"zh": "本节的链接", "en": "Link to this section"}
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_BREAK_AFTER_CJK = re.compile(rf"(?<=[{_CJK}])\n\s*(?=\S)")
_PRE = re.compile(r"(<pre\b.*?</pre>)", re.S)


def on_config(config):
    if config.theme["language"] == "en" and config.site_url and not config.site_url.endswith("/en/"):
        config.site_url = config.site_url.rstrip("/") + "/en/"
    if "toc" in config.mdx_configs:
        config.mdx_configs["toc"]["permalink_title"] = PERMALINK_TITLE[config.theme["language"]]
    return config


def join_cjk_lines(html: str) -> str:
    """'句子一。\\n句子二。' -> '句子一。句子二。', leaving <pre> blocks alone."""
    return "".join(p if p.startswith("<pre") else _BREAK_AFTER_CJK.sub("", p) for p in _PRE.split(html))


def on_page_content(html, page, config, files):
    return join_cjk_lines(html) if config.theme["language"] == "zh" else html
