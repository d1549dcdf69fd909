"""A page loads only what it uses (issue 15, light first visit).

Plugins add their browser files to every page; this hook takes them off the pages that do not
use them, after the HTML is final (``on_post_page``):

* markdown-exec's ``pyodide`` fence loads Pyodide from a CDN: the book never uses it (the
  playground runs Python from the site itself). The configs enable only markdown-exec's
  ``python`` fence (``languages: [python]``), so its ``_markdown_exec_pyodide.js/.css`` (the
  stylesheet ``@import``s from a CDN) are neither copied into site/ nor linked; a page that
  still renders such a fence stops the build.
* mkdocs-print-site-plugin's ``js/print-site.js`` and ``css/print-site*.css`` style and number
  the print page only: they stay there (the plugin writes that page itself, after this event)
  and leave every other page.
* The ``<link rel="alternate" hreflang>`` tags in ``<head>`` pointed at each language's home
  page, and Material fetches ``sitemap.xml`` from each of them on every first visit (3 fetches
  of the same sitemaps with instant navigation). The language selector
  (overrides/partials/alternate.html) links to the same page in the other language without them.
* Material's palette stylesheet (12 KB) holds every primary and accent colour; pages get a copy
  with the ones the config's palette uses (3 KB, named by its content). Material's own copies of
  the palette and main stylesheets (and their source maps) leave site/ once the trimmed ones
  are written: no page links them.
* Lab pages (mkdocs-jupyter): the notebook stylesheet that nbconvert inlines into each lab page
  (JupyterLab's whole theme, ~580 KB) keeps only the rules whose classes occur on that page and
  the custom properties something uses; the MathJax loader whose ``src`` is empty (it fetched the
  page itself again as a script) goes. Only the rules kept are parsed (tinycss2); the stylesheet's
  top level is split by a scanner that skips comments and strings, 3x faster than parsing it all.
  Results are cached in ``.cache/lean/`` under the stylesheet, the page's classes, the custom
  properties read elsewhere, this file and tinycss2's version: both languages share them. tests/test_lean.py swaps the full stylesheet back in, in
  the browser, and checks that no element's computed style changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import tinycss2
from mkdocs.exceptions import PluginError

from .bookcache import Store, _version, key, sources

_TRIMMED = Store("lean", ".css")   # trim_css results, keyed by everything they depend on
_FACTS = Store("lean", ".json")    # file_facts: what each page and script adds to the site's classes

# Tags removed with the spaces before them (see _remove_indented: a pattern that begins with
# ``[ \t]*`` is tried at every character, 0.1 s per pattern on the 2.2 MB print page)
PRINT_SITE = re.compile(
    r'<(?:link rel="stylesheet" href="[^"]*css/print-site[\w-]*\.css">\n?'
    r'|script src="[^"]*js/print-site\.js"></script>\n?)')
HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
PYODIDE_FENCE = (re.compile(r'<div class="pyodide"'), re.compile(r'class="[^"]*\bpyodide-editor\b'))
EMPTY_MATHJAX = re.compile(r"<!-- Load mathjax -->\s*<script src=\"\"> </script>.*?<!-- End of mathjax configuration -->\n?", re.S)
STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)
CLASS_ATTR = re.compile(r'\bclass="([^"]*)"')
_CLASS_FROM_TAG = re.compile(r'class="([^"]*)"')   # CLASS_ATTR without \b: searched 8x faster (see class_values)
_WORD = re.compile(r"\w")
CLASS_IN_SELECTOR = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
KEEP_AT = {"media", "supports", "container", "layer"}


def class_values(text: str) -> list[str]:
    """``CLASS_ATTR.findall(text)``, the values of every ``class="..."``, in less than half the
    time: a pattern that begins with ``\\b`` is tried at every character (41 -> 18 ms of CPU on
    the print page).

    >>> class_values('<p class="a b"><i data-class="c">xclass="d" class="e"</i>')
    ['a b', 'c', 'e']
    """
    out, pos = [], 0
    while (match := _CLASS_FROM_TAG.search(text, pos)) is not None:
        if match.start() and _WORD.match(text, match.start() - 1):   # no word boundary: CLASS_ATTR moves on by one
            pos = match.start() + 1
            continue
        out.append(match[1])
        pos = match.end()
    return out


def class_names(text: str) -> set[str]:
    """Every class name in ``text``'s ``class="..."`` attributes.

    >>> sorted(class_names('<p class="a b"><i class="b c">'))
    ['a', 'b', 'c']
    """
    return {name for attr in class_values(text) for name in attr.split()}


def _remove_indented(pattern: re.Pattern, text: str) -> str:
    """``text`` without the matches of ``pattern`` and the spaces and tabs just before each, as
    ``re.sub(r"[ \\t]*" + pattern, "", text)`` would remove them, but searched from the tag on.

    >>> _remove_indented(re.compile(r"<b>\\n?"), "a\\n  <b>\\n\\t<b> c <b>")
    'a\\n c'
    """
    out, pos = [], 0
    for match in pattern.finditer(text):
        start = match.start()
        while start > pos and text[start - 1] in " \t":
            start -= 1
        out.append(text[pos:start])
        pos = match.end()
    out.append(text[pos:])
    return "".join(out)


def _outside_parentheses(selector: str) -> str:
    """``.a:not(.b) .c:is(.d, .e)`` -> ``.a:not .c:is``: what a functional pseudo-class holds may
    name classes that are absent and still match (``:not(.b)``), so only the rest is checked."""
    out, depth = [], 0
    for char in selector:
        depth += char == "("
        if not depth:
            out.append(char)
        depth -= char == ")" and depth > 0
    return "".join(out)


def _selector_kept(selector: str, classes: set[str]) -> bool:
    return all(name in classes for name in CLASS_IN_SELECTOR.findall(_outside_parentheses(selector)))


# The stylesheet's top level, found without tokenising the declarations (tinycss2 spends ~0.5 s
# on each 575 KB notebook stylesheet; most of its rules are dropped unread): comments, strings and
# escapes are skipped whole, so a brace or semicolon inside them does not count.
TOP_LEVEL = re.compile(r"/\*.*?(?:\*/|\Z)|\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?|\\.|[{};]", re.S)


PLAIN_UNSAFE = re.compile(r"/\\*|[\"'\\\\]")


def _top_level(css: str) -> list[tuple[str, str | None]]:
    """``css`` split into its top-level rules: (prelude, block contents or None) in order, as CSS
    text. ``None``: an at-rule without a block (``@charset "x";``). A prelude left open at the end
    of the text is dropped, as tinycss2 (and a browser) drop it.

    >>> _top_level('@charset "a";.a, .b{color:red} /* } */ @media x{.c{x:"}"}}')
    [('@charset "a"', None), ('.a, .b', 'color:red'), (' /* } */ @media x', '.c{x:"}"}')]
    """
    out, depth, start, opened = [], 0, 0, 0
    for match in TOP_LEVEL.finditer(css):
        char = match[0]
        if char == "{":
            if depth == 0:
                opened = match.start()
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                out.append((css[start:opened], css[opened + 1:match.start()]))
                start = match.end()
        elif char == ";" and depth == 0:
            prelude = css[start:match.start()]
            if prelude.lstrip().startswith("@"):
                out.append((prelude, None))
            start = match.end()
    if depth:  # a block left open at the end: closed by the end of the text
        out.append((css[start:opened], css[opened + 1:]))
    return out


def _rules(css: str, classes) -> list:
    """The rules whose selectors can match: each selector list keeps the selectors whose
    classes all occur in ``classes`` (or, if ``classes`` is a function, for which it is true);
    @media/@supports keep what they contain. Only what is kept is parsed (tinycss2)."""
    kept_selector = classes if callable(classes) else lambda selector: _selector_kept(selector, classes)
    kept = []
    for prelude_text, content in _top_level(css):
        plain = prelude_text.strip()
        if (content is not None and not plain.startswith("@") and not PLAIN_UNSAFE.search(plain)
                and not any(kept_selector(s) for s in ([plain] if "(" in plain else [s.strip() for s in plain.split(",")]))):
            continue  # plain text (no comment, string or escape), no selector kept: not worth tokenising
        written = tinycss2.serialize(tinycss2.parse_component_value_list(prelude_text, skip_comments=True))
        prelude = written.strip()
        if not prelude.startswith("@"):
            if content is None:
                continue
            # a comma inside :is(.a, .b) does not separate selectors: such a list is checked whole
            selectors = [prelude] if "(" in prelude else [s.strip() for s in prelude.split(",")]
            selectors = [s for s in selectors if kept_selector(s)]
            if selectors:
                declarations = tinycss2.parse_blocks_contents(content, skip_whitespace=True, skip_comments=True)
                kept.append(("rule", ",".join(selectors), declarations))
            continue
        at_keyword = re.match(r"@([\w-]+)", prelude)
        name = at_keyword[1] if at_keyword else ""
        if content is not None and name.lower() in KEEP_AT:
            inner = _rules(content, classes)
            if inner:
                kept.append(("block", written.lstrip(), inner))
        else:
            rule = prelude_text + ("{" + content + "}" if content is not None else ";")
            kept.append(("as-is", "", tinycss2.serialize([tinycss2.parse_one_rule(rule, skip_comments=True)])))
    return kept


def _declarations(declarations, unused: set[str]) -> str:
    """A rule's declarations (tinycss2 nodes) without the custom properties named in ``unused``."""
    out = []
    for decl in declarations:
        if decl.type == "declaration":
            if decl.name.startswith("--") and decl.name in unused:
                continue
            out.append(f"{decl.name}:{tinycss2.serialize(decl.value).strip()}{' !important' if decl.important else ''}")
        elif decl.type == "qualified-rule":  # nested rule: keep as written
            out.append(tinycss2.serialize([decl]))
    return ";".join(out)


