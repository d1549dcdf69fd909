"""The deployable site: what `make publish` leaves in site/ after `make pdf`, and its check.

:func:`lean` changes a built site in place (tools/publish.py; CI runs it on the site the tests checked,
before uploading it to GitHub Pages); nothing a reader uses leaves. The print pages (the PDFs' source)
go unless a page links one; so do the English book's byte-identical second copies of shared files
(each book is built on its own, so site/en/assets/ repeats site/assets/: :data:`SHARED`), whose English
pages then name the Chinese copy, and files no reader is served (:data:`UNSERVED`).
:func:`problems` checks that every reference resolves to a file of the site and every file is referenced.
"""

from __future__ import annotations

import filecmp
import fnmatch
import functools
import json
import os
import posixpath
import re
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import unquote, urlsplit

LANG_ROOTS = ("", "en")                   # each book's root inside the site: zh at the top, en/ below it
# Files a reader or a crawler asks for by convention: each book's sitemap, search index and home, the root's 404 page
CONVENTIONS = ("sitemap.xml", "search/search_index.json", "index.html", "en/sitemap.xml",
               "en/search/search_index.json", "en/index.html", "404.html")
PRINT_SITE = ("print_page", "css/print-site*", "js/print-site*")   # globs from a book's root
# Shared by both books when byte-identical (paths from a book's root): files that use nothing
# from their own address (Material's bundle and search worker are configured by the page; the
# book's page scripts use the page's address; stylesheets name fonts that are shared too).
SHARED = ("assets/javascripts/*", "assets/stylesheets/*", "assets/images/*", "assets/vendor/katex/fonts/*",
          "assets/a11y.css", "assets/book.css", "assets/print.css", "assets/search-defer.js",
          "assets/figure-zoom.js", "assets/code-nav.js", "assets/print.js", "assets/vendor/reveal/*",
          "assets/slides/*")
# Files no reader is served: MkDocs' gzipped sitemap (crawlers and Material's instant navigation read
# sitemap.xml), the English 404 page (a host serves the root's for every missing address), the lab
# notebooks' jupytext sources (their pages offer the .ipynb), Material's own favicon, which it
# copies although mkdocs.yml names the book's (assets/favicon.svg)
UNSERVED = ("sitemap.xml.gz", "en/sitemap.xml.gz", "en/404.html", "ch*/lab-*/lab-*.py", "en/ch*/lab-*/lab-*.py",
            "assets/images/favicon.png", "en/assets/images/favicon.png")

