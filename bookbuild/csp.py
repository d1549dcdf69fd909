"""A strict Content-Security-Policy on every page, as a ``<meta>`` tag (static hosts such as
GitHub Pages send no headers).

* Scripts: ``'self'`` and the sha256 hashes of the inline scripts, never ``'unsafe-inline'``.
  Every page of a language lists the hashes of all its pages' inline scripts: with instant
  navigation the first page's policy stays in force while Material runs the next page's scripts.
  ``'wasm-unsafe-eval'`` only on pages with an element carrying ``data-python`` (the playground,
  widgets that run Python). Pyodide runs in a Web Worker, which does not inherit the page's
  policy; the playground test proves that it loads under this one.
* Styles: ``'self' 'unsafe-inline'``: inline style runs no code, and KaTeX positions every glyph
  with ``style=""``, CodeMirror injects ``<style>``, the widgets set CSS variables. With images,
  fonts and connections limited to the site, injected CSS cannot send anything elsewhere.
* ``frame-ancestors`` cannot be set from a meta tag.

The policy is written at the very end of the build, into every page this build wrote, the print
page and 404.html, so the hashes are those of the HTML readers get.
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
    """Put the policy for the page's final HTML (its own inline scripts' hashes, and ``hashes``) in
    a <meta> tag at the top of <head> (before any script).

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
