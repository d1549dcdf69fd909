"""The playground: vendored Pyodide checked against its pins, run links under every listing, and
Python (Pyodide + NumPy + attnkit) running in headless Chromium with nothing from outside."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import time
import zipfile

import pytest

from book import ROOT, SNIPPETS, built_page, fences, listing_source, listings, pages
from importlib import import_module

SITE = ROOT / "site"
CACHE = ROOT / ".cache" / "pyodide"
MANIFEST = json.loads((ROOT / "tools" / "pyodide-manifest.json").read_text(encoding="utf-8"))
# A number as listings print it: 0.25, 1e-09, and the book's own 2.7×10⁻¹⁵ (attnkit.text.sci).
NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+|×10[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")
SUPERSCRIPT = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")


def as_float(number: str) -> float:
    """A number printed by a listing, as a float.

    >>> as_float("2.7×10⁻¹⁵"), as_float("-3"), as_float("1e-09")
    (2.7e-15, -3.0, 1e-09)
    """
    return float(number.replace("×10", "e").translate(SUPERSCRIPT))


vendor = import_module("bookbuild.vendor_pyodide")


# ---------------------------------------------------------------- vendored files and the build


def test_vendored_pyodide_matches_the_manifest_and_the_official_lock():
    files = vendor.verify()
    assert set(files) == set(MANIFEST["files"])
    lock = json.loads((CACHE / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["info"]["version"] == MANIFEST["pyodide"]
    numpy = lock["packages"]["numpy"]
    assert MANIFEST["files"][numpy["file_name"]]["sha256"] == numpy["sha256"]


@pytest.mark.parametrize("damage", ["missing", "altered"])
def test_a_missing_or_altered_file_is_named_with_its_fix(tmp_path, damage):
    for name in MANIFEST["files"]:
        shutil.copy(CACHE / name, tmp_path / name)
    victim = tmp_path / "pyodide.asm.js"
    if damage == "missing":
        victim.unlink()
    else:
        victim.write_bytes(victim.read_bytes() + b"\n// changed")
    with pytest.raises(vendor.VendorError) as error:
        vendor.verify(tmp_path)
    message = str(error.value)
    assert "pyodide.asm.js" in message and "make setup" in message and damage in message


def test_the_site_serves_the_pinned_files_attnkit_and_every_listing():
    for name, entry in MANIFEST["files"].items():
        if name != "pyodide-lock.json":
            assert vendor.sha256(SITE / "assets" / "pyodide" / name) == entry["sha256"], name
    # the official lock's entries of the packages the site serves (numpy), nothing else
    served = json.loads((SITE / "assets" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    official = json.loads((CACHE / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert served["info"] == official["info"]
    assert served["packages"] == {name: p for name, p in official["packages"].items() if p["file_name"] in MANIFEST["files"]}
    assert set(served["packages"]) == {"numpy"}
    for lang, site in (("zh", SITE), ("en", SITE / "en")):
        presets = json.loads((site / "assets" / "playground" / "presets.json").read_text(encoding="utf-8"))
        names = [p.relative_to(SNIPPETS).as_posix() for p in SNIPPETS.rglob("*.py")]
        # each language's presets are the listings as that book shows them ([zh]/[en] lines filtered)
        assert presets["listings"] == {name: listing_source(name, lang) for name in names}, lang
        welcome = (ROOT / "overrides" / "assets" / "playground" / "welcome.py").read_text(encoding="utf-8")
        assert presets["welcome"] == listings.for_language(welcome, lang), lang
    # one attnkit.zip, the Chinese book's, for both (the English worker loads it from there: test_weight)
    with zipfile.ZipFile(SITE / "assets" / "playground" / "attnkit.zip") as z:
        for name in z.namelist():
            assert z.read(name) == (ROOT / name).read_bytes(), f"{name} in attnkit.zip differs from the repository"
        assert "attnkit/core.py" in z.namelist()


def test_every_listing_on_every_page_links_to_the_playground():
    for lang in ("zh", "en"):
        base = SITE / "en" if lang == "en" else SITE
        for page in pages(lang):
            text = (ROOT / "docs" / lang / page).read_text(encoding="utf-8")
            includes = [line.split('"')[1] for f in fences(text) for line in f.body if "--8<--" in line]
            html_path = built_page(SITE, lang, page)
            html = html_path.read_text(encoding="utf-8")
            links = re.findall(r'<a class="pg-run-link" href="([^"]+)">', html)
            assert [link.split("listing=")[1] for link in links] == includes, html_path
            for link in links:
                target = (html_path.parent / link.split("?")[0]).resolve() / "index.html"
                assert target == (base / "playground" / "index.html").resolve(), f"{html_path}: {link}"


def test_run_links_are_relative_and_keep_indentation():
    hook = import_module("bookbuild.playground")
    listing = next(SNIPPETS.rglob("*.py")).relative_to(SNIPPETS).as_posix()
    source = f'    ```python exec="on" source="above" result="text"\n    --8<-- "{listing}"\n    ```\n'
    out = hook.add_run_links(source, "ch9/page.md", "en")
    assert out.startswith(source.rstrip("\n"))
    assert f" [▶ Run this in your browser](../playground.md?listing={listing}){{ .pg-run-link }} " in out
    name = listing.split("/")[-1]
    assert f"[⬇ Download {name}](../listings/{listing}){{ .listing-download download=\"{name}\" }}\n    {{: .listing-links .screen-only }}\n" in out
    assert f'```\n\n    <button type="button" class="listing-edit attn-button" data-listing="{listing}" hidden>✎ Edit and run here</button> [' in out
    assert f"(playground.md?listing={listing})" in hook.add_run_links(source, "index.md", "zh")


# ---------------------------------------------------------------- in the browser

LISTING = "ch3/softmax_cake.py"


@pytest.fixture(scope="module")
def playground():
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as browser:
        page = browser.new_page(1000, 900)
        page.set_default_timeout(30000)
        # open, so that each test can run alone (xdist may give a worker any one of them)
        page.goto(f"{base}/en/playground/")
        page.wait_for_selector(".cm-content")
        yield base, page
        assert not page.outside, f"requests to outside the site: {page.outside}"
        assert not page.errors, f"console errors: {page.errors}"


def set_code(page, code: str) -> None:
    page.click(".cm-content")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def run(page, key: bool = False) -> str:
    runs = int(page.get_attribute("[data-playground]", "data-runs") or 0)
    if key:
        page.click(".cm-content")
        page.keyboard.press("Control+Enter")
    else:
        page.click(".pg-run")
    # Generous: the first run loads Python (3-5 s on a quiet machine, 20-30 s on a busy CI box).
    page.wait_for_selector(f"[data-playground][data-runs='{runs + 1}']", timeout=120_000)
    return page.inner_text(".pg-output")


def numbers_and_words(text: str):
    return [as_float(x) for x in NUMBER.findall(text)], NUMBER.sub("#", text).split()


def cpython_output(listing: str, lang: str = "en") -> str:
    """What the listing, as the ``lang`` book shows it, prints in this CPython with the repository's attnkit."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(listing_source(listing, lang), str(SNIPPETS / listing), "exec"), {"__name__": "__main__"})
    return buffer.getvalue()


