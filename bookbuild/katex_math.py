"""Math rendered at build time: every formula becomes KaTeX HTML (+ MathML) in the page itself.

pymdownx.arithmatex (generic mode) leaves ``<span class="arithmatex">\\(...\\)</span>`` and
``<div class="arithmatex">\\[...\\]</div>``; this hook replaces their TeX with what
``katex.renderToString`` makes of it (``output: htmlAndMathml``: HTML for the eye, MathML for
screen readers), so no page needs JavaScript for a formula: readers load KaTeX's CSS and fonts
only (bookbuild/vendor.py), which :func:`cut_katex_assets` cuts to what the formulas use.

* One Node process per build (bookbuild/katex_render.js, the pinned ``katex``), started on the
  first formula not in ``.cache/katex/formulas.json`` (keyed by the TeX, display mode, KaTeX's
  version, the options and the script; shared by both languages), fed one batch per page.
* A formula KaTeX cannot parse stops the build, naming the page and the formula; KaTeX's
  strict-mode complaints are build warnings (so `--strict` fails).
* The rendered formula is left out of the search index (``data-search-exclude``), and its
  ``<math>`` loses KaTeX's MathML ``xmlns``, which an HTML parser implies (43 bytes × 2 300).

Runs after the glossary's tooltips (which skip math by its class) and before offline_pdf.py
hands the page's HTML to the print page.
"""

from __future__ import annotations

import atexit
import hashlib
import html
import json
import logging
import os
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

from . import bookcache

log = logging.getLogger("mkdocs.hooks.katex_math")
ROOT = Path(__file__).resolve().parents[1]
KATEX = ROOT / "node_modules" / "katex"
SCRIPT = Path(__file__).with_name("katex_render.js")
CACHE = bookcache.CACHE / "katex" / "formulas.json"   # under BOOK_CACHE when it is set, as every cache
OPTIONS = {"output": "htmlAndMathml"}

MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
DELIMITED = {"span": re.compile(r"\\\((.*)\\\)", re.S), "div": re.compile(r"\\\[(.*)\\\]", re.S)}


def katex_version() -> str:
    try:
        return json.loads((KATEX / "package.json").read_text(encoding="utf-8"))["version"]
    except FileNotFoundError:
        raise PluginError(
            f"math: {KATEX.relative_to(ROOT)} is missing. Run `make setup` (it runs `npm ci`) "
            "to install the pinned packages from package-lock.json."
        ) from None


