"""A page loads only what it uses; stylesheets are purged and minified.

``on_post_page`` takes off a page what it does not use: print-site's files (the print page's only),
``hreflang`` links, playground.css where no Python runs, a lab's empty MathJax loader, the lines'
indentation. Stylesheets are purged by PurgeCSS against the site's *tokens* (:func:`tokens`: tags,
attributes, script words; never text) and minified by esbuild (trim.mjs), cached in .cache/lean/.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

from .bookcache import ROOT, Store, key, sources
from .html_tags import TAG

_RESULTS = Store("lean", ".txt")   # each purged or minified file, keyed by its job
_TOKENS = Store("lean", ".json")   # each page's and script's tokens, keyed by its text
NODE = ["node", str(Path(__file__).with_name("trim.mjs"))]

# removed with the spaces before them (_remove_indented: a leading ``[ \t]*`` costs 0.1 s on the print page)
PRINT_SITE = re.compile(r'<(?:link rel="stylesheet" href="[^"]*css/print-site[\w-]*\.css">\n?'
                        r'|script src="[^"]*js/print-site\.js"></script>\n?)')
HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
PLAYGROUND_CSS = re.compile(r'<link rel="stylesheet" href="[^"]*assets/playground/playground\.css">\n?')
RUNS_PLAYGROUND = re.compile(r"<[a-zA-Z][^>]*\sdata-playground[\s=>]")
EMPTY_MATHJAX = re.compile(r"<!-- Load mathjax -->\s*<script src=\"\"> </script>.*?<!-- End of mathjax configuration -->\n?", re.S)
STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)
SCRIPT_BODY = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
WORD = re.compile(r"-?[_a-zA-Z][\w-]*")
TEMPLATE_PREFIX = re.compile(r"([_a-zA-Z][\w-]*-)\$\{")
CUSTOM_PROPERTY = re.compile(r"--[\w-]+")   # a custom property, named anywhere (var(), getPropertyValue, style="")
# Elements whose whitespace shows (Material styles code, kbd pre-wrap), and scripts csp.py hashes
KEEP_WHITESPACE = re.compile(r"<(pre|code|kbd|textarea|script|style)\b.*?</\1>", re.S | re.I)
INDENT = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")    # a line break, the indentation and the blank lines after it
CSS_NAME = re.compile(r"[\w-]+")
CSS_ATTRIBUTE = re.compile(r"""\[\s*[\w-]+\s*([~|^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+))\s*(?:[is]\s*)?\]""")
PALETTE_VALUE = re.compile(r"\[data-md-color-(?:primary|accent)=([\w-]+)\]")


def _remove_indented(pattern: re.Pattern, text: str) -> str:
    """``text`` without the matches of ``pattern`` and the spaces and tabs just before each."""
    out, pos = [], 0
    for match in pattern.finditer(text):
        start = match.start()
        while start > pos and text[start - 1] in " \t":
            start -= 1
        out.append(text[pos:start])
        pos = match.end()
    return "".join(out) + text[pos:]


def strip_indentation(html: str) -> str:
    """``html`` without its lines' indentation and blank lines, except inside elements that show them.

    >>> strip_indentation("<ul>\\n  <li>a\\n\\n\\n    b</li>\\n</ul>\\n<pre>\\n\\n  x</pre>\\n  <code>\\n y</code>")
    '<ul>\\n<li>a\\nb</li>\\n</ul>\\n<pre>\\n\\n  x</pre>\\n<code>\\n y</code>'
    """
    out, start = [], 0
    for match in KEEP_WHITESPACE.finditer(html):
        out += [INDENT.sub("\n", html[start:match.start()]), match[0]]
        start = match.end()
    return "".join(out) + INDENT.sub("\n", html[start:])


def tokens(text: str, script: bool = False) -> list[str]:
    """What a stylesheet's rules are matched against in a page (tag and attribute names, the words of
    attribute values and inline scripts) or a script (its words); cached under the text.

    >>> tokens('<p class="a b" data-x=y>text <i id="z">x</i></p><script>el.classList.add("c")</script>')
    ['a', 'add', 'b', 'c', 'class', 'classList', 'data-x', 'el', 'i', 'id', 'p', 'script', 'y', 'z']
    """
    k = key("tokens", 1, sources([Path(__file__)]), script, text)
    cached = _TOKENS.get(k)
    if cached is not None:
        return json.loads(cached)
    found = set(WORD.findall(text if script else " ".join(SCRIPT_BODY.findall(text))))
    if not script:
        for tag in TAG.finditer(text):
            if tag["name"]:
                found.add(tag["name"].lower())
                for name, *values in ATTR.findall(tag["attrs"]):
                    found.add(name.lower())
                    found.update("".join(values).split())
    result = sorted(found)
    _TOKENS.put(k, json.dumps(result).encode("utf-8"))
    return result


def run(jobs: list[dict]) -> list[str]:
    """Each job's result (trim.mjs: "css", "css-min" or "js-min"), cached; one Node process for the rest."""
    salt = sources([Path(__file__), Path(__file__).with_name("trim.mjs"), ROOT / "package-lock.json"])
    keys = [key("trim", 1, salt, json.dumps(job, sort_keys=True)) for job in jobs]
    results = [_RESULTS.get(k) for k in keys]
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        done = subprocess.run(NODE, input=json.dumps([jobs[i] for i in missing]), capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise PluginError(f"trim_and_minify: PurgeCSS/esbuild failed (run `make setup`, it runs `npm ci`):\n{done.stderr[-2000:]}")
        for i, text in zip(missing, json.loads(done.stdout)):
            results[i] = text.encode("utf-8")
            _RESULTS.put(keys[i], results[i])
    return [r.decode("utf-8") for r in results]


def purge(css: str, words, prefixes=(), keep=(), variables: bool = False) -> str:
    """``css`` without the rules no element with these tokens can match, minified."""
    return run([{"kind": "css", "text": css, "tokens": can_match(css, words), "prefixes": sorted(set(prefixes)),
                 "keep": sorted(set(keep)), "variables": variables}])[0]


def can_match(css: str, words) -> list[str]:
    """The ``words`` that can keep a rule of ``css`` (a selector's name, or an attribute value as its
    operator matches), sorted: the purge's cache key leaves the others out (a listing edit renumbers
    ``__codelineno-4-3``, which matches no rule, and the purge is not run again).

    >>> can_match('.md-a,[id^="fnref:"],a[href$=".pdf"]{x:y}', ["md-a", "fnref:1", "__codelineno-4-3", "a.pdf", "p"])
    ['a.pdf', 'fnref:1', 'md-a']
    """
    names = set(CSS_NAME.findall(css))
    ops: dict[str, set[str]] = {}
    for op, *value in CSS_ATTRIBUTE.findall(css):
        ops.setdefault(op, set()).add("".join(value))
    starts = tuple(ops.get("^=", set()) | ops.get("|=", set()))
    ends = tuple(ops.get("$=", ()))
    parts = ops.get("*=", set()) | ops.get("~=", set())
    exact = names | ops.get("=", set())
    return sorted({w for w in words if w in exact or w.startswith(starts) or w.endswith(ends) or any(p in w for p in parts)})


def trim_notebook(html: str) -> str:
    """A lab page without the empty MathJax loader, its notebook stylesheets purged against the page."""
    html = EMPTY_MATHJAX.sub("", html)
    # A custom property stays when the page, its scripts or its other sheets name it (PurgeCSS sees its own
    # sheet's): JupyterLab's ~100 --jp-icon-* data: URLs (87 KB a page) are read by no kept rule.
    sheets = [m[2] for m in STYLE.finditer(html)]
    outside = CUSTOM_PROPERTY.findall(STYLE.sub("", html))
    words = tokens(html)

    def trim(match):
        if ".jupyter-wrapper" not in match[2]:
            return match[0]  # Pygments' small stylesheet and the book's own: left as they are
        keep = outside + [name for sheet in sheets if sheet != match[2] for name in CUSTOM_PROPERTY.findall(sheet)]
        return f'{match[1][:-1]} data-trimmed="lean">{purge(match[2], words, keep=keep, variables=True)}{match[3]}'

    return STYLE.sub(trim, html)


def lean(html: str, print_page: bool = False) -> str:
    """One page's HTML without the files it does not use (see the module docstring)."""
    if not print_page:
        html = _remove_indented(PRINT_SITE, html)
    head, sep, body = html.partition("</head>")
    if not print_page and not ("data-playground" in body and RUNS_PLAYGROUND.search(body)):
        head = _remove_indented(PLAYGROUND_CSS, head)
    html = _remove_indented(HEAD_ALTERNATE, head) + sep + body
    if 'class="jupyter-wrapper"' in html:
        return trim_notebook(html)   # a notebook styles more of its elements pre-wrap: left as it is
    return html if print_page else strip_indentation(html)


def _renamed(path: Path, text: str) -> tuple[str, str]:
    """Write ``text`` as ``<stem>.<digest>.min.css`` in place of Material's ``path``: (old name, new name)."""
    name = f"{path.name.split('.')[0]}.{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}.min.css"
    (path.parent / name).write_text(text, encoding="utf-8")
    if name != path.name:
        path.unlink()   # its source map never reached the site (vendor.py)
    return path.name, name


def _material_css(config) -> None:
    site = Path(config.site_dir)
    folder = site / "assets" / "stylesheets"
    pages = sorted(site.rglob("*.html"))
    texts = [p.read_text(encoding="utf-8") for p in pages]
    # Pyodide's scripts (Chinese book only) add nothing to a page: left out, so both books purge alike;
    # the playground's editor (Chinese book only too) runs in both: counted in both (shared_scripts).
    from .playground import shared_scripts

    scripts = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.js"))
               if "pyodide" not in p.relative_to(site).parts and p.name != "editor.js"] + shared_scripts()
    inline = [body for text in texts for body in SCRIPT_BODY.findall(text)]
    stylesheets = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.css")) if not p.name.startswith("main.")]
    words = {w for text in texts for w in tokens(text)} | {w for text in scripts for w in tokens(text, script=True)}
    renamed = []
    for path in sorted(folder.glob("palette.*.min.css")):
        css, palette = path.read_text(encoding="utf-8"), config.theme["palette"]
        used = {str(entry.get(part, "")).replace(" ", "-").lower() for entry in (palette if isinstance(palette, list) else [palette])
                for part in ("primary", "accent")}
        renamed.append(_renamed(path, purge(css, words - set(PALETTE_VALUE.findall(css)) | used)))   # the config's colours only
    for path in sorted(folder.glob("main.*.min.css")):
        prefixes = {p for text in [*scripts, *inline] for p in TEMPLATE_PREFIX.findall(text)}
        keep = {v for text in [*texts, *scripts, *stylesheets] for v in CUSTOM_PROPERTY.findall(text)}
        renamed.append(_renamed(path, purge(path.read_text(encoding="utf-8"), words, prefixes, keep, variables=True)))
    for page, html in zip(pages, texts):   # every page pointed at the new files, in one pass
        head, sep, body = html.partition("</head>")
        changed = head
        for old, new in renamed:
            changed = changed.replace(f"assets/stylesheets/{old}", f"assets/stylesheets/{new}")
        if changed != head:
            page.write_text(changed + sep + body, encoding="utf-8")


def _minify_own(config) -> None:
    """The book's own stylesheets and scripts (overrides/) minified, as the site serves them."""
    site, own = Path(config.site_dir), ROOT / "overrides"
    targets = [t for path in sorted([*own.rglob("*.css"), *own.rglob("*.js")]) if (t := site / path.relative_to(own)).is_file()]
    jobs = [{"kind": t.suffix[1:] + "-min", "text": t.read_text(encoding="utf-8")} for t in targets]   # css-min, js-min
    for target, text in zip(targets, run(jobs)):
        target.write_text(text, encoding="utf-8")


def on_post_page(output, page, config):
    return lean(output)


def on_post_template(output_content, template_name, config):
    return lean(output_content) if template_name == "404.html" else output_content


def on_post_build(config):
    path = Path(config.site_dir) / "print_page" / "index.html"
    if path.is_file():
        path.write_text(lean(path.read_text(encoding="utf-8"), print_page=True), encoding="utf-8")
    _minify_own(config)
    _material_css(config)
