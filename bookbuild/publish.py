"""The deployable site: what `make publish` leaves in site/ after `make pdf`, and its check.

:func:`lean` changes a built site in place (tools/publish.py runs it; CI runs it after `make test`,
on the site the tests checked, before uploading site/ to GitHub Pages). Nothing a reader uses
leaves:

* **The print pages** (``print_page/`` of each book, 3 MB each) and print-site's own files
  (``css/print-site*.css``, ``js/print-site.js``), unless a page links to a print page: they are
  the source of the PDFs (tools/pdf.py), which readers download instead.
* **The English book's second copy of shared files.** Each book is built on its own (``make serve
  LANG=en`` serves one), so site/en/assets/ repeats site/assets/. A file of site/en/assets/ that
  is the same bytes as the Chinese book's copy and finds nothing from its own address
  (:data:`SHARED`: Material's scripts and stylesheets, the book's own stylesheets and page
  scripts, KaTeX's fonts, the favicon, reveal.js and the slides' script and stylesheet) leaves, and the English pages and stylesheets that named it
  name the Chinese copy: a reader who switches language has it in the cache already. The widgets
  and the playground find their book's data from their own address, so each book keeps its own.
* **Files no reader is served:** ``sitemap.xml.gz`` (MkDocs writes it beside ``sitemap.xml``,
  which is what crawlers and Material's instant navigation read), ``en/404.html`` (a host
  serves the root's ``404.html`` for every missing address) and the lab notebooks' jupytext
  sources (``lab-*.py``: the lab pages offer the ``.ipynb``).

(Material's source maps and the search language packs the index does not load never reach
site/: bookbuild/vendor.py and bookbuild/search.py.)

:func:`problems` checks a site: every reference of a page (``href``, ``src``, ``srcset``,
Material's page config), a stylesheet (``url()``) and a script (static ``import``) resolves to a
file of the site, and every file of the site is referenced: by a page, a stylesheet, a script
(a path in its strings, resolved from the script and from its book's root, ``${…}`` matching
any name), ``pyodide-lock.json`` (the packages' wheels) or a convention (each book's
``sitemap.xml`` and search index, the root's ``404.html``). :func:`parts` sums the site by part.
"""

from __future__ import annotations

import filecmp
import fnmatch
import json
import os
import posixpath
import re
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

LANG_ROOTS = ("", "en")                   # each book's root inside the site: zh at the top, en/ below it
PRINT_SITE = ("print_page/", "css/print-site", "js/print-site")
# Shared by both books when byte-identical (paths from a book's root): files that use nothing
# from their own address (Material's bundle and search worker are configured by the page; the
# book's page scripts use the page's address; stylesheets name fonts that are shared too).
SHARED = ("assets/javascripts/*", "assets/stylesheets/*", "assets/images/*", "assets/vendor/katex/fonts/*",
          "assets/a11y.css", "assets/book.css", "assets/print.css", "assets/search-defer.js",
          "assets/figure-zoom.js", "assets/code-nav.js", "assets/print.js", "assets/vendor/reveal/*",
          "assets/slides/*")
# Files no reader is served: MkDocs' gzipped sitemap, the English 404 page (a host serves the
# root's), the lab notebooks' jupytext sources (their pages offer the .ipynb), Material's own
# favicon, which it copies although mkdocs.yml names the book's (assets/favicon.svg)
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


def _lang_root(rel: str) -> str:
    """The root of the book a site file belongs to: "" (zh) or "en/"."""
    return "en/" if rel.startswith("en/") else ""


def public_prefix(site: Path) -> tuple[str, str]:
    """(the public address of the site, its path), from the Chinese sitemap: ("", "") when none."""
    sitemap = site / "sitemap.xml"
    found = re.findall(r"<loc>([^<]+)</loc>", sitemap.read_text(encoding="utf-8")) if sitemap.is_file() else []
    if not found:
        return "", ""
    start = os.path.commonprefix(found)
    address = start[: start.rfind("/") + 1]
    return address, urlsplit(address).path


def resolve(site: Path, source: str, url: str, public: tuple[str, str] = ("", "")) -> str | None:
    """The site file that ``url``, written in the site file ``source``, names (its path from the
    site's root, ``index.html`` added to a folder), or None for a link that leaves the site or
    stays on the page. A path that leads nowhere is returned as it is (the caller checks it)."""
    url = url.strip()
    address, path_prefix = public
    if address and url.startswith(address):
        url = "/" + url[len(address):]
    if not url or url.startswith("#") or EXTERNAL.match(url):
        return None
    path = unquote(urlsplit(url).path)
    if not path:
        return None
    if path.startswith("/"):
        if path_prefix and path.startswith(path_prefix):
            path = "/" + path[len(path_prefix):]
        target = posixpath.normpath(path.lstrip("/") or ".")
    else:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
    if target == ".":
        target = ""
    if target.startswith(".."):
        return target
    if path.endswith("/") or (site / target).is_dir():
        target = posixpath.join(target, "index.html") if target else "index.html"
    return target