def same_numbers(browser_out: str, cpython_out: str) -> bool:
    got, words = numbers_and_words(browser_out)
    want, want_words = numbers_and_words(cpython_out)
    return words == want_words and got == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.browser
def test_every_listing_prints_the_same_numbers_as_cpython(playground):
    base, page = playground
    page.goto(f"{base}/en/playground/?listing={LISTING}")
    page.wait_for_selector(".cm-content")
    assert "Run" in page.inner_text(".pg-run")
    assert page.input_value("#pg-listing") == LISTING
    assert same_numbers(run(page), cpython_output(LISTING))
    assert page.get_attribute("[data-playground]", "data-numpy") == "2.0.2"
    assert page.inner_text(".pg-status").startswith("Finished in")
    # Every other listing, chosen from the menu: what each chapter's run link opens.
    different = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        listing = path.relative_to(SNIPPETS).as_posix()
        if listing == LISTING:
            continue
        page.select_option("#pg-listing", listing)
        if not same_numbers(run(page), cpython_output(listing)):
            different.append(listing)
    assert not different, f"listings that print differently in the browser: {different}"


@pytest.mark.browser
def test_stop_ends_an_endless_loop_and_the_next_run_works(playground):
    base, page = playground
    set_code(page, "print('looping')\ni = 0\nwhile True:\n    i += 1\n    print(i)\n")
    page.click(".pg-run")
    page.wait_for_selector("text=looping")
    time.sleep(1.0)
    assert page.get_attribute("[data-playground]", "data-state") == "running"
    start = time.monotonic()
    assert page.evaluate("1 + 1") == 2  # the page still answers while Python loops and prints
    assert time.monotonic() - start < 1.0
    page.click(".pg-stop", timeout=2000)
    assert page.get_attribute("[data-playground]", "data-state") == "idle"
    set_code(page, "import numpy as np\nfrom attnkit import softmax\nprint(softmax(np.zeros(4)))\n")
    assert "[0.25 0.25 0.25 0.25]" in run(page, key=True)