def _write(kept, unused: set[str]) -> str:
    out = []
    for kind, prelude, content in kept:
        if kind == "as-is":
            out.append(content)
        elif kind == "block":
            out.append(prelude + "{" + _write(content, unused) + "}")
        else:
            body = _declarations(content, unused)
            if body:
                out.append(prelude + "{" + body + "}")
    return "".join(out)


def trim_css(css: str, classes, elsewhere: str = "") -> str:
    """``css`` without the rules that cannot match an element whose classes are all in ``classes``,
    and without custom properties (``--x: ...``) that neither the kept rules nor ``elsewhere``
    (the page, the site's other stylesheets) read with ``var(--x)``.

    >>> trim_css(".a{color:red}.b{color:blue}.a .c,.a{--x:1;--y:2;margin:var(--x)}", {"a"})
    '.a{color:red}.a{--x:1;margin:var(--x)}'
    """
    if not callable(classes):  # the notebook's stylesheets: the same on many pages and in both languages
        k = key("trim_css", sources([Path(__file__)]), _version("tinycss2"), css, sorted(classes),
                sorted(set(VAR_USE.findall(elsewhere))))
        cached = _TRIMMED.get(k)
        if cached is not None:
            return cached.decode("utf-8")
    text = _trim_css(css, classes, elsewhere)
    if not callable(classes):
        _TRIMMED.put(k, text.encode("utf-8"))
    return text


