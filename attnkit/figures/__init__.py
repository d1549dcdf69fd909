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
from collections import Counter
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ._style import LANGS, STYLE  # noqa: E402

FIGURES: dict[str, Callable[[str], Figure]] = {}
# No <metadata> (matplotlib writes its name, the format and the type there; no date: the bytes
# stay the same from run to run)
NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}


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

    The output is byte-identical across runs and compact (see ``compact_svg``). A glyph
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
        fig.savefig(buffer, format="svg", metadata=NO_METADATA)
        plt.close(fig)
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    if missing:
        raise RuntimeError(missing_glyph_message(fig_id, lang, missing))
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return compact_svg(buffer.getvalue())


_PATH_DATA = re.compile(rb'(?<=\sd=")[^"]*')
_DECIMALS = re.compile(rb"-?\d+\.\d+")
# An axis-aligned rectangle as matplotlib writes it: M, three L, then z or a fourth L back to the start.
_RECT = re.compile(rb"M ?(\S+) (\S+) L ?(\S+) \2 L ?\3 (\S+) L ?\1 \4 (z|L ?\1 \2(?= |$))")
_INDENT = re.compile(rb"\n[ \t]+")
_TRANSLATE = re.compile(rb"translate\(([^)]*)\)")
_ID = re.compile(rb' id="([^"]+)"')
# A glyph's outline: matplotlib writes it in FreeType's integer units, scaled by 1/64: at its text
# size of 100 units to the em, 6400 units to the em. Written again in thousandths of an em
# (GLYPH_UNITS), the grid of Noto Sans CJK's own outlines (1000 units to the em), with the scale
# that draws them the same size.
_GLYPH_DEF = re.compile(rb'(<path id="[^"]+" d=")([^"]*)(" transform="scale\(0\.015625\)"/>)')
GLYPH_UNITS = 1000                 # to the em
_GLYPH_SCALE = b'" transform="scale(.1)"/>'   # 100 units to the em, as matplotlib's text size
_TOKEN = re.compile(rb"[A-Za-z]|-?\d+(?:\.\d+)?")
_ARGS = {b"M": 2, b"L": 2, b"Q": 4, b"C": 6, b"H": 1, b"V": 1, b"h": 1, b"v": 1, b"z": 0}
# <use> placed by a translation only (a glyph of a text): the same place as x and y
_USE = re.compile(rb'<use xlink:href="([^"]+)" transform="translate\((\S+) (\S+)\)"/>')
# <use> of a marker (a tick, a point), placed by x and y
_MARKER = re.compile(rb'(<use xlink:href="[^"]+") x="(-?[\d.]+)" y="(-?[\d.]+)"')
_STYLE = re.compile(rb'(?<= style=")[^"]*')
_STYLE_ATTRIBUTE = re.compile(rb' style="([^"]*)"')
_REFERENCE = re.compile(rb'#([A-Za-z_][\w.-]*)(?=[")])')   # href="#id", url(#id)
_TAG = re.compile(rb"<(/?)g\b([^>]*?)(/?)>")


def _number(value: float) -> bytes:
    text = (b"%.2f" % value).rstrip(b"0").rstrip(b".")
    return b"0" if text in (b"-0", b"") else text


def _rect(match: re.Match) -> bytes:
    x0, y0, x1, y1 = (float(match[i]) for i in (1, 2, 3, 4))
    end = b"z" if match[5] == b"z" else b"v" + _number(y0 - y1)   # a fourth side is drawn, not closed
    return b"M%s %sh%sv%sh%s%s" % (match[1], match[2], _number(x1 - x0), _number(y1 - y0), _number(x0 - x1), end)


def _commands(data: bytes) -> list[tuple[bytes, list[bytes]]]:
    """[(command, its numbers)] of path data, or None when it holds a command matplotlib does not
    write (each command here is followed by all its numbers)."""
    tokens, out = _TOKEN.findall(data), []
    i = 0
    while i < len(tokens):
        command = tokens[i]
        count = _ARGS.get(command)
        if count is None or len(tokens) < i + 1 + count or any(t.isalpha() for t in tokens[i + 1:i + 1 + count]):
            return None
        out.append((command, tokens[i + 1:i + 1 + count]))
        i += 1 + count
    return out


