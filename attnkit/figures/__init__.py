"""The book's figures: one function per figure, each drawn from attnkit's own numbers.

Every figure function takes the page language (``"zh"`` or ``"en"``) and returns a
matplotlib ``Figure``. Register it with ``@figure("chN-stem")``; the build (bookbuild/figures.py)
writes ``figures/<id>.svg`` for each language, and pages embed it with
``![alt text](../figures/<id>.svg)``.

    >>> from attnkit.figures import FIGURES, render_svg
    >>> "ch3-softmax-amplify" in FIGURES
    True
    >>> render_svg("ch3-softmax-amplify", "en")[:5]
    b'<?xml'
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ._style import LANGS, STYLE  # noqa: E402

FIGURES: dict[str, Callable[[str], Figure]] = {}


def figure(fig_id: str):
    """Register a figure function under ``fig_id`` (``"ch3-softmax-amplify"``)."""

    def register(fn: Callable[[str], Figure]) -> Callable[[str], Figure]:
        if fig_id in FIGURES:
            raise ValueError(f"figure id {fig_id!r} is registered twice")
        FIGURES[fig_id] = fn
        return fn

    return register


def render_svg(fig_id: str, lang: str) -> bytes:
    """Draw figure ``fig_id`` with labels in ``lang`` and return it as SVG bytes.

    The output is byte-identical across runs and compact (see ``compact_paths``). A glyph
    missing from the fonts (an empty box in the picture) raises ``RuntimeError`` instead of
    matplotlib's warning.
    """
    if fig_id not in FIGURES:
        raise ValueError(f"unknown figure id {fig_id!r}; known ids: {', '.join(sorted(FIGURES))}")
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    with plt.rc_context(STYLE), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = FIGURES[fig_id](lang)
        # Keep every figure vector (colorbars rasterize their gradient by default).
        for artist in fig.findobj(lambda a: a.get_rasterized()):
            artist.set_rasterized(False)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    if missing:
        raise RuntimeError(missing_glyph_message(fig_id, lang, missing))
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return compact_paths(buffer.getvalue())


_PATH_DATA = re.compile(rb'(?<=\sd=")[^"]*')
_DECIMALS = re.compile(rb"-?\d+\.\d+")
# An axis-aligned rectangle as matplotlib writes it (M, three L, z).
_RECT = re.compile(rb"M ?(\S+) (\S+) L ?(\S+) \2 L ?\3 (\S+) L ?\1 \4 z")
_INDENT = re.compile(rb"\n[ \t]+")
_TRANSLATE = re.compile(rb"translate\(([^)]*)\)")
_ID = re.compile(rb' id="([^"]+)"')
_GLYPH = re.compile(rb"([A-Za-z][\w.-]*?)-[0-9a-f]+")  # a glyph's id: <font name>-<code point>


def _number(value: float) -> bytes:
    text = (b"%.2f" % value).rstrip(b"0").rstrip(b".")
    return b"0" if text in (b"-0", b"") else text


def _rect(match: re.Match) -> bytes:
    x0, y0, x1, y1 = (float(match[i]) for i in (1, 2, 3, 4))
    return b"M%s %sh%sv%sh%sz" % (match[1], match[2], _number(x1 - x0), _number(y1 - y0), _number(x0 - x1))


def compact_paths(svg: bytes) -> bytes:
    """Smaller SVG, the same picture: coordinates (path data, translations) to 0.01 pt
    (1/7200 inch), one line per path, rectangles (heatmap cells, bars) as
    ``M x y h w v h h -w z``, no indentation, glyph ids such as ``f0-4e2d`` instead of
    ``NotoSansCJKsc-Regular-4e2d``, no ids that nothing refers to. Scales and rotations stay exact.

    >>> compact_paths(b'<g>\\n  <path d="M 1.234567 2 \\nL 3.5 2 \\nL 3.5 4.000001 \\nL 1.234567 4.000001 \\nz \\n"/>')
    b'<g>\\n<path d="M1.23 2h2.27v2h-2.27z"/>'
    """

    def path(match: re.Match) -> bytes:
        data = b" ".join(_DECIMALS.sub(lambda m: _number(float(m[0])), match[0]).split())
        return _RECT.sub(_rect, data)

    def translate(match: re.Match) -> bytes:
        return b"translate(%s)" % _DECIMALS.sub(lambda m: _number(float(m[0])), match[1])

    svg = _INDENT.sub(b"\n", _TRANSLATE.sub(translate, _PATH_DATA.sub(path, svg)))
    referenced = set(re.findall(rb'#([^")\s]+)', svg))
    svg = _ID.sub(lambda m: m[0] if m[1] in referenced else b"", svg)
    fonts: dict[bytes, bytes] = {}
    for glyph in filter(None, map(_GLYPH.fullmatch, _ID.findall(svg))):
        fonts.setdefault(glyph[1], b"f%d" % len(fonts))
    if fonts:
        names = re.compile(rb'(?<=[" #])(' + b"|".join(re.escape(n) for n in fonts) + rb")-(?=[0-9a-f]+\")")
        svg = names.sub(lambda m: fonts[m[1]] + b"-", svg)
    return svg


def missing_glyph_message(fig_id: str, lang: str, warnings_: list[str]) -> str:
    """Name each character no font could draw, and say how to get a font that draws it.

    >>> print(missing_glyph_message("ch3-x", "zh", ["Glyph 27880 (\\N{CJK UNIFIED IDEOGRAPH-6CE8}) missing from font(s) DejaVu Sans."]))
    ... # doctest: +ELLIPSIS
    figure 'ch3-x' (zh) draws characters no installed font has: '注' (U+6CE8). ...
    """
    import re

    chars = []
    for message in warnings_:
        m = re.match(r"Glyph (\d+)", message)
        if m and chr(int(m.group(1))) not in chars:
            chars.append(chr(int(m.group(1))))
    named = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars) or warnings_[0]
    return (
        f"figure {fig_id!r} ({lang}) draws characters no installed font has: {named}. "
        f"The figures use {STYLE['font.family']}. Install the CJK fonts (`make sysdeps`, or "
        "`apt-get install fonts-noto-cjk` as root), then delete matplotlib's font list so it sees "
        f"them: `rm -f {matplotlib.get_cachedir()}/fontlist-*.json`. If the character is not "
        "Chinese, English or a common symbol, use another character in the figure's labels."
    )


def figure_modules() -> dict[str, str]:
    """{figure id: the file (relative to attnkit/figures/) that defines it}; the build uses it
    to redraw only the figures whose module changed.

    >>> figure_modules()["ch3-softmax-amplify"]
    'ch3.py'
    """
    import sys
    from pathlib import Path

    return {fig_id: Path(sys.modules[fn.__module__].__file__).name for fig_id, fn in sorted(FIGURES.items())}


def _register_all() -> None:
    """Import every module of this package whose name starts with ``ch`` or ``tour``: that registers its figures."""
    import importlib
    import pkgutil

    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith(("ch", "tour")):
            importlib.import_module(f"{__name__}.{info.name}")


_register_all()
