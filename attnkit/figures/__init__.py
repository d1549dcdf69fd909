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
        raise RuntimeError(
            f"figure {fig_id!r} ({lang}) has glyphs no installed font can draw: {missing[0]} "
            "Install the CJK fonts (Debian: fonts-noto-cjk; `make setup` does it as root)."
        )
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return buffer.getvalue()


def _register_all() -> None:
    """Import every module of this package whose name starts with ``ch`` or ``tour``: that registers its figures."""
    import importlib
    import pkgutil

    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith(("ch", "tour")):
            importlib.import_module(f"{__name__}.{info.name}")


_register_all()