def html_references(text: str) -> list[str]:
    """The addresses a page names: href, src, srcset, poster and data attributes, the search
    worker in Material's page config, and url() in its <style> elements."""
    text = COMMENT.sub("", text)
    urls = []
    for tag in TAG.finditer(text):
        for m in ATTRIBUTE.finditer(tag.group(0)):
            value = m.group(2) if m.group(2) is not None else m.group(3)
            if m.group(1).lower() == "srcset":
                urls += [part.split()[0] for part in value.split(",") if part.strip()]
            else:
                urls.append(value)
    config = CONFIG.search(text)
    if config:
        search = json.loads(config.group(2)).get("search")
        if search:
            urls.append(search)
    for style in STYLE.findall(text):
        urls += css_references(style)
    return [u.replace("&amp;", "&") for u in urls]


def css_references(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in CSS_URL.finditer(text)]


def css_fallbacks(text: str) -> set[str]:
    """The url()s of a stylesheet that a browser may skip: every one but the first of an
    ``@font-face`` ``src`` list (KaTeX lists woff2, woff and ttf; the site serves woff2)."""
    skipped = set()
    for declaration in SRC.findall(text):
        skipped |= set(css_references(declaration)[1:])
    return skipped


def script_imports(text: str) -> list[str]:
    """The modules a script imports by a literal path (relative ones: a bare name is a package)."""
    return [m.group(2) for m in IMPORT.finditer(text) if m.group(2).startswith((".", "/"))]


def script_paths(text: str) -> tuple[list[str], list[str]]:
    """Strings of a script that look like a path to a file (``${…}``: any name), and those that
    look like a path to a folder (where a script may join a file name to it: Pyodide's folder)."""
    return SCRIPT_PATH.findall(text), SCRIPT_FOLDER.findall(text)


def _glob(site_files: set[str], base: str, pattern: str) -> set[str]:
    """The site files ``pattern`` (a path with ``${…}`` parts) names from the folder ``base``."""
    pattern = posixpath.normpath(posixpath.join(base, re.sub(r"\$\{[^}]*\}", "*", pattern)))
    if "*" not in pattern:
        return {pattern} & site_files
    return {f for f in site_files if fnmatch.fnmatchcase(f, pattern)}   # a ${…} may hold a "/" (toy/<id>)


def references(site: Path) -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """({site file: the files that name it}, [(file, address) that leads to no file of the site])."""
    files = _files(site)
    present = set(files)
    public = public_prefix(site)
    named: dict[str, set[str]] = {}
    broken: list[tuple[str, str]] = []

    def name(source: str, target: str) -> None:
        named.setdefault(target, set()).add(source)

    for rel in files:
        path = site / rel
        suffix = path.suffix
        if suffix in (".html", ".css") or (suffix == ".js" and path.stat().st_size < 4_000_000):
            text = path.read_text(encoding="utf-8", errors="replace")
        else:
            text = None
        if suffix == ".html":
            for url in html_references(text):
                target = resolve(site, rel, url, public)
                if target is None:
                    continue
                if target in present:
                    name(rel, target)
                else:
                    broken.append((rel, url))
        elif suffix == ".css":
            optional = css_fallbacks(text)
            for url in css_references(text):
                target = resolve(site, rel, url, public)
                if target is not None and target not in present:
                    if url not in optional:
                        broken.append((rel, url))
                elif target is not None:
                    name(rel, target)
        elif suffix == ".js" and text is not None:
            for url in script_imports(text):
                target = resolve(site, rel, url)
                if target is not None and target not in present:
                    broken.append((rel, url))
                elif target is not None:
                    name(rel, target)
            paths, folders = script_paths(text)
            bases = {posixpath.dirname(rel), _lang_root(rel).rstrip("/")}
            bases |= {posixpath.normpath(posixpath.join(base, folder)) for folder in folders for base in list(bases)
                      if (site / posixpath.normpath(posixpath.join(base, folder))).is_dir()}
            for string in paths:
                for base in bases:
                    for target in _glob(present, base, string):
                        name(rel, target)
        elif rel.endswith("pyodide-lock.json"):
            for package in json.loads(path.read_text(encoding="utf-8")).get("packages", {}).values():
                target = posixpath.join(posixpath.dirname(rel), package.get("file_name", ""))
                if target in present:
                    name(rel, target)
    for root in LANG_ROOTS:
        prefix = f"{root}/" if root else ""
        for convention in ("sitemap.xml", "search/search_index.json", "index.html"):
            if prefix + convention in present:
                name("(convention)", prefix + convention)
    if "404.html" in present:
        name("(convention)", "404.html")
    return named, broken