def _path_text(commands: list[tuple[bytes, list[bytes]]]) -> bytes:
    """Path data with no separator that SVG's grammar does not need: none beside a command
    letter, before a minus sign, or before a number that starts with its decimal point when the
    number before has one (``.5.25``), and a command letter that repeats the one before left out
    (``L1 2L3 4`` is ``L1 2 3 4``)."""
    out, previous, last = [], None, b""

    def separator(number: bytes) -> bytes:
        return b"" if number.startswith(b"-") or (number.startswith(b".") and b"." in last) else b" "

    for command, numbers in commands:
        if command != previous or command in (b"M", b"m", b"z"):
            out.append(command)
            last = b""
        elif numbers:
            out.append(separator(numbers[0]))
        for i, number in enumerate(numbers):
            if i:
                out.append(separator(number))
            out.append(number)
            last = number
        previous = command
    return b"".join(out)


def _short(hundredths: int) -> bytes:
    """A number of hundredths as path data writes it: ``-0.5`` is ``-.5``."""
    text = _number(hundredths / 100)
    return text.replace(b"0.", b".", 1) if text.lstrip(b"-").startswith(b"0.") else text


def _absolute_path(data: bytes) -> bytes:
    """Path data (0.01 pt numbers) as short as it can be written, the same points: a line that
    keeps y is H, one that keeps x is V, and each command absolute or relative to the point
    before (``l``, ``h``, ...), whichever is shorter (worked out in whole hundredths: exact)."""
    parsed = _commands(data)
    if parsed is None:
        return data
    commands, x, y, start = [], None, None, (None, None)
    for command, numbers in parsed:
        values = [round(float(n) * 100) for n in numbers]
        if command == b"L" and y is not None and values[1] == y:
            command, values = b"H", values[:1]
        elif command == b"L" and x is not None and values[0] == x:
            command, values = b"V", values[1:]
        forms = [(command, values)]
        if x is not None and command in (b"M", b"L", b"Q", b"C"):
            forms.append((command.lower(), [v - (y if k % 2 else x) for k, v in enumerate(values)]))
        elif x is not None and command in (b"H", b"V"):
            forms.append((command.lower(), [values[0] - (x if command == b"H" else y)]))
        written = [(c, [_short(v) for v in vs]) for c, vs in forms]
        commands.append(min(written, key=lambda form: len(_path_text([form]))))   # the absolute one on a tie
        if command in (b"M", b"L", b"Q", b"C"):
            x, y = values[-2], values[-1]
            if command == b"M":
                start = (x, y)
        elif command == b"H":
            x = values[0]
        elif command == b"V":
            y = values[0]
        elif command == b"h" and x is not None:
            x += values[0]
        elif command == b"v" and y is not None:
            y += values[0]
        elif command == b"z":
            x, y = start
    return _path_text(commands)


