"""Math rendered at build time: every arithmatex formula becomes KaTeX HTML + MathML in the page.

One Node process per build (katex_render.js, the pinned ``katex``) renders the formulas not in
``.cache/katex/formulas.json``, a batch per page; a formula KaTeX cannot parse stops the build, its
strict-mode complaints are warnings. After the build, KaTeX's stylesheet and fonts (bookbuild/vendor.py)
are cut to what the formulas use (:func:`cut_katex_assets`).
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
        self.process, self.salt, self.cache, self.new = None, "", {}, 0

    def load(self) -> None:
        self.salt = json.dumps([katex_version(), OPTIONS, hashlib.sha256(SCRIPT.read_bytes()).hexdigest()])
        self.cache, self.new = _cached(), 0

    def key(self, tex: str, display: bool) -> str:
        return hashlib.sha256(f"{self.salt}\0{int(display)}\0{tex}".encode()).hexdigest()

    def render(self, formulas: list[tuple[str, bool]], where: str) -> list[str]:
        """KaTeX HTML for each (tex, display) pair, from the cache or from Node."""
        keys = [self.key(tex, display) for tex, display in formulas]
        missing = {k: f for k, f in zip(keys, formulas) if k not in self.cache}
        if missing:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    ["node", str(SCRIPT), json.dumps(OPTIONS)], cwd=ROOT, text=True, encoding="utf-8",
                    env={**os.environ, "NODE_PATH": str(ROOT / "node_modules")},
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self.process.stdin.write(json.dumps([{"tex": t, "display": d} for t, d in missing.values()]) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
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
        if self.new:   # the other language's build may have added formulas meanwhile: keep them
            merged = {**_cached(), **self.cache}
            bookcache.write_atomically(CACHE, json.dumps(merged, ensure_ascii=False, sort_keys=True).encode("utf-8"))
            self.new = 0

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=10)
            self.process = None


def _cached() -> dict[str, str]:
    try:
        return json.loads(CACHE.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}


renderer = Renderer()
atexit.register(renderer.close)


def split(element: str, body: str) -> tuple[str, bool]:
    """The TeX and display mode of one arithmatex element's (HTML-escaped) content."""
    tex = html.unescape(body).strip()
    found = DELIMITED[element].fullmatch(tex)   # \begin{align}... arrives without \[ \]
    return (found[1] if found else tex), element == "div"


def render_math(page_html: str, where: str) -> str:
    """Replace every arithmatex element's TeX with KaTeX HTML (the element itself is kept)."""
    matches = list(MATH.finditer(page_html))
    if not matches:
        return page_html
    rendered = iter(formula.replace('<math xmlns="http://www.w3.org/1998/Math/MathML"', "<math", 1)   # HTML implies it
                    for formula in renderer.render([split(m[1], m[2]) for m in matches], where))
    return MATH.sub(lambda m: f'<{m[1]} class="arithmatex" data-search-exclude>{next(rendered)}</{m[1]}>', page_html)


def on_config(config):
    renderer.load()
    return config


def on_page_content(html_, page, config, files):
    return render_math(html_, page.file.src_uri)


# ---- what readers download: KaTeX's stylesheet and fonts, cut to what the book's formulas use ----
# katex.min.css is purged against this language's pages (23 -> ~8 KB), a family no kept rule names loses
# its fonts (80 KB); each font keeps the glyphs of the formulas' katex-html text (a chapter's 47 -> ~17 KB).
KATEX_SPAN = re.compile(r'<span class="katex-html"')
SPAN_TAG = re.compile(r"<(/?)span\b")
TAG = re.compile(r"<[^>]*>")
EQUATION_NUMBERS = "()0123456789"   # katex.min.css: content:"(" counter(katexEqnNo) ")"
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
FONT_FAMILY = re.compile(r"font-family:\s*['\"]?([\w-]+)")
FONT_URL = re.compile(r"url\(\s*['\"]?(?:\./)?fonts/([\w-]+\.woff2)")
KATEX_FAMILY = re.compile(r"\bKaTeX_\w+")


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


def unused_faces(css: str) -> tuple[str, list[str]]:
    """(``css`` without the @font-face rules of the KaTeX families no other rule names, their font files).

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
    """(the characters of a page's formulas, sorted, as one string; its HTML's tokens), cached under the
    page's HTML (the 100 pages an edit leaves alone cost 0.2 s)."""
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
    """(the characters of every formula on the built site's pages, sorted, as one string; their tokens)."""
    chars, classes = set(EQUATION_NUMBERS), set()
    for path in sorted(Path(site_dir).rglob("*.html")):
        page_chars, page_classes = page_usage(path.read_text(encoding="utf-8"))
        chars.update(page_chars)
        classes.update(page_classes)
    chars.discard("\n")
    return "".join(sorted(chars)), classes


def subset_font(data: bytes, chars: str) -> bytes:
    """A WOFF2 font with the glyphs of ``chars`` and what they need; hinting, names and timestamps kept."""
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
    # KaTeX's fonts have no CJK glyphs (the page's font draws them): both languages cut the fonts under one key
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
        k = (key("katex.css", salt, data, sorted(classes)) if path == css_path
             else key("katex font", salt, data, font_chars))
        out = store.get(k)
        if out is None:
            # both languages' builds cut the same fonts at once: the second waits (2.4 CPU-s once, not twice)
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
