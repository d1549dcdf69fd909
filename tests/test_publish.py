"""The deployable site (bookbuild/publish.py, tools/publish.py): what `make publish` writes and CI
uploads. The tests make it from a copy of the built site and its PDFs (`make pdf`), exactly as
CI does after `make test`, and check it: its size, that every reference resolves and every file
is named by something, that the English book uses the Chinese book's copy of shared files, and,
in Chromium, that pages of both books load, mount their widgets and search, offline.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from book import ROOT, load_file
from bookbuild import publish
from bookbuild.offline_pdf import pdf_name

SITE = ROOT / "site"
LIMIT_MB = 45          # issue 38: make publish writes at most 45 MB
MB = 1024 * 1024


@pytest.fixture(scope="session")
def lean_site(tmp_path_factory) -> Path:
    """A copy of the built site (with its PDFs) made deployable by publish.lean, once per worker.

    A session fixture, not a module one: pytest-xdist's worksteal can hand a worker this module's
    tests on both sides of another module's, and a module fixture's cleanup between them once
    removed the copy a later test then read (CI: the root's 404.html "missing")."""
    for lang in ("zh", "en"):
        for edition in ("student", "key"):
            assert (SITE / "pdf" / pdf_name(lang, edition)).is_file(), "run `make pdf` first (it prints both editions)"
    copy = tmp_path_factory.mktemp("published") / "site"
    shutil.copytree(SITE, copy)
    publish.lean(copy)
    yield copy
    shutil.rmtree(copy, ignore_errors=True)


def test_published_site_is_small_enough(lean_site):
    site = lean_site
    total = publish.total(site)
    table = "\n".join(f"  {part}: {size / MB:.2f} MB in {count} files" for part, size, count in publish.parts(site))
    assert total <= LIMIT_MB * MB, f"the published site is {total / MB:.1f} MB (at most {LIMIT_MB}):\n{table}"


def test_every_reference_resolves_and_every_file_is_named(lean_site):
    found = publish.problems(lean_site)
    assert not found, "\n".join(found[:40])


def test_what_left_the_site_was_not_for_readers(lean_site):
    site = lean_site
    assert not (site / "print_page").exists() and not (site / "en" / "print_page").exists()
    assert not list(site.rglob("*.map")) and not list(site.rglob("lunr.*.js"))
    assert not (site / "en" / "404.html").exists() and (site / "404.html").is_file()
    for lang in ("zh", "en"):
        for edition in ("student", "key"):
            assert (site / "pdf" / pdf_name(lang, edition)).is_file()
    # no shared file twice: every en/assets/ file that SHARED names differs from the Chinese copy
    import filecmp
    import fnmatch
    for path in (site / "en" / "assets").rglob("*"):
        inside = path.relative_to(site / "en").as_posix()
        twin = site / inside
        if path.is_file() and any(fnmatch.fnmatchcase(inside, p) for p in publish.SHARED) and twin.is_file():
            assert not filecmp.cmp(path, twin, shallow=False), f"en/{inside} is a second copy of {inside}"
    page = (site / "en" / "ch3" / "softmax" / "index.html").read_text(encoding="utf-8")
    assert 'src="../../../assets/javascripts/bundle.' in page and '"../../../assets/javascripts/workers/search.' in page


def test_the_check_finds_a_missing_file_and_a_file_for_nothing(tmp_path):
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text('<link rel="stylesheet" href="assets/a.css"><img src="figures/x.svg">'
                                     '<a href="#top">top</a> <a href="https://example.org/">out</a>', encoding="utf-8")
    (site / "assets" / "a.css").write_text('@font-face{src:url(f.woff2) format("woff2"),url(f.woff) format("woff")}'
                                           ' .b{background:url(../missing.png)}', encoding="utf-8")
    (site / "assets" / "f.woff2").write_bytes(b"font")
    (site / "assets" / "orphan.js").write_text("export const x = 1;", encoding="utf-8")
    found = publish.problems(site)
    assert "index.html: figures/x.svg leads to no file of the site" in found
    assert "assets/a.css: ../missing.png leads to no file of the site" in found
    assert "assets/orphan.js: no page, stylesheet, script or convention names it" in found
    assert not [p for p in found if "f.woff" in p]          # a font format the browser skips is no problem
    assert len(found) == 3, found


def test_english_pages_point_at_the_chinese_copy(tmp_path):
    """share_english_assets on a small two-book site: the page, its stylesheet and Material's
    page config name the Chinese copy; a file that differs, or a widget, stays."""
    site = tmp_path / "site"
    for root in ("", "en/"):
        (site / root / "assets" / "javascripts" / "workers").mkdir(parents=True)
        (site / root / "assets" / "widgets").mkdir(parents=True)
        (site / root / "assets" / "javascripts" / "bundle.js").write_text("bundle", encoding="utf-8")
        (site / root / "assets" / "javascripts" / "workers" / "search.js").write_text("worker", encoding="utf-8")
        (site / root / "assets" / "widgets" / "index.js").write_text("widgets", encoding="utf-8")
        (site / root / "assets" / "book.css").write_text("body{color:red}" if root else "body{color:blue}", encoding="utf-8")
    (site / "en" / "ch1").mkdir()
    page = ('<head><script id="__config" type="application/json">{"base": "..", "search": '
            '"../assets/javascripts/workers/search.js"}</script><link href="../assets/book.css" rel="stylesheet">'
            '<script src="../assets/javascripts/bundle.js"></script><script src="../assets/widgets/index.js"></script>')
    (site / "en" / "ch1" / "index.html").write_text(page, encoding="utf-8")
    moved = publish.share_english_assets(site)
    assert moved == ["en/assets/javascripts/bundle.js", "en/assets/javascripts/workers/search.js"]
    html = (site / "en" / "ch1" / "index.html").read_text(encoding="utf-8")
    assert 'src="../../assets/javascripts/bundle.js"' in html and '"search": "../../assets/javascripts/workers/search.js"' in html
    assert 'href="../assets/book.css"' in html and 'src="../assets/widgets/index.js"' in html   # differs / finds its data from its address
    assert not (site / "en" / "assets" / "javascripts").exists()


PAGES = ["/", "/tour/", "/ch3/softmax/", "/en/", "/en/tour/", "/en/ch3/softmax/", "/en/ch4/lab-heads/",
         "/en/ch8/train-in-browser/", "/en/glossary/"]


def test_published_pages_load_mount_and_search(lean_site):
    """In Chromium, offline: pages of both books on the published site load every file they ask
    for, mount their widgets, log no error; search finds results in both books."""
    from bookbuild.browser import launch, search, serve_site
    MOUNTED = load_file(ROOT / "bench" / "benchlib.py").MOUNTED

    site = lean_site
    problems = []
    with serve_site(site) as base, launch() as browser:
        for path in PAGES:
            page = browser.new_page(1280, 900)
            failed = []
            page.on("response", lambda r, failed=failed: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
            page.goto(base + path, wait_until="networkidle")
            page.wait_for_function(MOUNTED, timeout=60_000)
            if failed or page.errors or page.outside:
                problems.append(f"{path}: failed {failed}, errors {page.errors}, outside {page.outside}")
            if path in ("/ch3/softmax/", "/en/ch3/softmax/"):
                page.locator("input.md-search__input").click()
                if not search(page).count():
                    problems.append(f"{path}: search found nothing")
            page.context.close()
    assert not problems, "\n".join(problems)