def _glyph_units(data: bytes) -> bytes:
    """A glyph's outline (integer numbers, absolute, 6400 to the em) in thousandths of an em, each
    number rounded (half up) to the nearest: an outline drawn on a 1000-unit grid, as Noto Sans
    CJK's are, comes back exactly (its points were scaled by 6.4 and rounded; 6.4 x 0.5 > 1);
    DejaVu Sans's (2048 units) moves by at most half a thousandth of an em.

    >>> _glyph_units(b"M 3200 -83 L 6400 0 z")
    b'M 500 -13 L 1000 0 z'
    """
    return _TOKEN.sub(lambda m: m[0] if m[0].isalpha() else b"%d" % ((int(m[0]) * 5 + 16) // 32), data)


def _relative_path(data: bytes) -> bytes:
    """A glyph's outline (integer numbers, absolute) in relative commands: the same integers,
    shorter; a line along an axis as ``h`` or ``v``."""
    commands, x, y, start = [], 0, 0, (0, 0)
    parsed = _commands(data)
    if parsed is None or not data.startswith(b"M"):
        return None
    for command, numbers in parsed:
        values = [int(n) for n in numbers]
        if command == b"z":
            commands.append((b"z", []))
            x, y = start
            continue
        if command in (b"h", b"v"):       # a rectangle compacted already
            commands.append((command, numbers))
            x, y = (x + values[0], y) if command == b"h" else (x, y + values[0])
            continue
        relative = [v - (y if k % 2 else x) for k, v in enumerate(values)]
        if command == b"L" and relative[1] == 0:
            commands.append((b"h", [b"%d" % relative[0]]))
        elif command == b"L" and relative[0] == 0:
            commands.append((b"v", [b"%d" % relative[1]]))
        else:
            commands.append((command.lower(), [b"%d" % v for v in relative]))
        x, y = values[-2], values[-1]
        if command == b"M":
            start = (x, y)
    return _path_text(commands)


def _groups(svg: bytes) -> bytes:
    """Without the groups that change nothing: ``<g>`` with no attributes (its children take its
    place) and empty ones."""
    out, stack, last = [], [], 0
    for match in _TAG.finditer(svg):
        out.append(svg[last:match.start()])
        last = match.end()
        closing, attributes, empty = match[1], match[2].strip(), match[3]
        if empty:
            if b"id=" in attributes:
                out.append(match[0])
        elif not closing:
            stack.append((len(out), attributes))
            out.append(match[0] if attributes else b"")
        else:
            start, attributes = stack.pop()
            if attributes and b"id=" not in attributes and not b"".join(out[start + 1:]).strip():
                del out[start:]          # an empty group with attributes
            elif attributes:
                out.append(match[0])
    out.append(svg[last:])
    return b"".join(out)


def _short_name(index: int) -> bytes:
    """The ``index``-th short name: a ... z, A ... Z, aa, ab, ... (an XML name, a CSS class)."""
    letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = letters[index % 52:index % 52 + 1]
    index //= 52
    while index:
        index -= 1
        name = letters[index % 52:index % 52 + 1] + name
        index //= 52
    return name


def _short_ids(svg: bytes) -> bytes:
    """Ids that something refers to, renamed a, b, c, ... in the order they are defined (glyphs
    were ``NotoSansCJKsc-Regular-4e2d``, clip paths ``p8c43ef1391``); the others removed."""
    referenced = set(_REFERENCE.findall(svg))
    names: dict[bytes, bytes] = {}
    for found in _ID.findall(svg):
        if found in referenced and found not in names:
            names[found] = _short_name(len(names))
    svg = _ID.sub(lambda m: b' id="%s"' % names[m[1]] if m[1] in names else b"", svg)
    return _REFERENCE.sub(lambda m: b"#" + names.get(m[1], m[1]), svg)


def _style_classes(svg: bytes) -> bytes:
    """Each ``style`` that several elements share as a class, its rule in the SVG's stylesheet
    (a class outranks matplotlib's ``*`` rule there, as the inline style did; nothing else sets
    these properties)."""
    counts = Counter(_STYLE_ATTRIBUTE.findall(svg))
    classes = {style: _short_name(i) for i, (style, n) in enumerate(c for c in counts.most_common() if c[1] > 1)}
    if not classes or svg.count(b"</style>") != 1:
        return svg
    svg = _STYLE_ATTRIBUTE.sub(lambda m: b' class="%s"' % classes[m[1]] if m[1] in classes else m[0], svg)
    rules = b"".join(b".%s{%s}" % (name, style) for style, name in classes.items())
    return svg.replace(b"</style>", rules + b"</style>")


def compact_svg(svg: bytes) -> bytes:
    """Smaller SVG, the same picture, from matplotlib's (in Chromium the same pixels but for the
    antialiasing of some glyph edges: 124 figures at 1x differ in 0.1-1.2 % of their pixels, by
    at most 75 of 255):

    * coordinates (path data, translations, markers' places) to 0.01 pt (1/7200 inch); scales and
      rotations exact;
    * path data without separators SVG does not need, lines along an axis as ``H``/``V``,
      rectangles (heatmap cells, bars) as ``M x y h w v h h -w z``, glyph outlines in relative
      commands, in thousandths of an em (:func:`_glyph_units`: Noto Sans CJK's own outlines);
    * a glyph placed as ``<use href="#a" x="100"/>`` (SVG 2's ``href``); ids a, b, c, ...
      (:func:`_short_ids`); a ``style`` that several elements share as a class (:func:`_style_classes`);
    * no comments (matplotlib repeats each text there), ids that nothing refers to, groups
      that change nothing, spaces in ``style``, indentation or line breaks between elements.

    >>> compact_svg(b'<svg>\\n<g>\\n  <path d="M 1.234567 2 \\nL 3.5 2 \\nL 3.5 4.000001 \\nL 1.234567 4.000001 \\nz \\n"/>\\n</g>\\n</svg>')
    b'<svg><path d="M1.23 2h2.27v2h-2.27z"/></svg>'
    >>> compact_svg(b'<svg><use xlink:href="#m1" x="54.000401" y="205.7293" style="fill: #000"/></svg>')
    b'<svg><use href="#m1" x="54" y="205.73" style="fill:#000"/></svg>'
    >>> compact_svg(b'<svg><path d="M 0 0 \\nL 10.5 0 \\nL 10.5 -3 \\n" style="fill: none; stroke: #000"/></svg>')
    b'<svg><path d="M0 0H10.5V-3" style="fill:none;stroke:#000"/></svg>'
    >>> compact_svg(b'<svg><defs><style>*{}</style></defs><clipPath id="p1f"><path d="M 0 0 \\nL 1 1 \\n"/></clipPath>'
    ...             b'<path d="M 0 0 \\nL 1 1 \\n" clip-path="url(#p1f)" style="fill: none"/><path d="M 0 0 \\n" style="fill: none"/></svg>')
    b'<svg><defs><style>*{}.a{fill:none}</style></defs><clipPath id="a"><path d="M0 0L1 1"/></clipPath><path d="M0 0L1 1" clip-path="url(#a)" class="a"/><path d="M0 0" class="a"/></svg>'
    """

    def path(match: re.Match) -> bytes:
        data = b" ".join(_DECIMALS.sub(lambda m: _number(float(m[0])), match[0]).split())
        return _absolute_path(_RECT.sub(_rect, data))

    def glyph(match: re.Match) -> bytes:
        data = b" ".join(match[2].split())
        if _DECIMALS.search(data):
            return match[0]                                                       # path() below
        relative = _relative_path(_RECT.sub(_rect, _glyph_units(data)))
        return match[0] if relative is None else match[1] + relative + _GLYPH_SCALE

    def translate(match: re.Match) -> bytes:
        return b"translate(%s)" % _DECIMALS.sub(lambda m: _number(float(m[0])), match[1])

    def use(match: re.Match) -> bytes:
        y = b"" if match[3] == b"0" else b' y="%s"' % match[3]
        return b'<use xlink:href="%s" x="%s"%s/>' % (match[1], match[2], y)

    svg = re.sub(rb"<!--.*?-->", b"", svg, flags=re.S)
    svg = _GLYPH_DEF.sub(glyph, svg)
    svg = _PATH_DATA.sub(lambda m: m[0] if re.fullmatch(rb"[mlqczhv\d -]*", m[0]) else path(m), svg)
    svg = _USE.sub(use, _INDENT.sub(b"\n", _TRANSLATE.sub(translate, svg)))
    svg = _MARKER.sub(lambda m: b'%s x="%s" y="%s"' % (m[1], _number(float(m[2])), _number(float(m[3]))), svg)
    svg = _STYLE.sub(lambda m: m[0].replace(b": ", b":").replace(b"; ", b";"), svg)
    svg = _short_ids(svg)
    svg = _style_classes(svg)
    svg = svg.replace(b' xmlns:xlink="http://www.w3.org/1999/xlink"', b"").replace(b" xlink:href=", b" href=")
    head, found, body = svg.partition(b"<svg")
    return head + found + re.sub(rb">\s+<", b"><", _groups(body))


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