def problems(site: Path) -> list[str]:
    """What is wrong with a site to deploy: addresses that lead nowhere, files nothing names."""
    named, broken = references(site)
    out = [f"{source}: {url} leads to no file of the site" for source, url in broken]
    out += [f"{rel}: no page, stylesheet, script or convention names it" for rel in _files(site) if rel not in named]
    return out


def _print_pages_linked(site: Path) -> bool:
    for rel in _files(site):
        if rel.endswith(".html") and "print_page/" not in rel:
            if re.search(r"""href=["'][^"']*print_page/""", (site / rel).read_text(encoding="utf-8")):
                return True
    return False


def share_english_assets(site: Path) -> list[str]:
    """Remove each file of site/en/assets/ that :data:`SHARED` names and the Chinese book has
    byte for byte; point the English pages and stylesheets at the Chinese copy. Returns the
    removed files (paths from the site's root)."""
    moved = set()
    for rel in _files(site):
        if not rel.startswith("en/assets/"):
            continue
        inside = rel[len("en/"):]
        twin = site / inside
        if any(fnmatch.fnmatchcase(inside, p) for p in SHARED) and twin.is_file() and filecmp.cmp(site / rel, twin, shallow=False):
            moved.add(rel)
    if not moved:
        return []
    public = public_prefix(site)

    def new_url(source: str, url: str) -> str | None:
        target = resolve(site, source, url, public)
        if target not in moved:
            return None
        split = urlsplit(url)
        relative = posixpath.relpath(target[len("en/"):], posixpath.dirname(source))
        return relative + (f"?{split.query}" if split.query else "") + (f"#{split.fragment}" if split.fragment else "")

    for rel in _files(site):
        if not rel.startswith("en/") or rel in moved or not rel.endswith((".html", ".css")):
            continue
        path = site / rel
        text = path.read_text(encoding="utf-8")
        if rel.endswith(".css"):
            changed = CSS_URL.sub(lambda m: _css_url(m, lambda u: new_url(rel, u)), text)
        else:
            changed = TAG.sub(lambda t: ATTRIBUTE.sub(lambda a: _attribute(a, lambda u: new_url(rel, u)), t.group(0)), text)
            changed = CONFIG.sub(lambda c: c.group(1) + _config(c.group(2), lambda u: new_url(rel, u)) + c.group(3), changed)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
    for rel in moved:
        (site / rel).unlink()
    _remove_empty_folders(site / "en" / "assets")
    return sorted(moved)


def _attribute(match, new_url) -> str:
    name, double, single = match.group(1), match.group(2), match.group(3)
    value = double if double is not None else single
    quote = '"' if double is not None else "'"
    if name.lower() == "srcset":
        parts = []
        for part in value.split(","):
            words = part.strip().split()
            if words:
                words[0] = new_url(words[0].replace("&amp;", "&")) or words[0]
            parts.append(" ".join(words))
        replaced = ", ".join(parts)
    else:
        replaced = new_url(value.replace("&amp;", "&"))
        replaced = value if replaced is None else replaced.replace("&", "&amp;")
    return f" {name}={quote}{replaced}{quote}"


def _css_url(match, new_url) -> str:
    value = next(g for g in match.groups() if g is not None)
    replaced = new_url(value)
    return match.group(0) if replaced is None else f'url("{replaced}")'


def _config(text: str, new_url) -> str:
    config = json.loads(text)
    search = config.get("search")
    replaced = new_url(search) if search else None
    if replaced is None:
        return text
    return text.replace(json.dumps(search), json.dumps(replaced)).replace(f'"search": "{search}"', f'"search": "{replaced}"')


def _remove_empty_folders(folder: Path) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def lean(site: Path) -> dict[str, list[str]]:
    """Make the built site ``site`` (after tools/pdf.py) the one to deploy, in place. Returns
    what left, by reason."""
    left: dict[str, list[str]] = {"print pages": [], "shared with the Chinese book": [], "not served": []}
    if not _print_pages_linked(site):
        for root in LANG_ROOTS:
            base = site / root if root else site
            for part in PRINT_SITE:
                for path in sorted(base.glob(part + "*")) if not part.endswith("/") else [base / part.rstrip("/")]:
                    if path.exists():
                        left["print pages"].append(path.relative_to(site).as_posix())
                        shutil.rmtree(path) if path.is_dir() else path.unlink()
            for folder in ("css", "js"):
                if (base / folder).is_dir() and not any((base / folder).iterdir()):
                    (base / folder).rmdir()
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