@pytest.mark.browser
def test_a_valueerror_from_attnkit_is_a_readable_traceback(playground):
    base, page = playground
    set_code(page, "import numpy as np\nfrom attnkit import scaled_dot_product_attention\n"
                   "scaled_dot_product_attention(np.ones((3, 4)), np.ones((3, 5)), np.ones((3, 4)))\n")
    run(page)
    trace = page.inner_text(".pg-traceback")
    assert 'File "main.py", line 3' in trace
    assert "attnkit" in trace
    assert trace.strip().endswith("ValueError: q and k must have the same last dimension d_k: got q (3, 4) and k (3, 5)")
    assert "playground.py" not in trace and "_pyodide" not in trace


@pytest.mark.browser
def test_heatmap_share_link_and_run_link_from_a_chapter(playground):
    base, page = playground
    # The example draws its weights with show(): one 3x3 table with the tokens as labels.
    page.goto(f"{base}/playground/")
    page.wait_for_selector(".cm-content")
    run(page)
    table = page.locator("table.pg-heatmap")
    assert table.count() == 1 and table.locator("tbody td").count() == 9
    assert table.locator("tbody th").all_inner_texts() == ["小猫", "坐", "下"]     # the zh welcome code
    # Share: the code goes into the address; opening that address shows the same code.
    code = "print('shared 共享')\n"
    set_code(page, code)
    page.click(".pg-share")
    shared = page.url
    assert "/playground/#code=" in shared
    page.goto(f"{base}/en/")
    page.goto(shared)
    page.wait_for_selector(".cm-content")
    assert page.inner_text(".cm-content").strip() == code.strip()
    # A chapter's "run this in the browser" link, through Material's instant navigation.
    page.goto(f"{base}/ch3/softmax/")
    styled = "() => [...document.styleSheets].some((s) => (s.href || '').endsWith('/assets/playground/playground.css'))"
    assert not page.evaluate(styled)   # a chapter does not load the playground's stylesheet (trim_and_minify.py)...
    page.click(f"a.pg-run-link[href$='listing={LISTING}']")
    page.wait_for_selector(".cm-content")
    assert "?listing=" + LISTING in page.url
    assert page.evaluate(styled)       # ...the playground adds it when instant navigation keeps the chapter's head
    assert page.evaluate("getComputedStyle(document.querySelector('.pg-toolbar')).display") == "flex"
    assert "from attnkit import softmax" in page.inner_text(".cm-content")
    # Escape then Tab leaves the editor (no keyboard trap).
    page.click(".cm-content")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.classList.contains('cm-content')")


