"""A strict Content-Security-Policy on every page, as a ``<meta>`` tag (GitHub Pages sends no headers).

Scripts: ``'self'`` and the hashes of the inline scripts of all the language's pages (with instant
navigation the first page's policy stays in force), never ``'unsafe-inline'``; ``'wasm-unsafe-eval'``
only where an element carries ``data-python`` (Pyodide). Styles may be inline (they run no code, and
KaTeX, CodeMirror and the widgets need them); images, fonts and connections stay on the site.
``frame-ancestors`` cannot be set from a meta tag. Written last, into every page this build wrote, the
print page and 404.html, so the hashes are those of the HTML readers get.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from mkdocs.plugins import event_priority

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
RUNS_PYTHON = re.compile(r"<[a-zA-Z][^>]*\sdata-python[\s=>]")
HEAD = re.compile(r"<head>\s*(<meta charset=[^>]*>)?", re.I)
META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*')
BASE = ("default-src 'self'; img-src 'self' data:; font-src 'self'; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'")


def inline_hashes(html: str) -> set[str]:
    """CSP source expressions ('sha256-...') for every inline script of a page."""
    return {"'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
            for body in INLINE_SCRIPT.findall(html)}


def add_policy(html: str, hashes: set[str] = frozenset()) -> str:
    """The page with its policy (its inline scripts' hashes and ``hashes``) at the top of <head>.

    >>> out = add_policy('<html><head><meta charset="utf-8"><script>x=1</script></head><body></body></html>')
    >>> out.startswith('<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src')
    True
    >>> "'sha256-" in out and "'unsafe-inline'" not in out.split("script-src")[1].split(";")[0]
    True
    """
    html = META.sub("", html)
    found = HEAD.search(html)
    if not found:
        return html
    script = ["'self'", *sorted(inline_hashes(html) | set(hashes))]
    script += ["'wasm-unsafe-eval'"] if RUNS_PYTHON.search(html) else []
    meta = f'<meta http-equiv="Content-Security-Policy" content="{BASE}; script-src {" ".join(script)}">'
    return html[:found.end()] + meta + html[found.end():]


_written: list[Path] = []   # the pages this build writes


def on_config(config):
    _written.clear()
    return config


def on_post_page(output, page, config):
    _written.append(Path(page.file.abs_dest_path))
    return output


@event_priority(-100)  # the last of all: bookbuild/hooks.py
def on_post_build(config):
    site = Path(config.site_dir)
    paths = dict.fromkeys([*_written, site / "404.html", site / "print_page" / "index.html"])
    pages = {path: path.read_text(encoding="utf-8") for path in paths if path.is_file()}
    hashes = set().union(*map(inline_hashes, pages.values()))
    for path, html in pages.items():
        path.write_text(add_policy(html, hashes), encoding="utf-8")
