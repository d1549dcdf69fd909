"""A light first visit: figure size limit, print-only figures never fetched on screen, at most 400 KB."""

from __future__ import annotations

import re

from book import ROOT
from importlib import import_module

SITE = ROOT / "site"
FIGURE_LIMIT = 150 * 1024   # bytes: no figure over 150 KB (docs: attnkit.figures.compact_svg, matrix_image)


def test_no_built_figure_is_over_150_kb():
    figures = sorted(SITE.rglob("figures/*.svg"))
    assert figures, "no built figures: run make build"
    big = [f"{p.relative_to(SITE)}: {p.stat().st_size / 1024:.0f} KB" for p in figures if p.stat().st_size > FIGURE_LIMIT]
    assert not big, "figures over 150 KB (draw fewer shapes: matrix_image merges cells):\n" + "\n".join(big)


def test_print_only_images_are_lazy_so_the_screen_never_fetches_them():
    hook = import_module("bookbuild.print_only")
    found = 0
    for path in sorted(SITE.rglob("*.html")):
        if "print_page" in path.parts:
            continue  # the page the PDF is printed from: mkdocs-print-site-plugin loads every image eagerly
        text = path.read_text(encoding="utf-8")
        for block in re.finditer(r'<div class="print-only">', text):
            found += 1
        assert hook.lazy_print_only_images(text) == text, f"{path.relative_to(SITE)}: a print-only image is not lazy"
    assert found, "no print-only figures found in the site"


def test_one_copy_of_pyodide_the_editor_and_attnkit_serves_both_languages():
    assert (SITE / "assets" / "pyodide" / "pyodide.js").is_file()
    assert not (SITE / "en" / "assets" / "pyodide").exists(), "the English book carries its own copy of Pyodide"
    for name in ("editor.js", "attnkit.zip"):
        assert (SITE / "assets" / "playground" / name).is_file(), name
        assert not (SITE / "en" / "assets" / "playground" / name).exists(), f"the English book carries its own {name}"
    worker = (SITE / "en" / "assets" / "playground" / "worker.js").read_text(encoding="utf-8")
    assert 'PYODIDE="../../../assets/pyodide/"' in worker and 'ATTNKIT="../../../assets/playground/"' in worker
    app = (SITE / "en" / "assets" / "playground" / "app.js").read_text(encoding="utf-8")
    assert '="../"' in app and '="./"' not in app    # the editor from the Chinese book's root


def test_search_index_stores_characters_not_escapes():
    index = (SITE / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "注意力" in index and "\\u6ce8" not in index


FIRST_VISIT_LIMIT = 400 * 1024   # bytes, uncompressed (issue 38)
FIRST_VISIT_PAGES = ["/ch3/softmax/", "/en/ch3/softmax/", "/tour/", "/en/tour/"]


def test_a_first_visit_fetches_at_most_400_kb():
    """What a reader's browser fetches on a first visit (empty cache, 1280 px) until every widget
    has mounted (bench/benchlib.py first_visit, which bench/bench_pages.py prints for five pages),
    counted uncompressed: at most 400 KB on a chapter page and the tour, in both languages."""
    from book import load_file
    from bookbuild.browser import launch, serve_site

    benchlib = load_file(ROOT / "bench" / "benchlib.py")
    heavy = []
    with serve_site(SITE) as base, launch() as browser:
        for path in FIRST_VISIT_PAGES:
            page, fetched = benchlib.first_visit(browser, base + path)
            page.wait_for_timeout(300)
            total = sum(n for _, n in fetched)
            assert not page.errors and not page.outside, (path, page.errors, page.outside)
            page.context.close()
            if total > FIRST_VISIT_LIMIT:
                largest = ", ".join(f"{url.removeprefix(base)} {n / 1024:.0f} KB" for url, n in sorted(fetched, key=lambda f: -f[1])[:6])
                heavy.append(f"{path}: {total / 1024:.0f} KB ({largest})")
    assert not heavy, "first visits over 400 KB:\n" + "\n".join(heavy)