def _trim_css(css: str, classes, elsewhere: str) -> str:
    kept = _rules(css, classes)
    declared = set(re.findall(r"(--[\w-]+)\s*:", css))
    outside = set(VAR_USE.findall(elsewhere))
    unused: set[str] = set()
    while True:  # a custom property may be read only by another one: drop until nothing changes
        text = _write(kept, unused)
        now = declared - set(VAR_USE.findall(text)) - outside
        if now == unused:
            return text
        unused = now


PALETTE_ATTR = re.compile(r"\[data-md-color-(primary|accent)=([\w-]+)\]")


def trim_palette(css: str, palette) -> str:
    """Material's palette stylesheet with the rules for the primary and accent colours the
    config's palette entries use, and the schemes (Material sets only those attributes).

    >>> trim_palette("[data-md-color-primary=red]{--a:1}[data-md-color-primary=indigo]{--b:2}", [{"primary": "indigo"}])
    '[data-md-color-primary=indigo]{--b:2}'
    """
    entries = palette if isinstance(palette, list) else [palette]
    used = {(kind, str(entry.get(kind, "")).replace(" ", "-").lower()) for entry in entries for kind in ("primary", "accent")}
    return trim_css(css, lambda selector: all(found in used for found in PALETTE_ATTR.findall(selector)),
                    elsewhere="var(" + " var(".join(re.findall(r"(--[\w-]+)\s*:", css)) + ")")  # keep every custom property


