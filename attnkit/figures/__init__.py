"""The book's figures: one function per figure, each drawn from attnkit's own numbers.

Every figure function takes the page language (``"zh"`` or ``"en"``) and returns a
matplotlib ``Figure``. Register it with ``@figure("chN-stem")``; the build (docs/hooks/figures.py)
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

    The output is byte-identical across runs. A glyph missing from the fonts (an empty box
    in the picture) raises ``RuntimeError`` instead of matplotlib's warning.
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
    return buffer.getvalue()


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
