"""Text helpers for the tables the listings print.

A monospace font gives a Chinese character two columns, but Python's ``f"{s:<8}"``
counts it as one, so a printed table whose cells hold Han characters comes out
ragged. :func:`width` counts display columns; :func:`pad` pads to a display width.
Standard library only (no NumPy), so it also runs in the browser playground.
"""

from __future__ import annotations

import unicodedata

__all__ = ["width", "pad"]


def width(s: str) -> int:
    """Columns ``s`` takes in a monospace font: wide (W) and full-width (F) characters take two.

    >>> width("loss"), width("损失"), width("第 1 轮")
    (4, 4, 7)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in str(s))


def pad(s: object, cols: int, align: str = "<") -> str:
    """``s`` padded with spaces to ``cols`` display columns, like ``f"{s:<cols}"`` but CJK-aware.

    ``align`` is ``"<"`` (left, the default), ``">"`` (right) or ``"^"`` (centre).
    Text already wider than ``cols`` is returned unchanged, as ``format`` does.

    >>> pad("损失", 6) + "|"
    '损失  |'
    >>> pad("loss", 6) + "|"
    'loss  |'
    >>> pad("第 1 轮", 9, ">")
    '  第 1 轮'
    >>> pad(3.5, 5, "^")
    ' 3.5 '
    """
    if align not in ("<", ">", "^"):
        raise ValueError(f'align must be "<", ">" or "^", got {align!r}')
    s = str(s)
    gap = max(cols - width(s), 0)
    if align == "<":
        return s + " " * gap
    if align == ">":
        return " " * gap + s
    left = gap // 2
    return " " * left + s + " " * (gap - left)