def trim_notebook(html: str, elsewhere: str = "") -> str:
    """A lab page without the empty MathJax loader, its notebook stylesheets trimmed to the page."""
    html = EMPTY_MATHJAX.sub("", html)
    classes = class_names(html)

    def trim(match):
        css = match[2]
        if ".jupyter-wrapper" not in css:
            return match[0]  # Pygments' small stylesheet and the book's own: left as they are
        return f'{match[1][:-1]} data-trimmed="lean">{trim_css(css, classes, html + elsewhere)}{match[3]}'

    return STYLE.sub(trim, html)


_palette: dict[str, tuple[str, str, str]] = {}   # per config file: see palette_files()


def palette_files(config) -> tuple[str, str, str]:
    """(Material's palette stylesheet name, the trimmed one's name, its text), named by content."""
    key = config.config_file_path
    if key not in _palette:
        for folder in config.theme.dirs:
            found = sorted(Path(folder).glob("assets/stylesheets/palette.*.min.css"))
            if found:
                text = trim_palette(found[0].read_text(encoding="utf-8"), config.theme["palette"])
                digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
                _palette[key] = (found[0].name, f"palette.{digest}.min.css", text)
                break
        else:
            _palette[key] = ("", "", "")
    return _palette[key]


# Elements whose whitespace shows: <pre>, and what Material styles white-space: pre-wrap
# (.md-typeset code, kbd), <textarea>; scripts and stylesheets are left as written (csp.py
# hashes the inline scripts). Everywhere else a line's indentation collapses into the line
# break before it, so it is dropped (a chapter page: 83 -> 67 KB).
KEEP_WHITESPACE = re.compile(r"<(pre|code|kbd|textarea|script|style)\b.*?</\1>", re.S | re.I)
INDENT = re.compile(r"\n[ \t]+")


def strip_indentation(html: str) -> str:
    """``html`` without the spaces that begin its lines, except inside elements that show them.

    >>> strip_indentation("<ul>\\n  <li>a\\n    b</li>\\n</ul>\\n<pre>\\n  x</pre>\\n  <code>\\n y</code>")
    '<ul>\\n<li>a\\nb</li>\\n</ul>\\n<pre>\\n  x</pre>\\n<code>\\n y</code>'
    """
    out, start = [], 0
    for match in KEEP_WHITESPACE.finditer(html):
        out.append(INDENT.sub("\n", html[start:match.start()]))
        out.append(match[0])
        start = match.end()
    out.append(INDENT.sub("\n", html[start:]))
    return "".join(out)