ATTRIBUTE = re.compile(r"""\s(href|src|srcset|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
TAG = re.compile(r"<(?!!--)[a-zA-Z][^>]*>", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)""")
STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
IMPORT = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,$]+\sfrom\s*)?|\bimport\s*\(\s*)(["'])([^"'\n]+)\1""")
# A string of a script that is a path to a file (between quotes, nothing else inside), or to a folder
SCRIPT_PATH = re.compile(r"""(?<=["'`])[\w.${}/-]*\.(?:js|mjs|json|css|wasm|zip|whl|py|bin|svg|png|woff2?|html|xml|pdf|ipynb)(?=["'`])""")
SCRIPT_FOLDER = re.compile(r"""(?<=["'`])\.{0,2}/?[\w.-]+(?:/[\w.-]+)*/(?=["'`])""")
SRC = re.compile(r"\bsrc\s*:([^;}]*)")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)   # http:, mailto:, data:, javascript:, //host


def _files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def sitemap_address(text: str) -> str:
    """The public address of a book's home: the common start of its sitemap's ``<loc>``s."""
    start = os.path.commonprefix(re.findall(r"<loc>([^<]*)</loc>", text))
    return start[: start.rfind("/") + 1]


def public_prefix(site: Path) -> tuple[str, str]:
    """(the public address of the site, its path), from the Chinese sitemap: ("", "") when none."""
    sitemap = site / "sitemap.xml"
    address = sitemap_address(sitemap.read_text(encoding="utf-8")) if sitemap.is_file() else ""
    return address, urlsplit(address).path


def resolve(site: Path, source: str, url: str, public: tuple[str, str] = ("", "")) -> str | None:
    """The site file that ``url``, written in the site file ``source``, names (its path from the
    site's root, ``index.html`` added to a folder), or None for a link that leaves the site or
    stays on the page. A path that leads nowhere is returned as it is (the caller checks it)."""
    url = url.strip()
    address, path_prefix = public
    if address and url.startswith(address):
        url = "/" + url[len(address):]
    if EXTERNAL.match(url) or not (path := unquote(urlsplit(url).path)):   # also "", "#id", "?query"
        return None
    base = "" if path.startswith("/") else posixpath.dirname(source)
    if not base and path_prefix and path.startswith(path_prefix):
        path = path[len(path_prefix):]
    target = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
    if not target.startswith("..") and (path.endswith("/") or (site / target).is_dir()):
        target = posixpath.normpath(posixpath.join(target, "index.html"))
    return target


def html_references(text: str) -> list[str]:
    """The addresses a page names: href, src, srcset, poster and data attributes, the search
    worker in Material's page config, and url() in its <style> elements."""
    urls: list[str] = []
    _rewrite_html(COMMENT.sub("", text), urls.append)    # append returns None: nothing is rewritten
    for style in STYLE.findall(text):
        urls += css_references(style)
    return [u.replace("&amp;", "&") for u in urls]


def css_references(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in CSS_URL.finditer(text)]


def css_fallbacks(text: str) -> set[str]:
    """The url()s of a stylesheet that a browser may skip: every one but the first of an
    ``@font-face`` ``src`` list (KaTeX lists woff2, woff and ttf; the site serves woff2)."""
    return {url for declaration in SRC.findall(text) for url in css_references(declaration)[1:]}


def script_imports(text: str) -> list[str]:
    """The modules a script imports by a literal path (relative ones: a bare name is a package)."""
    return [m.group(2) for m in IMPORT.finditer(text) if m.group(2).startswith((".", "/"))]


def _glob(site_files: set[str], base: str, pattern: str) -> set[str]:
    """The site files ``pattern`` (a path with ``${…}`` parts) names from the folder ``base``."""
    pattern = posixpath.normpath(posixpath.join(base, re.sub(r"\$\{[^}]*\}", "*", pattern)))
    if "*" not in pattern:
        return {pattern} & site_files
    return {f for f in site_files if fnmatch.fnmatchcase(f, pattern)}   # a ${…} may hold a "/" (toy/<id>)


def references(site: Path) -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """({site file: the files that name it}, [(file, address) that leads to no file of the site]).

    A page names its ``href``, ``src``, ``srcset``, Material's page config; a stylesheet its ``url()``; a
    script its static imports and the paths in its strings (``${…}`` matching any name); pyodide-lock.json
    its wheels; :data:`CONVENTIONS` the rest."""
    files = _files(site)
    present = set(files)
    public = public_prefix(site)
    named: dict[str, set[str]] = defaultdict(set)
    broken: list[tuple[str, str]] = []

    def check(source: str, urls: list[str], optional=(), public=public) -> None:
        for url in urls:
            target = resolve(site, source, url, public)
            if target in present:
                named[target].add(source)
            elif target is not None and url not in optional:
                broken.append((source, url))

    for rel in files:
        path = site / rel
        if path.suffix == ".html":
            check(rel, html_references(path.read_text(encoding="utf-8", errors="replace")))
        elif path.suffix == ".css":
            text = path.read_text(encoding="utf-8", errors="replace")
            check(rel, css_references(text), css_fallbacks(text))
        elif path.suffix == ".js" and path.stat().st_size < 4_000_000:
            text = path.read_text(encoding="utf-8", errors="replace")
            check(rel, script_imports(text), public=("", ""))
            # strings that look like a path to a file (``${…}``: any name), from the script's folder,
            # from its book's root and from folders its strings name (where a script may join a file
            # name to it: Pyodide's folder)
            bases = {posixpath.dirname(rel), "en" if rel.startswith("en/") else ""}
            bases |= {posixpath.normpath(posixpath.join(base, folder)) for folder in SCRIPT_FOLDER.findall(text)
                      for base in list(bases) if (site / posixpath.normpath(posixpath.join(base, folder))).is_dir()}
            found = {t for string in SCRIPT_PATH.findall(text) for base in bases for t in _glob(present, base, string)}
            for target in found:
                named[target].add(rel)
        elif rel.endswith("pyodide-lock.json"):   # the lock lists every Pyodide package: the site serves a few
            lock = json.loads(path.read_text(encoding="utf-8"))
            wheels = [package.get("file_name", "") for package in lock.get("packages", {}).values()]
            check(rel, wheels, optional=wheels)
    for target in present.intersection(CONVENTIONS):
        named[target].add("(convention)")
    return named, broken


def problems(site: Path) -> list[str]:
    """What is wrong with a site to deploy: addresses that lead nowhere, files nothing names."""
    named, broken = references(site)
    out = [f"{source}: {url} leads to no file of the site" for source, url in broken]
    out += [f"{rel}: no page, stylesheet, script or convention names it" for rel in _files(site) if rel not in named]
    return out


def share_english_assets(site: Path) -> list[str]:
    """Remove each file of site/en/assets/ that :data:`SHARED` names and the Chinese book has
    byte for byte; point the English pages and stylesheets at the Chinese copy. Returns the
    removed files (paths from the site's root)."""
    twin = {rel: site / rel[len("en/"):] for rel in _files(site) if rel.startswith("en/assets/")}   # the Chinese copy
    moved = {rel for rel, zh in twin.items() if any(fnmatch.fnmatchcase(rel[len("en/"):], p) for p in SHARED)
             and zh.is_file() and filecmp.cmp(site / rel, zh, shallow=False)}
    public = public_prefix(site)

    def new_url(source: str, url: str) -> str | None:
        target = resolve(site, source, url, public)
        if target not in moved:
            return None
        split = urlsplit(url)
        relative = posixpath.relpath(target[len("en/"):], posixpath.dirname(source))
        return relative + (f"?{split.query}" if split.query else "") + (f"#{split.fragment}" if split.fragment else "")

    for rel in _files(site):
        if rel.startswith("en/") and rel.endswith((".html", ".css")) and rel not in moved:
            text = (site / rel).read_text(encoding="utf-8")
            url_for = functools.partial(new_url, rel)
            changed = (CSS_URL.sub(lambda m: _css_url(m, url_for), text) if rel.endswith(".css")
                       else _rewrite_html(text, url_for))
            if changed != text:
                (site / rel).write_text(changed, encoding="utf-8")
    for rel in moved:
        (site / rel).unlink()
    _remove_empty_folders(site / "en" / "assets")
    return sorted(moved)


def _rewrite_html(text: str, new_url) -> str:
    """``text`` with each address its tags' attributes (:data:`ATTRIBUTE`) and Material's page
    config name replaced by ``new_url(address)``, unless that is None."""
    text = TAG.sub(lambda tag: ATTRIBUTE.sub(lambda a: _attribute(a, new_url), tag[0]), text)
    return CONFIG.sub(lambda config: _config(config, new_url), text)


def _attribute(match, new_url) -> str:
    name, double, single = match.groups()
    value, quote = (double, '"') if double is not None else (single, "'")
    if name.lower() == "srcset":   # "url 2x, url 3x"
        parts = [part.strip().split() or [""] for part in value.split(",")]
        replaced = ", ".join(" ".join([new_url(url.replace("&amp;", "&")) or url, *rest]) for url, *rest in parts)
    else:
        replaced = new_url(value.replace("&amp;", "&"))
        replaced = value if replaced is None else replaced.replace("&", "&amp;")
    return f" {name}={quote}{replaced}{quote}"


def _css_url(match, new_url) -> str:
    replaced = new_url(next(g for g in match.groups() if g is not None))
    return match[0] if replaced is None else f'url("{replaced}")'


def _config(match, new_url) -> str:
    """Material's page config (:data:`CONFIG`) with its search worker's address changed."""
    search = json.loads(match[2]).get("search")
    replaced = new_url(search) if search else None
    return match[0] if replaced is None else match[0].replace(json.dumps(search), json.dumps(replaced))


def _remove_empty_folders(folder: Path) -> None:
    """Remove ``folder`` and the folders in it that are (or become) empty."""
    for path in sorted([folder, *folder.rglob("*")], reverse=True) if folder.is_dir() else []:
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def lean(site: Path) -> dict[str, list[str]]:
    """Make the built site ``site`` (after tools/pdf.py) the one to deploy, in place. Returns
    what left, by reason."""
    left: dict[str, list[str]] = {"print pages": [], "shared with the Chinese book": [], "not served": []}
    pages = [site / rel for rel in _files(site) if rel.endswith(".html") and "print_page/" not in rel]
    if not any(re.search(r"""href=["'][^"']*print_page/""", page.read_text(encoding="utf-8")) for page in pages):
        for root in LANG_ROOTS:
            for part in PRINT_SITE:
                for path in sorted((site / root).glob(part)):
                    left["print pages"].append(path.relative_to(site).as_posix())
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
            for folder in ("css", "js"):
                _remove_empty_folders(site / root / folder)
    left["shared with the Chinese book"] = share_english_assets(site)
    for rel in _files(site):
        if any(fnmatch.fnmatchcase(rel, pattern) and rel.count("/") == pattern.count("/") for pattern in UNSERVED):
            (site / rel).unlink()
            left["not served"].append(rel)
    return left


PARTS = [  # (part, pattern of paths from a book's root), first match wins
    ("PDFs", "pdf/*"),
    ("Python in the browser (Pyodide, NumPy)", "assets/pyodide/*"),
    ("playground and exercises' Python", "assets/playground/*"),
    ("figures", "figures/*"),
    ("widget data", "data/*"),
    ("search index", "search/*"),
    ("lab notebooks", "ch*/lab-*"),
    ("scripts, stylesheets, fonts", "assets/*"),
    ("print pages", "print_page/*"),
    ("pages", "*.html"),
    ("listings to download", "listings/*"),
]


def parts(site: Path) -> list[tuple[str, int, int]]:
    """[(part, bytes, files)] of a site, both books together, largest first (see :data:`PARTS`)."""
    size, count = Counter(), Counter()
    for rel in _files(site):
        inside = rel[len("en/"):] if rel.startswith("en/") else rel
        part = next((name for name, pattern in PARTS if fnmatch.fnmatchcase(inside, pattern)), "other")
        size[part] += (site / rel).stat().st_size
        count[part] += 1
    return [(part, size[part], count[part]) for part, _ in size.most_common()]


def total(site: Path) -> int:
    return sum((site / rel).stat().st_size for rel in _files(site))
