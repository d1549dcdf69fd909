"""Headless Chromium for the tests, the PDFs and screenshots: Debian's chromium driven by Playwright.

Every request that does not go to the local server is aborted and recorded (a test asserts that a page
loads nothing from outside the site). The server gives each ``sitemap.xml`` its own address in place of
the public one: Material's instant navigation takes over only links to pages its sitemap names.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import os
import shutil
import socketserver
import threading
from pathlib import Path
from urllib.parse import urlparse, urlsplit

from .publish import sitemap_address

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise RuntimeError("Chromium not found: install Debian's `chromium` package (`make setup` does it as root).")
    return found


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under a path prefix (as GitHub project pages do; 404 outside it), quietly."""

    prefix = ""

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        if not (path == self.prefix or path.startswith((self.prefix + "/", self.prefix + "?"))):
            return ""  # nothing there: 404
        return super().translate_path(path[len(self.prefix):] or "/")

    def send_head(self):
        """A sitemap's public address of its book's home becomes the folder it was asked from here."""
        asked = urlsplit(self.path).path
        file = self.translate_path(self.path)
        if not (asked.endswith("/sitemap.xml") and os.path.isfile(file)):
            return super().send_head()
        text = Path(file).read_text(encoding="utf-8")
        public = sitemap_address(text)
        here = f"http://{self.headers['Host']}{asked[:-len('sitemap.xml')]}"
        body = (text.replace(public, here) if public else text).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def serve_site(directory: Path = SITE, prefix: str = ""):
    """Serve ``directory`` on 127.0.0.1 at a free port, under ``prefix`` ("/seeing-attention": as on
    GitHub project pages); yield the base URL (no trailing slash)."""
    if not (directory / "index.html").exists():
        raise RuntimeError(f"{directory} has no built site: run `make build` first.")
    prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
    handler = functools.partial(type("Handler", (_Handler,), {"prefix": prefix}), directory=str(directory))
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
        finally:
            server.shutdown()


class Page:
    """A Playwright page that records console errors and outside requests."""

    def __init__(self, context):
        self.outside: list[str] = []
        self.errors: list[str] = []
        context.route("**/*", self._route)
        self._page = context.new_page()
        self._page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self._page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route):
        if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost"):
            return route.continue_()
        self.outside.append(route.request.url)
        route.abort()

    def follow(self, url: str, link=None) -> None:
        """Go to ``url`` as a reader's click does (Material's instant navigation takes it over): on
        ``link`` (a locator), or else on a new link to ``url``. Returns once the new content has
        replaced the old (the address changes first)."""
        self._page.evaluate('window.__leaving = document.querySelector("article")')
        if link is not None:
            link.click()
        else:
            self._page.evaluate("""url => {
                const a = document.createElement("a"); a.href = url; document.body.append(a); a.click();
            }""", url)
        self._page.wait_for_url(url)
        self._page.wait_for_function("() => !window.__leaving || !document.contains(window.__leaving)")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._page, name)


class Browser:
    def __init__(self, browser):
        self._browser = browser

    def new_page(self, width: int = 1280, height: int = 900, dark: bool = False, csp: bool = False,
                 scripts: bool = True, touch: bool = False) -> Page:
        """A page in a fresh context. The site's policy forbids the eval that Playwright's
        ``wait_for_function("an expression")`` uses, so it is bypassed unless ``csp=True`` (as
        tests/test_pages.py loads every page). ``scripts=False``: no JavaScript. ``touch=True``: a
        phone's touch screen (no hover, coarse pointer; Material makes code focusable only where the
        pointer can hover), which a desktop window at a phone's width is not."""
        return Page(self._browser.new_context(
            viewport={"width": width, "height": height}, color_scheme="dark" if dark else "light",
            service_workers="block", bypass_csp=not csp, java_script_enabled=scripts, has_touch=touch, is_mobile=touch))


@contextlib.contextmanager
def launch():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            yield Browser(browser)
        finally:
            browser.close()


def search(page, query: str = "softmax", tries: int = 40):
    """Type ``query`` into Material's open search box until results show (its worker loads the
    index on the first keystroke and may miss it); the results' locator, empty if none came."""
    box, results = page.locator("input.md-search__input"), page.locator(".md-search-result__item")
    for _ in range(tries):
        box.fill("")
        box.type(query)
        try:
            results.first.wait_for(timeout=500)
            break
        except Exception:  # noqa: BLE001  (Playwright's timeout: type again)
            continue
    return results