def lean(html: str, print_page: bool = False, elsewhere: str = "", palette: tuple[str, str] = ("", "")) -> str:
    """One page's HTML without the files it does not use (see the module docstring)."""
    if any(fence.search(html) for fence in PYODIDE_FENCE):
        raise PluginError("markdown-exec's pyodide fence loads Pyodide from a CDN and runs it on the page: "
                          "the book's listings run in the playground instead (bookbuild/playground.py).")
    if not print_page:
        html = _remove_indented(PRINT_SITE, html)
    head, sep, body = html.partition("</head>")
    if palette[0]:
        head = head.replace(f"assets/stylesheets/{palette[0]}", f"assets/stylesheets/{palette[1]}")
    if not print_page and not ("data-playground" in body and RUNS_PLAYGROUND.search(body)):
        head = _remove_indented(PLAYGROUND_CSS, head)
    html = _remove_indented(HEAD_ALTERNATE, head) + sep + body
    if 'class="jupyter-wrapper"' in html:
        return trim_notebook(html, elsewhere)   # a notebook styles more of its elements pre-wrap: left as it is
    return html if print_page else strip_indentation(html)


_site_css: dict[str, str] = {}


def _elsewhere(config) -> str:
    """The book's own stylesheets (overrides/), which may read a notebook's custom property."""
    key = config.site_dir
    if key not in _site_css:
        roots = [Path(config.docs_dir).parents[1] / "overrides"]
        _site_css[key] = "".join(p.read_text(encoding="utf-8") for root in roots for p in sorted(root.rglob("*.css")))
    return _site_css[key]


# ---- Material's stylesheet, trimmed to what the built site can use ----
# Kept: every rule whose classes all occur in the site, i.e. in a class="" of some page (the print
# page and 404 included) or anywhere in a script the site serves or inlines (Material's bundle
# and search worker add classes at runtime: every identifier-like token of theirs counts, so
# none is guessed); a class built in a template literal (`md-source__fact--${t}`) keeps every
# class that starts so. Custom properties stay when any stylesheet, page or script names them.
# Written as ``main.<digest>.min.css`` after the last page, and every page written by this build
# points at it. tests/test_lean.py puts the full stylesheet back in the browser and compares
# every element's computed style, in the states Material's JS creates (search, drawer, palette).
SCRIPT_BODY = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
TOKEN = re.compile(r"-?[_a-zA-Z][\w-]*")
TEMPLATE_PREFIX = re.compile(r"([_a-zA-Z][\w-]*-)\$\{")
CUSTOM_PROPERTY = re.compile(r"--[\w-]+")


def file_facts(text: str, script: bool) -> tuple[list[str], list[str], list[str]]:
    """What one page (``script`` false) or served script adds to the site's classes (see above):
    (class names and script tokens, template-literal prefixes, custom property names). A page
    adds the classes of its ``class=""`` attributes and the tokens of its inline scripts; a
    script all its tokens. Cached in .cache/lean/ under the text and this file: a rebuild after
    a one-page edit scans that page and the print page, not the 100 others and 2.4 MB of scripts
    (0.35 s of every build)."""
    k = key("file-facts", 1, sources([Path(__file__)]), script, text)
    cached = _FACTS.get(k)
    if cached is not None:
        return tuple(json.loads(cached))
    code = [text] if script else SCRIPT_BODY.findall(text)
    names = set() if script else class_names(text)
    names.update(token for part in code for token in TOKEN.findall(part))
    prefixes = {prefix for part in code for prefix in TEMPLATE_PREFIX.findall(part)}
    facts = (sorted(names), sorted(prefixes), sorted(set(CUSTOM_PROPERTY.findall(text))))
    _FACTS.put(k, json.dumps(facts).encode("utf-8"))
    return facts


def _union(facts) -> tuple[set[str], set[str], set[str]]:
    out = (set(), set(), set())
    for found in facts:
        for into, names in zip(out, found):
            into.update(names)
    return out


def _kept(classes: set[str], prefixes: set[str]):
    prefixes = tuple(sorted(prefixes))

    def kept(selector: str) -> bool:
        return all(name in classes or name.startswith(prefixes)
                   for name in CLASS_IN_SELECTOR.findall(_outside_parentheses(selector)))
    return prefixes, kept


