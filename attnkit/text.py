"""Text helpers for the tables the listings print.

A monospace font gives a Chinese character two columns, but Python's ``f"{s:<8}"``
counts it as one, so a printed table whose cells hold Han characters comes out
ragged. :func:`width` counts display columns; :func:`pad` pads to a display width;
:func:`row` lays out one table line. :func:`sci` and :func:`wan` write numbers as
Chinese text does (``1.4×10⁻¹⁹``, ``1100 万``) for the Chinese book's output.
Standard library only (no NumPy), so it also runs in the browser playground.
"""

from __future__ import annotations

import unicodedata

__all__ = ["width", "pad", "row", "power", "sci", "wan"]


def width(s: str) -> int:
    """Columns ``s`` takes in a monospace font: wide (W) and full-width (F) characters take two.

    Everything else takes one, the "ambiguous" symbols too (``×`` ``·`` ``…`` ``“”``): the book
    draws those from a Latin monospace font in both languages (overrides/assets/book.css), and
    tests/test_code_columns.py measures every line of code and output in the browser.

    >>> width("loss"), width("损失"), width("第 1 轮"), width("1.4×10⁻⁷")
    (4, 4, 7, 8)
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


def row(cells: list, cols: list[int], align: str = ">") -> str:
    """One line of a printed table: each cell padded to its column's display width
    (trailing spaces removed).

    >>> print(row(["w", "损失"], [4, 8]))
       w    损失
    >>> print(row(["2.0", "19.35"], [4, 8]))
     2.0   19.35
    """
    if len(cells) != len(cols):
        raise ValueError(f"row has {len(cells)} cells but {len(cols)} column widths")
    return "".join(pad(c, w, align) for c, w in zip(cells, cols)).rstrip()


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power(exponent: int) -> str:
    """Ten to the ``exponent``, as printed text writes it: ``10⁻⁹``, not ``1e-09``.

    >>> power(-9), power(5), power(0)
    ('10⁻⁹', '10⁵', '10⁰')
    """
    return "10" + str(int(exponent)).translate(_SUPERSCRIPT)



def sci(x: float, digits: int = 2) -> str:
    """``x`` in the scientific notation Chinese text uses, ``1.42×10⁻¹⁹``, instead of ``1.42e-19``.

    ``digits`` is the number of digits after the point, as in ``f"{x:.{digits}e}"``.

    >>> sci(1.42e-19), sci(80.8, 1), sci(1.55), sci(0.0)
    ('1.42×10⁻¹⁹', '8.1×10¹', '1.55×10⁰', '0')
    """
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa}×{power(int(exponent))}"


def wan(n: int) -> str:
    """A whole number as Chinese text writes it: ``1100 万``, ``100 亿``, never ``11,000,000``.

    Numbers below 10 000, or that are no whole number of 万, are written as plain digits.

    >>> wan(1600), wan(250_000), wan(11_000_000), wan(10_000_000_000), wan(99_999)
    ('1600', '25 万', '1100 万', '100 亿', '99999')
    """
    n = int(n)
    if abs(n) >= 10**8 and n % 10**8 == 0:
        return f"{n // 10**8} 亿"
    if abs(n) >= 10**4 and n % 10**4 == 0:
        return f"{n // 10**4} 万"
    return str(n)
