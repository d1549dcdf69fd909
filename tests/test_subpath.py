"""The site works from a sub-path, as GitHub project pages serve it (https://<user>.github.io/<repo>/).

The built site/ is served under /seeing-attention/ only (everything outside it is a 404), and
Chromium checks pages, styles, scripts, math, figures, the language switch, instant navigation
and the PDF links there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest

from book import ROOT
from importlib import import_module

SITE = Path(os.environ.get("BOOK_SITE", ROOT / "site"))  # BOOK_SITE: check a site built elsewhere
PREFIX = "/seeing-attention"


def test_no_link_or_load_is_rooted_at_the_server_root():
    """An href/src that starts with one '/' would leave the sub-path. Only the 404 pages use
    rooted URLs (they must work from any address): those start with the path of SITE_URL."""
    problems = []
    for path in sorted(SITE.rglob("*.html")):
        if path.parent.name == "print_page":
            continue  # the source of the PDF (not linked from the site): printed from localhost
        sitemap = (path.parent / "sitemap.xml").read_text(encoding="utf-8") if path.name == "404.html" else ""
        root = urlparse(re.search(r"<loc>([^<]+)</loc>", sitemap)[1]).path if sitemap else None
        for url in re.findall(r"""(?:href|src)=["'](/(?!/)[^"']*)["']""", path.read_text(encoding="utf-8")):
            if root is None or not url.startswith(root.rstrip("/").rsplit("/en", 1)[0] + "/"):
                problems.append(f"{path.relative_to(SITE)}: {url}")
    assert not problems, "\n".join(problems[:20])


def test_site_url_with_a_sub_path_keeps_english_under_en():
    i18n = import_module("bookbuild.i18n")
    for given in ("https://example.github.io/seeing-attention/", "https://example.github.io/seeing-attention"):
        en = SimpleNamespace(theme={"language": "en"}, site_url=given, mdx_configs={"toc": {"permalink": True}})
        assert i18n.on_config(en).site_url == "https://example.github.io/seeing-attention/en/"
        zh = SimpleNamespace(theme={"language": "zh"}, site_url=given, mdx_configs={"toc": {"permalink": True}})
        assert i18n.on_config(zh).site_url == given
        assert zh.mdx_configs["toc"] == {"permalink": True, "permalink_title": "本节的链接"}   # and the permalinks speak Chinese


PAGE_STATE = """() => ({
  lang: document.documentElement.lang,
  title: document.querySelector('.md-content h1')?.innerText || '',
  styled: getComputedStyle(document.querySelector('.md-header')).position === 'sticky',
  sheets: [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet !== null),
  math: document.querySelectorAll('.arithmatex').length,
  mathDone: [...document.querySelectorAll('.arithmatex')].every((m) => m.querySelector('.katex')),
  // print-only figures are lazy and never fetched on screen (bookbuild/print_only.py)
  figures: [...document.querySelectorAll('img[src*="figures/"]')].filter((i) => !i.closest('.print-only')).map((i) => i.naturalWidth > 0),
  pdf: [...document.querySelectorAll('a[href$=".pdf"]')].map((a) => a.href),
  english: document.querySelector('a[hreflang=en]')?.href,
  chinese: document.querySelector('a[hreflang=zh]')?.href,
})"""


@pytest.mark.browser
def test_site_works_under_a_sub_path():
    from bookbuild.browser import launch, serve_site

    with serve_site(SITE, prefix=PREFIX) as base, launch() as browser:
        assert base.endswith(PREFIX)
        page = browser.new_page()
        failed = []
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))

        def visit(path: str) -> dict:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_function("() => [...document.querySelectorAll('.arithmatex')].every((m) => m.querySelector('.katex'))")
            return page.evaluate(PAGE_STATE)

        for path, lang in (("/", "zh"), ("/ch3/softmax/", "zh"), ("/en/", "en"), ("/en/ch3/softmax/", "en")):
            state = visit(path)
            assert state["lang"] == lang, path
            assert state["styled"] and state["sheets"], f"{path}: stylesheets did not load under {PREFIX}"
            assert state["mathDone"], f"{path}: KaTeX did not run under {PREFIX}"
            assert all(state["figures"]), f"{path}: a figure did not load under {PREFIX}"
            pdf = f"{base}/pdf/seeing-attention-{lang}.pdf"
            assert pdf in state["pdf"], f"{path}: no link to {pdf} (found {state['pdf']})"
        assert visit("/ch3/softmax/")["figures"], "the softmax page has no figure"

        # The language switch lands on the same page, inside the sub-path, both ways.
        state = visit("/ch3/softmax/")
        assert state["english"] == f"{base}/en/ch3/softmax/"
        state = visit("/en/ch3/softmax/")
        assert state["chinese"] == f"{base}/ch3/softmax/"

        # Instant navigation: follow a nav link from chapter 3's first page (the nav lists the open
        # chapter's sections: navigation.prune).
        visit("/ch3/")
        page.evaluate("window.sameDocument = true")
        page.follow(f"{base}/ch3/softmax/", page.locator(".md-sidebar--primary a[href$='ch3/softmax/']").first)
        assert page.evaluate("window.sameDocument"), "the link loaded a new document: no instant navigation"
        page.wait_for_function("() => document.querySelector('.md-content .katex')")
        assert "softmax" in page.evaluate(PAGE_STATE)["title"]

        # The PDFs are there (make pdf writes them; make test runs it first).
        for lang in ("zh", "en"):
            response = page.request.get(f"{base}/pdf/seeing-attention-{lang}.pdf")
            assert response.ok and response.body()[:5] == b"%PDF-", f"{lang}: the PDF is not served under {PREFIX}"

        assert not failed, f"requests that failed under {PREFIX}: {failed}"
        assert not page.outside, f"requests to outside the site: {page.outside}"