def trim_material(css: str, pages: list[str], scripts: list[str], stylesheets: list[str]) -> str:
    """Material's main stylesheet without the rules that no element of the site can match."""
    classes, prefixes, named = _union([file_facts(text, False) for text in pages] + [file_facts(text, True) for text in scripts])
    prefixes, kept = _kept(classes, prefixes)
    named.update(name for text in stylesheets for name in CUSTOM_PROPERTY.findall(text))
    # (names hold no newline: one part each, not one per name, which costs 40 ms to hash)
    k = key("trim_material", 2, sources([Path(__file__)]), _version("tinycss2"), css, "\n".join(sorted(classes)),
            "\n".join(prefixes), "\n".join(sorted(named)))
    cached = _TRIMMED.get(k)
    if cached is not None:
        return cached.decode("utf-8")
    text = _trim_css(css, kept, "".join(f"var({name})" for name in sorted(named)))
    _TRIMMED.put(k, text.encode("utf-8"))
    return text


_pages: list[Path] = []   # every HTML file this build wrote


def _remove_shipped(path: Path, keep: str) -> None:
    """Remove Material's own copy of a stylesheet that was trimmed, and its source map (it maps
    the full file, not the trimmed one): every page links the trimmed copy ``keep``."""
    if path.name != keep:
        for stale in (path, path.with_name(path.name + ".map")):
            stale.unlink(missing_ok=True)


def _material_css(config) -> None:
    """Trim Material's stylesheet (see trim_material) and point every page this build wrote at it."""
    site = Path(config.site_dir)
    shipped = [found for folder in config.theme.dirs for found in sorted(Path(folder).glob("assets/stylesheets/main.*.min.css"))]
    found = [site / "assets" / "stylesheets" / shipped[0].name] if shipped else []
    if not found or not found[0].is_file():
        return
    paths = [p for p in dict.fromkeys([*_pages, site / "print_page" / "index.html"]) if p.is_file()]
    pages = [path.read_text(encoding="utf-8") for path in paths]
    scripts = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.js"))]
    stylesheets = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.css")) if p != found[0]]
    text = trim_material(found[0].read_text(encoding="utf-8"), pages, scripts, stylesheets)
    name = f"main.{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}.min.css"
    (found[0].parent / name).write_text(text, encoding="utf-8")
    _remove_shipped(found[0], keep=name)
    for path, html in zip(paths, pages):
        head, sep, body = html.partition("</head>")
        changed = head.replace(f"assets/stylesheets/{found[0].name}", f"assets/stylesheets/{name}")
        if changed != head:
            path.write_text(changed + sep + body, encoding="utf-8")


# The book's own stylesheets (overrides/assets/**.css) are written for people to read: the site
# serves them without comments and indentation (27.7 -> ~17 KB), every rule and value kept.
# playground.css styles the playground only: it leaves the other pages (its "run in the
# playground" link rules live in book.css); app.js adds it when instant navigation arrives there.
PLAYGROUND_CSS = re.compile(r'<link rel="stylesheet" href="[^"]*assets/playground/playground\.css">\n?')
RUNS_PLAYGROUND = re.compile(r"<[a-zA-Z][^>]*\sdata-playground[\s=>]")


def minify_css(css: str) -> str:
    """A stylesheet without comments and the whitespace between rules and declarations.

    >>> minify_css("/* note */\\n.a,\\n.b {\\n  color: red;\\n  --x: 1;\\n}\\n@media print {\\n  .a { display: none }\\n}\\n")
    '.a,.b{color:red;--x:1}@media print {.a{display:none}}'
    """
    return _trim_css(css, lambda selector: True, "var(" + " var(".join(re.findall(r"(--[\w-]+)\s*:", css)) + ")")