@pytest.mark.browser
def test_nothing_was_requested_from_outside_the_site(playground):
    base, page = playground
    # This page came from a chapter's run link through instant navigation: Python works here too.
    set_code(page, "import attnkit, numpy\nprint('numpy', numpy.__version__)\n")
    assert "numpy 2.0.2" in run(page)
    assert not page.outside, f"requests to outside the site: {page.outside}"
    assert not page.errors, f"console errors: {page.errors}"


def on_playground(base, page) -> None:
    """Stay on the playground page the earlier tests left open, or open the English one."""
    if "/playground/" not in page.url:
        page.goto(f"{base}/en/playground/")
        page.wait_for_selector(".cm-content")


@pytest.mark.browser
def test_a_syntax_error_shows_the_readers_line_not_the_parser(playground):
    base, page = playground
    on_playground(base, page)
    set_code(page, "x = 1\nprint(x\n")
    run(page)
    trace = page.inner_text(".pg-traceback")
    assert 'File "main.py", line 2' in trace and "print(x" in trace and "SyntaxError" in trace
    assert "ast.py" not in trace and "playground.py" not in trace and "Traceback" not in trace


@pytest.mark.browser
def test_input_says_it_is_unavailable_and_how_to_set_the_value(playground):
    base, page = playground
    on_playground(base, page)
    set_code(page, "name = input('Your name? ')\nprint(name)\n")
    run(page)
    trace = page.inner_text(".pg-traceback")
    if page.evaluate("document.documentElement.lang") == "zh":
        assert "input() 在网页里的 Python 用不了" in trace and 'name = "小猫"' in trace, trace
    else:
        assert "input() does not work" in trace and 'name = "kitten"' in trace, trace
    assert 'File "main.py", line 1' in trace and "playground.py" not in trace


@pytest.mark.browser
def test_output_of_one_run_never_leaks_into_the_next(playground):
    base, page = playground
    on_playground(base, page)
    set_code(page, "print('first run', end='')\n")
    assert run(page).strip() == "first run"
    set_code(page, "print('second run')\n")
    assert run(page).strip() == "second run"


@pytest.mark.browser
def test_a_load_failure_is_a_message_not_a_hang(playground):
    base, page = playground
    context = page.context
    blocked = "**/assets/pyodide/pyodide.js"
    context.route(blocked, lambda route: route.abort())
    try:
        page.goto(f"{base}/en/playground/")
        page.wait_for_selector(".cm-content")
        page.click(".pg-run")
        page.wait_for_selector(".pg-status[data-kind='error']", timeout=60000)
        status = page.inner_text(".pg-status")
        assert status.startswith("Python failed to load:") and "pyodide.js" in status, status
        assert page.get_attribute("[data-playground]", "data-state") == "idle"
    finally:
        context.unroute(blocked)
        page.errors.clear()  # the blocked request is logged as a console error by design


@pytest.mark.browser
def test_a_load_that_never_ends_times_out_with_a_message(playground):
    """The network never answers for Pyodide: after the load timeout (90 s for readers, shortened
    here with the data-load-timeout attribute that only tests set) the reader gets a message."""
    base, page = playground
    context = page.context
    hanging = "**/assets/pyodide/pyodide.js"
    context.route(hanging, lambda route: None)  # never answered
    try:
        page.goto(f"{base}/en/playground/")
        page.wait_for_selector(".cm-content")
        page.evaluate("document.querySelector('[data-playground]').dataset.loadTimeout = '3'")
        page.click(".pg-run")
        page.wait_for_selector(".pg-status[data-kind='error']", timeout=60000)
        status = page.inner_text(".pg-status")
        assert status.startswith("Python did not finish loading within 3 s"), status
        assert page.get_attribute("[data-playground]", "data-state") == "idle"
    finally:
        context.unroute(hanging)
        page.errors.clear()