class Renderer:
    """The Node process that renders formulas, and the cache in front of it."""

    def __init__(self):
        self.process = None
        self.salt = ""
        self.cache: dict[str, str] = {}
        self.new = 0

    def load(self) -> None:
        script = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()
        self.salt = json.dumps([katex_version(), OPTIONS, script])
        try:
            self.cache = json.loads(CACHE.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            self.cache = {}
        self.new = 0

    def key(self, tex: str, display: bool) -> str:
        return hashlib.sha256(f"{self.salt}\0{int(display)}\0{tex}".encode()).hexdigest()

    def _node(self):
        if self.process is None or self.process.poll() is not None:
            env = {**os.environ, "NODE_PATH": str(ROOT / "node_modules")}
            self.process = subprocess.Popen(
                ["node", str(SCRIPT), json.dumps(OPTIONS)], cwd=ROOT, env=env, text=True, encoding="utf-8",
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            )
        return self.process

    def render(self, formulas: list[tuple[str, bool]], where: str) -> list[str]:
        """KaTeX HTML for each (tex, display) pair, from the cache or from Node."""
        keys = [self.key(tex, display) for tex, display in formulas]
        missing = {k: f for k, f in zip(keys, formulas) if k not in self.cache}
        if missing:
            node = self._node()
            node.stdin.write(json.dumps([{"tex": t, "display": d} for t, d in missing.values()]) + "\n")
            node.stdin.flush()
            line = node.stdout.readline()
            if not line:
                raise PluginError(f"katex_math: the KaTeX renderer ({SCRIPT.relative_to(ROOT)}) stopped while rendering {where}")
            for (k, (tex, display)), result in zip(missing.items(), json.loads(line)):
                if "error" in result:
                    raise PluginError(f"katex_math: {where}: KaTeX cannot render {tex!r}: {result['error']}")
                for warning in result.get("warnings", []):
                    log.warning("%s: formula %r: %s", where, tex, warning)
                self.cache[k] = result["html"]
                self.new += 1
        return [self.cache[k] for k in keys]

    def save(self) -> None:
        if not self.new:
            return
        try:  # the other language's build may have added formulas meanwhile: keep them
            merged = {**json.loads(CACHE.read_text(encoding="utf-8")), **self.cache}
        except (FileNotFoundError, ValueError):
            merged = self.cache
        bookcache.write_atomically(CACHE, json.dumps(merged, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        self.new = 0

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=10)
            self.process = None


renderer = Renderer()
atexit.register(renderer.close)


def split(element: str, body: str) -> tuple[str, bool]:
    """The TeX and display mode of one arithmatex element's (HTML-escaped) content."""
    tex = html.unescape(body).strip()
    found = DELIMITED[element].fullmatch(tex)   # \begin{align}... arrives without \[ \]
    return (found[1] if found else tex), element == "div"


MATHML_NAMESPACE = ' xmlns="http://www.w3.org/1998/Math/MathML"'


def render_math(page_html: str, where: str) -> str:
    """Replace every arithmatex element's TeX with KaTeX HTML (the element itself is kept)."""
    matches = list(MATH.finditer(page_html))
    if not matches:
        return page_html
    rendered = iter(formula.replace("<math" + MATHML_NAMESPACE, "<math", 1)
                    for formula in renderer.render([split(m[1], m[2]) for m in matches], where))
    return MATH.sub(lambda m: f'<{m[1]} class="arithmatex" data-search-exclude>{next(rendered)}</{m[1]}>', page_html)


def on_config(config):
    renderer.load()
    return config


def on_page_content(html_, page, config, files):
    return render_math(html_, page.file.src_uri)


# ---- what readers download: KaTeX's stylesheet and fonts, cut to what the book's formulas use ----
# Written over the copies bookbuild/vendor.py put in the site, after every page is built:
# * katex.min.css keeps the rules an element of some page of this language can match (PurgeCSS,
#   bookbuild/trim_and_minify.py); 23 -> ~8 KB. A font family no kept rule names (KaTeX_Fraktur,
#   ...) loses its @font-face rules and its fonts leave the site (unused_faces; 80 KB).
# * each font keeps the glyphs of the characters in the formulas' ``katex-html`` part (the MathML
#   beside it is for screen readers) and the equation numbers' "(0-9)" (fontTools subset); a
#   chapter's three fonts 47 -> ~17 KB. Every character KaTeX draws is a character of its output,
#   and every formula is rendered at build time, so no glyph a formula uses is dropped.
# Cached in .cache/katex-assets/ (each page's usage under its HTML: page_usage).
KATEX_SPAN = re.compile(r'<span class="katex-html"')
SPAN_TAG = re.compile(r"<(/?)span\b")
TAG = re.compile(r"<[^>]*>")
EQUATION_NUMBERS = "()0123456789"   # katex.min.css: content:"(" counter(katexEqnNo) ")"


def formulas(page_html: str) -> list[str]:
    """The HTML that draws every rendered formula on a page (each ``<span class="katex-html">``).

    >>> formulas('<p>a <span class="katex-html"><span class="x">y</span></span> b</p>')
    ['<span class="katex-html"><span class="x">y</span></span>']
    """
    found, pos = [], 0
    while (start := KATEX_SPAN.search(page_html, pos)) is not None:
        depth, end = 0, len(page_html)
        for tag in SPAN_TAG.finditer(page_html, start.start()):
            depth += -1 if tag[1] else 1
            if depth == 0:
                end = page_html.index(">", tag.end()) + 1
                break
        found.append(page_html[start.start():end])
        pos = end
    return found


FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
FONT_FAMILY = re.compile(r"font-family:\s*['\"]?([\w-]+)")
FONT_URL = re.compile(r"url\(\s*['\"]?(?:\./)?fonts/([\w-]+\.woff2)")
KATEX_FAMILY = re.compile(r"\bKaTeX_\w+")


def unused_faces(css: str) -> tuple[str, list[str]]:
    """(``css`` without the @font-face rules of the KaTeX families that none of its other rules
    names, the font files those rules named).

    >>> unused_faces('@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2)}'
    ...              '@font-face{font-family:KaTeX_Fraktur;src:url(fonts/KaTeX_Fraktur-Regular.woff2)}'
    ...              '.katex{font:normal 1.21em KaTeX_Main,serif}')
    ('@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2)}.katex{font:normal 1.21em KaTeX_Main,serif}', ['KaTeX_Fraktur-Regular.woff2'])
    """
    named = set(KATEX_FAMILY.findall(FONT_FACE.sub("", css)))
    dropped: list[str] = []

    def face(match: re.Match) -> str:
        family = FONT_FAMILY.search(match[0])
        if family is None or family[1] in named or not family[1].startswith("KaTeX_"):
            return match[0]
        dropped.extend(FONT_URL.findall(match[0]))
        return ""

    return FONT_FACE.sub(face, css), dropped


def page_usage(text: str) -> tuple[str, list[str]]:
    """(the characters of a page's formulas, sorted, as one string; its HTML's tokens: tags, attributes, classes),
    cached in .cache/katex-assets/ under the page's HTML and this file: a rebuild after a
    one-page edit scans that page and the print page only (the 100 others cost 0.2 s)."""
    from . import trim_and_minify
    from .bookcache import Store, key, sources

    store, k = Store("katex-assets", ".json"), key("page usage", 1, sources([Path(__file__), Path(trim_and_minify.__file__)]), text)
    cached = store.get(k)
    if cached is not None:
        return tuple(json.loads(cached))
    chars = set()
    for formula in formulas(text):
        chars.update(html.unescape(TAG.sub("", formula)))
    usage = ("".join(sorted(chars)), trim_and_minify.tokens(text))
    store.put(k, json.dumps(usage).encode("utf-8"))
    return usage


def site_usage(site_dir: Path) -> tuple[str, set[str]]:
    """(the characters of every formula on the built site's pages, sorted, as one string; every
    token of their HTML: tags, attributes, classes)."""
    chars, classes = set(EQUATION_NUMBERS), set()
    for path in sorted(Path(site_dir).rglob("*.html")):
        page_chars, page_classes = page_usage(path.read_text(encoding="utf-8"))
        chars.update(page_chars)
        classes.update(page_classes)
    chars.discard("\n")
    return "".join(sorted(chars)), classes


def subset_font(data: bytes, chars: str) -> bytes:
    """A WOFF2 font with the glyphs of ``chars`` (and what they need: composites, layout
    features, kerning); hinting, names and the original timestamps are kept."""
    import io

    from fontTools import subset
    from fontTools.ttLib import TTFont

    # KaTeX's fonts carry 1970s timestamps, which fontTools reports on every cut (and keeps, as asked)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    options = subset.Options(flavor="woff2", layout_features=["*"], name_IDs=["*"], name_languages=["*"],
                             name_legacy=True, legacy_kern=True, notdef_outline=True, recalc_timestamp=False,
                             ignore_missing_unicodes=True)
    font = TTFont(io.BytesIO(data), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out, reorderTables=False)
    return out.getvalue()


def cut_katex_assets(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Trim the site's katex.min.css and subset its fonts (see above): {file: (bytes before, after)}."""
    import unicodedata
    from importlib.metadata import version

    from . import trim_and_minify
    from .bookcache import Store, key, locked, sources

    store = Store("katex-assets")
    folder = Path(site_dir) / "assets" / "vendor" / "katex"
    if not folder.is_dir():
        return {}
    chars, classes = site_usage(site_dir)
    # KaTeX's fonts have no wide (CJK) glyphs: Chinese in a formula's \text{} is drawn by the
    # page's font (KaTeX's cjk_fallback), and a font cut for it is the same bytes without it.
    # So both languages cut the fonts under one key.
    font_chars = "".join(c for c in chars if unicodedata.east_asian_width(c) not in ("W", "F"))
    salt = [sources([Path(__file__), Path(trim_and_minify.__file__), Path(trim_and_minify.__file__).with_name("trim.mjs"),
                     trim_and_minify.ROOT / "package-lock.json"]), version("fonttools"), version("brotli")]
    sizes = {}
    css_path = folder / "katex.min.css"
    dropped: list[str] = []
    for path in [css_path, *sorted((folder / "fonts").glob("*.woff2"))]:
        if path.name in dropped:            # a family no formula uses (unused_faces)
            sizes[path.name] = (path.stat().st_size, 0)
            path.unlink()
            continue
        data = path.read_bytes()
        if path == css_path:
            k = key("katex.css", salt, data, sorted(classes))
        else:
            k = key("katex font", salt, data, font_chars)
        out = store.get(k)
        if out is None:
            # both languages' builds cut the same fonts (the key above) at the same moment: the
            # second waits for the first's file (2.4 CPU-s once, not twice)
            with locked(store.path(k)):
                out = store.get(k)
                if out is None:
                    out = (trim_and_minify.purge(data.decode("utf-8"), classes).encode("utf-8") if path == css_path
                           else subset_font(data, font_chars))
                    store.put(k, out)
        if path == css_path:
            css, dropped = unused_faces(out.decode("utf-8"))
            out = css.encode("utf-8")
        path.write_bytes(out)
        sizes[path.name] = (len(data), len(out))
    return sizes


def on_post_build(config):
    renderer.save()
    sizes = cut_katex_assets(Path(config.site_dir))
    if sizes:
        before, after = sum(b for b, _ in sizes.values()), sum(a for _, a in sizes.values())
        log.info("KaTeX stylesheet and %d fonts cut to the book's formulas: %d -> %d KB",
                 len(sizes) - 1, before // 1024, after // 1024)


def on_shutdown():
    renderer.close()