def _minify_own_css(config) -> None:
    site = Path(config.site_dir)
    own = Path(config.docs_dir).parents[1] / "overrides"
    for source in sorted(own.rglob("*.css")):
        target = site / source.relative_to(own)
        if target.is_file():
            text = source.read_text(encoding="utf-8")
            k = key("minify-css", sources([Path(__file__)]), _version("tinycss2"), text)
            cached = _TRIMMED.get(k)
            if cached is None:
                cached = minify_css(text).encode("utf-8")
                _TRIMMED.put(k, cached)
            target.write_bytes(cached)


# The book's own scripts likewise (overrides/assets/**.js, readable ES modules and scripts):
# served minified by esbuild (pinned in package.json, already used for the editor bundle), names
# exported and imported kept. A script the build rewrote (the playground worker's Pyodide path)
# is left as the build wrote it. Cached in .cache/lean/ under the script and package-lock.json.
ESBUILD = Path(__file__).resolve().parents[1] / "node_modules" / ".bin" / "esbuild"


def _minify_own_js(config) -> None:
    import subprocess
    import tempfile

    site = Path(config.site_dir)
    own = Path(config.docs_dir).parents[1] / "overrides"
    lock = sources([own.parent / "package-lock.json", Path(__file__)])
    todo = {}
    for source in sorted(own.rglob("*.js")):
        target = site / source.relative_to(own)
        if target.is_file() and target.read_bytes() == source.read_bytes():
            k = key("minify-js", lock, source.relative_to(own).as_posix(), source.read_bytes())
            cached = _SCRIPTS.get(k)
            if cached is None:
                todo[source] = (target, k)
            else:
                target.write_bytes(cached)
    if not todo:
        return
    if not ESBUILD.exists():
        raise PluginError(f"trim_and_minify: {ESBUILD} is missing: run `make setup` (it runs `npm ci`).")
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run([str(ESBUILD), *map(str, todo), "--minify", "--charset=utf8", "--legal-comments=none", "--log-level=error",
                                 f"--outdir={out}", f"--outbase={own}"], capture_output=True, text=True)
        if result.returncode != 0:
            raise PluginError(f"trim_and_minify: esbuild could not minify the book's scripts:\n{result.stderr}")
        for source, (target, k) in todo.items():
            data = (Path(out) / source.relative_to(own)).read_bytes()
            _SCRIPTS.put(k, data)
            target.write_bytes(data)


_SCRIPTS = Store("lean", ".js")


def on_config(config):
    _palette.clear()   # `mkdocs serve` keeps this module between builds: read the stylesheets again
    _site_css.clear()
    _pages.clear()
    return config


def on_files(files, config):
    # the pages this build writes, listed here and not in on_post_page: bookbuild/pagecache.py
    # serves a page unchanged since the last build from its cache without running this module's
    # on_post_page (a pure transformation of the HTML), so that hook must record nothing
    _pages.extend(Path(f.abs_dest_path) for f in files.documentation_pages())
    return files


def on_post_page(output, page, config):
    return lean(output, elsewhere=_elsewhere(config), palette=palette_files(config)[:2])


def on_post_template(output_content, template_name, config):
    if template_name.endswith(".html"):
        _pages.append(Path(config.site_dir) / template_name)
    if template_name == "404.html":
        return lean(output_content, palette=palette_files(config)[:2])
    return output_content


def on_post_build(config):
    path = Path(config.site_dir) / "print_page" / "index.html"
    if path.is_file():
        html = path.read_text(encoding="utf-8")
        path.write_text(lean(html, print_page=True, elsewhere=_elsewhere(config), palette=palette_files(config)[:2]),
                        encoding="utf-8")
    shipped, name, text = palette_files(config)
    if name:
        folder = Path(config.site_dir) / "assets" / "stylesheets"
        (folder / name).write_text(text, encoding="utf-8")
        _remove_shipped(folder / shipped, keep=name)
    _material_css(config)
    _minify_own_css(config)
    _minify_own_js(config)
