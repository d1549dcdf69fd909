"""Chinese pages: the line breaks between the source's sentences are removed.

Chinese sources keep one sentence per line (for readable diffs). A browser turns each line
break into a space, which Chinese typesetting does not want: drop line breaks that follow a
CJK character or CJK punctuation, outside <pre> blocks. (English pages are left alone.)
"""

from __future__ import annotations

import re

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
