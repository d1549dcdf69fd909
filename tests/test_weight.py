"""A light first visit: figure size limit, print-only figures never fetched on screen."""

from __future__ import annotations

import re

from book import ROOT
from importlib import import_module

SITE = ROOT / "site"
FIGURE_LIMIT = 150 * 1024   # bytes: no figure over 150 KB (docs: attnkit.figures.compact_paths, matrix_image)


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


def test_one_copy_of_pyodide_serves_both_languages():
    assert (SITE / "assets" / "pyodide" / "pyodide.js").is_file()
    assert not (SITE / "en" / "assets" / "pyodide").exists(), "the English book carries its own copy of Pyodide"
    worker = (SITE / "en" / "assets" / "playground" / "worker.js").read_text(encoding="utf-8")
    assert 'const PYODIDE = "../../../assets/pyodide/";' in worker


def test_search_index_stores_characters_not_escapes():
    index = (SITE / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "注意力" in index and "\\u6ce8" not in index
