"""Build glue for the two languages.

* The English config inherits ``site_url`` from mkdocs.yml; its pages live under ``en/``.
* Each heading's permalink has its tooltip in the book's language.
* Chinese line breaks are joined (below).

tools/build.py builds both languages in parallel and tools/serve.py serves both at one address
(``make serve``); each language is built by its own process.
"""

from __future__ import annotations

import re


# The link beside each heading (the toc extension's permalink): its tooltip, in the book's
# language. The extension's default, "Permanent link", showed on every heading of the Chinese book.
PERMALINK_TITLE = {"zh": "本节的链接", "en": "Link to this section"}


def on_config(config):
    if config.theme["language"] == "en" and config.site_url and not config.site_url.endswith("/en/"):
        config.site_url = config.site_url.rstrip("/") + "/en/"
    if "toc" in config.mdx_configs:
        config.mdx_configs["toc"]["permalink_title"] = PERMALINK_TITLE[config.theme["language"]]
    return config


# Chinese sources keep one sentence per line (for readable diffs). A browser turns each line
# break into a space, which Chinese typesetting does not want: drop line breaks that follow a
# CJK character or CJK punctuation, outside <pre> blocks.
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_BREAK_AFTER_CJK = re.compile(rf"(?<=[{_CJK}])\n\s*(?=\S)")
_PRE = re.compile(r"(<pre\b.*?</pre>)", re.S)


def join_cjk_lines(html: str) -> str:
    """'句子一。\\n句子二。' -> '句子一。句子二。', leaving <pre> blocks alone."""
    parts = _PRE.split(html)
    return "".join(p if p.startswith("<pre") else _BREAK_AFTER_CJK.sub("", p) for p in parts)


def on_page_content(html, page, config, files):
    if config.theme["language"] == "zh":
        return join_cjk_lines(html)
    return html
