"""Numbers in the prose come from attnkit, computed while the page is built (mkdocs-macros).

Pages write ``{{ pct(softmax([5, 2, 0])[0]) }}`` for ``94.6%``: ``np``, ``attnkit``, every public attnkit
function and the formatters below; Chinese pages use ``zhnum`` (1100 万, 2×10⁻⁹). Every attnkit call from
a page is memoized on disk (bookcache.memo), shared by both languages.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
import types
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

import attnkit
from attnkit.text import power

from .bookcache import memo
from .templates import compiled

# Every submodule reachable as attnkit.<name> in pages, except the figures (pages embed them as pictures)
for _info in pkgutil.iter_modules(attnkit.__path__):
    if not _info.name.startswith("_") and _info.name != "figures":
        importlib.import_module(f"attnkit.{_info.name}")


def fixed(x, digits: int) -> str:
    """x with ``digits`` decimals, a tie (in the float's repr) rounded away from zero as a reader does:
    fixed(6.25, 1) -> 6.3 (format gives 6.2), fixed(-0.0015, 3) -> −0.002 (a real minus sign, U+2212)."""
    x = float(x)
    if not np.isfinite(x):
        return str(x)
    text = str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return "\u2212" + text[1:] if text.startswith("-") and text.strip("-0.") else text.lstrip("-")


def _plain(x: float) -> str:
    """A float without exponent or trailing zeros: 1100.0 -> 1100, 1.20 -> 1.2."""
    return np.format_float_positional(x, trim="-")


def _minus(text: str) -> str:
    """A leading hyphen-minus as the minus sign U+2212: -2.3 万 -> −2.3 万."""
    return "\u2212" + text[1:] if text.startswith("-") else text


def sci(x, sig: int = 2) -> str:
    """x in scientific notation as printed in a book: sci(2.1e-9) -> 2.1×10⁻⁹, sci(3e5, 1) -> 3×10⁵."""
    mantissa, exponent = f"{float(x):.{sig - 1}e}".split("e")
    return _minus(f"{_plain(float(mantissa))}×{power(int(exponent))}")


def zhnum(x, sig: int = 2) -> str:
    """x rounded to ``sig`` significant digits, the Chinese way: 万 and 亿 for large numbers,
    ×10⁻ⁿ for tiny ones. zhnum(11_000_000) -> 1100 万, zhnum(2.1e-9) -> 2.1×10⁻⁹, zhnum(0.25) -> 0.25.
    """
    x = float(x)
    if x == 0 or not np.isfinite(x):
        return _plain(x) if np.isfinite(x) else str(x)
    r = float(f"{x:.{sig}g}")
    if abs(r) >= 1e8:
        return _minus(f"{_plain(round(r / 1e8, 12))} 亿")
    if abs(r) >= 1e4:
        return _minus(f"{_plain(round(r / 1e4, 12))} 万")
    if abs(r) < 1e-3:
        return sci(r, sig)
    return _minus(_plain(r))


# "约 275.8 万次", never "约 275.8 万 次": "{{ zhnum(x) }} 次" and "{{ zhnum(x) }}次" both read right
_SPACE_AFTER_WAN = re.compile(r"(?<=\d [万亿]) +(?=[\u4e00-\u9fff])")


def tighten_wan(markdown: str) -> str:
    """Remove the space between 万/亿 (after a number) and a Chinese character.

    >>> tighten_wan("约 275.8 万 次乘加，1100 万，10 亿 个数")
    '约 275.8 万次乘加，1100 万，10 亿个数'
    """
    return _SPACE_AFTER_WAN.sub("", markdown)


_RENDERED: set[str] = set()   # the pages on_pre_page_macros rendered (their meta says so until the post hook)


def on_pre_page_macros(env):
    """Render the page with its compiled template (templates.compiled: mkdocs-macros compiles every page
    on every build, a sixth of a warm build, as from_string keeps nothing), then tell mkdocs-macros by the
    page's documented ``render_macros: false`` that it is rendered. A page whose front matter says
    ``render_macros``, or whose title holds a macro, and any error are left to mkdocs-macros (which
    reports errors its own way)."""
    page = env.page
    if "render_macros" in page.meta or env.has_j2(page.title or ""):
        return
    try:
        markdown = compiled(env.env, env.markdown).render(**{**env.variables, **page.meta})
    except Exception:
        return
    env.markdown = markdown
    page.meta["render_macros"] = False
    _RENDERED.add(page.file.src_uri)


def on_post_page_macros(env):
    """On a Chinese page 万/亿 stay next to their measure word; the page is remembered for course.py."""
    from .course import rendered_page

    if env.page.file.src_uri in _RENDERED:   # the page's meta as its front matter gave it
        del env.page.meta["render_macros"]
    if env.conf["theme"]["language"] == "zh":
        env.markdown = tighten_wan(env.markdown)
    rendered_page(env)


class Memoized:
    """attnkit (or one of its modules) as pages see it: its functions are memoized."""

    def __init__(self, module: types.ModuleType):
        self._module = module

    def __getattr__(self, name):
        return memoized(getattr(self._module, name))

    def __repr__(self):
        return f"<memoized {self._module.__name__}>"


def memoized(value):
    if isinstance(value, types.ModuleType) and value.__name__.startswith("attnkit"):
        return Memoized(value)
    plain = getattr(value, "__wrapped__", value) if callable(value) else value   # an lru_cache'd function too
    if isinstance(plain, types.FunctionType) and plain.__module__.startswith("attnkit"):
        return functools.wraps(value)(functools.partial(memo, value))
    return value


def define_env(env):
    # glossary() and concept_table(); exercise() and exercise_progress(); objectives(), the chapters' times
    # and the teacher's links; the slides' figure() and deck parts
    from . import course, exercise_pages, glossary, slides

    for module in (glossary, exercise_pages, course, slides):
        module.register_macros(env)

    env.variables["np"] = np
    env.variables["attnkit"] = Memoized(attnkit)
    for name in attnkit.__all__:
        env.variables[name] = memoized(getattr(attnkit, name))

    @env.macro
    def num(x, digits: int = 3) -> str:
        """A number rounded to ``digits`` decimals, trailing zeros kept: num(0.94649, 3) -> 0.946 (see fixed)."""
        return fixed(x, digits)

    @env.macro
    def pct(x, digits: int = 1) -> str:
        """A share as a percentage: pct(0.94649) -> 94.6%, pct(1 / 16) -> 6.3% (see fixed)."""
        return f"{fixed(100 * float(x), digits)}%"

    env.macro(zhnum)
    env.macro(sci)

    @env.macro
    def vec(xs, digits: int = 3) -> str:
        """A vector as [a, b, c] with ``digits`` decimals."""
        return "[" + ", ".join(fixed(x, digits) for x in np.ravel(xs)) + "]"
