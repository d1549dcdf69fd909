"""The built book in headless Chromium, as a reader sees it: math, figures, language switch,
Chinese search, dark mode and a phone-sized screen, with nothing loaded from outside.
Every page's math and images are checked in tests/test_pages.py (render_problems, below)."""


import pytest

from bookbuild.browser import launch, serve_site
from book import ROOT
from test_axe import chosen, page_types, site_pages

pytestmark = pytest.mark.browser
SHOTS = ROOT / "test-artifacts" / "shots"


@pytest.fixture(scope="module")
def site():
    with serve_site() as base, launch() as browser:
        yield base, browser


# Wait (up to 10 s) for every image shown on screen to load or fail; print-only figures are lazy
# and never fetched on screen. Then list those that failed and the formulas left unrendered.
RENDERED = """async () => {
  const shown = [...document.images].filter((i) => !i.closest(".print-only"));
  await Promise.race([
    Promise.all(shown.filter((i) => !i.complete).map((i) => new Promise((done) => {
      i.addEventListener("load", done, { once: true });
      i.addEventListener("error", done, { once: true });
    }))),
    new Promise((done) => setTimeout(done, 10000)),
  ]);
  return { raw_math: document.querySelectorAll(".arithmatex:not(:has(.katex))").length,
           broken: shown.filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src) };
}"""


def render_problems(page, path: str) -> list[str]:
    """On a page just loaded: formulas left unrendered, images that did not load. Every page of
    both languages goes through this in tests/test_pages.py, offline (nothing outside the site)."""
    found = page.evaluate(RENDERED)
    problems = []
    if found["raw_math"]:
        problems.append(f"{path}: {found['raw_math']} formulas left unrendered")
    if found["broken"]:
        problems.append(f"{path}: images that did not load: {found['broken']}")
    return problems


def test_language_switch_keeps_the_page(site):
    base, browser = site
    page = browser.new_page()
    page.set_default_timeout(30000)  # generous: CI machines can be busy
    page.goto(base + "/ch3/softmax/")
    page.wait_for_load_state("networkidle")
    chinese = page.locator("h1").inner_text()
    lang = "() => document.documentElement.lang"
    assert page.evaluate(lang).startswith("zh"), page.evaluate(lang)
    # The language menu opens on hover (or focus); then the reader picks a language.
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url("**/en/ch3/softmax/")
    page.wait_for_load_state("networkidle")
    # the two titles differ only after "3.3 ": check the page's language too, and that the way back restores the title
    english = page.locator("h1").inner_text()
    assert page.evaluate(lang) == "en" and english.startswith("3.3 Softmax") and english != chinese, english
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.md-select__link[hreflang="zh"]').click()
    page.wait_for_url(lambda url: url.endswith("/ch3/softmax/") and "/en/" not in url)
    page.wait_for_load_state("networkidle")
    assert page.evaluate(lang).startswith("zh") and page.locator("h1").inner_text() == chinese
    assert not page.outside and not page.errors


def test_chinese_search_finds_a_word_inside_a_sentence(site):
    base, browser = site
    page = browser.new_page()
    page.goto(base + "/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box, results = page.locator("input.md-search__input"), page.locator(".md-search-result__item")
    # Material reads the query on keyup; Chinese text arrives through an input method, which
    # Playwright's fill() imitates without a keyup, so finish with a key that changes nothing.
    # A query sent before the search worker has built its index is dropped: retry for ~20 s.
    for _ in range(20):
        box.fill("份额")
        box.press("End")
        page.wait_for_timeout(1000)
        if results.count():
            break
    texts = results.all_inner_texts()
    assert any("softmax" in text for text in texts), f"search for 份额 found: {texts}"
    assert not page.outside and not page.errors


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_softmax_page_fits_phone_and_dark_mode(site, lang, width, dark):
    base, browser = site
    page = browser.new_page(width=width, dark=dark)
    page.goto(base + ("/en" if lang == "en" else "") + "/ch3/softmax/")
    page.wait_for_load_state("networkidle")
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert scheme == ("slate" if dark else "default")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"page scrolls sideways by {overflow}px at {width}px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"test-{lang}-softmax-{width}-{'dark' if dark else 'light'}.png"), full_page=True)
    assert not page.outside and not page.errors


def test_every_page_fits_a_phone_before_its_scripts_run(site, only_pages):
    """Before Material's script runs, and for a reader without JavaScript, no page is wider than a
    320 px phone. A page laid out wider than the screen shows its first frames zoomed out; the
    language menu did this on every page (overrides/assets/book.css, .no-js .md-select__inner).
    One page of each kind (test_axe.page_types: every kind of page, tag.class and widget), and
    each language's print page, which holds every page's content (every table, formula, listing
    and figure of the book); or the pages --pages names."""
    base, browser = site
    page = browser.new_page(width=320, height=640, scripts=False)
    wide = []
    every = site_pages()
    sample = [p for lang in ("zh", "en") for p in page_types([p for p in every if p.startswith("/en/") == (lang == "en")
                                                            and "print_page" not in p])]
    paths = chosen(every, only_pages) if only_pages else sample + [p for p in every if "print_page" in p]
    assert len(paths) > 30 and len([p for p in paths if "print_page" in p]) == 2, paths
    for path in paths:
        page.goto(base + path, wait_until="load")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 1:
            wide.append(f"{path}: {overflow} px too wide")
    page.context.close()
    assert not wide, "pages wider than a 320 px phone before their scripts run:\n" + "\n".join(wide)
