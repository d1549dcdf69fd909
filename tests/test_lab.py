"""The lab notebooks (docs/<lang>/chN/lab-*.py): parity, executed output, download, nothing from outside."""

import json
import re
import subprocess
import sys

import jupytext
import pytest

from book import DOCS, LANGS, ROOT

SITE = ROOT / "site"
LABS = sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").glob("ch*/lab-*.py"))


def cells(lang, lab):
    return jupytext.read(DOCS / lang / lab, fmt="py:percent").cells


def built(lang, lab):
    return SITE.joinpath(*(("en",) if lang == "en" else ()), lab[:-3], "index.html")


def test_there_are_labs_in_both_languages():
    assert LABS, "no lab notebooks found"
    en = sorted(p.relative_to(DOCS / "en").as_posix() for p in (DOCS / "en").glob("ch*/lab-*.py"))
    assert LABS == en, f"lab notebooks differ: zh {LABS}, en {en}"


@pytest.mark.parametrize("lab", LABS)
def test_same_cells_headings_and_code(lab):
    zh, en = cells("zh", lab), cells("en", lab)
    assert [c.cell_type for c in zh] == [c.cell_type for c in en], f"{lab}: cell types differ"
    heading = re.compile(r"^(#{1,6}) ", re.M)
    for a, b in zip(zh, en):
        if a.cell_type == "markdown":
            assert heading.findall(a.source) == heading.findall(b.source), f"{lab}: headings differ\n{a.source}\n{b.source}"
    # Code may differ only in printed labels: the calls into attnkit are the same.
    calls = re.compile(r"\b(?:attnkit\.\w+|[a-z_]+)\(")
    for a, b in zip(zh, en):
        if a.cell_type == "code":
            assert calls.findall(a.source) == calls.findall(b.source), f"{lab}: code cells call different functions"


@pytest.mark.parametrize("lab", LABS)
@pytest.mark.parametrize("lang", LANGS)
def test_built_page_shows_executed_output_and_offers_the_notebook(lab, lang):
    page = built(lang, lab)
    html = page.read_text(encoding="utf-8")
    assert "jp-OutputArea-output" in html, f"{page}: no executed output"
    assert "Traceback" not in html, f"{page}: a cell raised"
    assert not re.search(r"""(?:src|href|import\()\s*=?\s*["']https?://(?!127\.0\.0\.1)""", html), f"{page} refers to an outside URL"
    assert "cdnjs" not in html and "cdn.jsdelivr" not in html, f"{page} mentions a CDN"
    notebook = page.parent / (page.parent.name + ".ipynb")
    assert notebook.is_file(), f"{notebook} is missing"
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    assert len(nb["cells"]) == len(cells(lang, lab))
    assert f'href="{page.parent.name}.ipynb"' in html, f"{page} has no link to its .ipynb"


@pytest.mark.slow   # each lab trains and times models: tens of seconds (make check leaves it to make test)
@pytest.mark.parametrize("lab", LABS)
@pytest.mark.parametrize("lang", LANGS)
def test_lab_runs_as_a_script(lab, lang):
    """The percent-format file is plain Python too: run it outside Jupyter (no display errors)."""
    code = "import matplotlib; matplotlib.use('Agg'); exec(open(%r, encoding='utf-8').read())" % str(DOCS / lang / lab)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_lab_pages_render_offline_in_a_browser(lang):
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as browser:
        page = browser.new_page()
        for lab in LABS:
            url = base + ("/en/" if lang == "en" else "/") + lab[:-3] + "/"
            page.goto(url)
            page.wait_for_load_state("networkidle")
            assert page.locator(".jp-OutputArea-output").count() > 0, f"{url}: no notebook output shown"
            broken = page.evaluate("[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
            assert not broken, f"{url}: images that did not load: {broken}"
            assert page.locator(f'a[href$="{lab.split("/")[-1][:-3]}.ipynb"]').count() == 1, f"{url}: no .ipynb link"
        assert not page.outside, f"requests to outside the site: {page.outside}"
        assert not page.errors, f"console errors: {page.errors}"
