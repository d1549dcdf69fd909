"""A listing's "edit and run" (overrides/assets/widgets/listing.js), as a reader uses it: open the
editor in place, run the code in the page's Python, see "same as the book", change a number, see
"differs", reset; Stop a runaway loop and run again; all of it by keyboard alone. The buttons and
the download link come from the build (bookbuild/playground.py add_run_links)."""

import re

import pytest

from book import LANGS, listing_source


LISTING = "ch3/softmax_cake.py"
PAGE = {"zh": "/ch3/softmax/", "en": "/en/ch3/softmax/"}
OTHER = {"zh": "/ch3/dot-product/", "en": "/en/ch3/dot-product/"}
SAME = {"zh": "和书上的输出一样", "en": "Same as the book"}
DIFFERS = {"zh": "和书上的输出不一样", "en": "Differs from the book"}


@pytest.fixture(scope="module")
def reader():
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as browser:
        pages = {}

        def page_for(lang, width=1280):
            if (lang, width) not in pages:
                page = browser.new_page(width, csp=True)
                page.set_default_timeout(180_000)   # the first run loads Python: seconds, or a minute on a busy machine
                page.pyodide = []
                page.on("request", lambda r, p=page: "/assets/pyodide/" in r.url and p.pyodide.append(r.url))
                pages[lang, width] = page
            return pages[lang, width]

        yield base, page_for
        for page in pages.values():
            assert not page.outside, f"requests to outside the site: {page.outside}"
            assert not page.errors, f"console errors: {page.errors}"


def state(page) -> str:
    return page.get_attribute(".listing-live", "data-state")


def wait_done(page):
    page.wait_for_function("() => ['same', 'differs', 'failed', 'stopped'].includes("
                           "document.querySelector('.listing-live').dataset.state)")
    return state(page)


def edit_button(page):
    return page.locator(f'button.listing-edit[data-listing="{LISTING}"]')


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_edit_run_same_change_differs_reset(reader, lang):
    base, page_for = reader
    page = page_for(lang, 375 if lang == "zh" else 1280)
    page.pyodide.clear()   # what an earlier test of this module ran in this tab does not count
    page.goto(base + PAGE[lang])
    button = edit_button(page)
    button.wait_for()
    source = page.locator(".highlight", has_text="from attnkit import softmax").first
    assert source.is_visible()
    assert not page.pyodide, "Pyodide was fetched before the reader pressed run"
    button.click()
    editor = page.locator(".listing-live textarea")
    editor.wait_for()
    assert editor.input_value() == listing_source(LISTING, lang), "the editor does not start from the page's code"
    assert not source.is_visible(), "the editor takes the listing's place"
    assert not page.pyodide, "Pyodide was fetched before the reader pressed run"
    page.click('.listing-live [data-action="run"]')
    assert wait_done(page) == "same", page.inner_text(".listing-result")
    assert page.pyodide, "the run did not use the site's Pyodide"
    assert SAME[lang] in page.inner_text(".listing-verdict")
    # the run's output sits under the book's, and the announcement says how it went
    assert SAME[lang].lower() in page.inner_text(".listing-live [aria-live]").lower()
    # change one number: the output differs from the book's, and the line says from where
    editor.fill(editor.input_value().replace("[5.0, 2.0, 0.0]", "[6.0, 2.0, 0.0]", 1))
    page.click('.listing-live [data-action="run"]')
    assert wait_done(page) == "differs"
    verdict = page.inner_text(".listing-verdict")
    assert DIFFERS[lang] in verdict and re.search(r"\d", verdict), verdict
    page.click('.listing-live [data-action="reset"]')
    assert page.locator(".listing-live").count() == 0 and page.locator(".listing-result").count() == 0
    assert source.is_visible()
    assert page.evaluate("document.activeElement.classList.contains('listing-edit')")


@pytest.mark.browser
def test_stop_ends_a_runaway_loop_and_the_next_run_works(reader):
    base, page_for = reader
    page = page_for("en")
    page.goto(base + PAGE["en"])
    edit_button(page).click()
    editor = page.locator(".listing-live textarea")
    editor.fill("i = 0\nwhile True:\n    i += 1\n    if i % 100000 == 0:\n        print('looping', i)\n")
    page.click('.listing-live [data-action="run"]')
    page.wait_for_function("() => document.querySelector('.listing-printed').textContent.includes('looping')")
    page.wait_for_timeout(2500)       # long enough that python.js starts the spare Python
    assert state(page) == "running"
    page.click('.listing-live [data-action="stop"]')
    assert wait_done(page) == "stopped"
    editor.fill("import numpy as np\nfrom attnkit import softmax\nprint(softmax(np.zeros(4)))\n")
    page.click('.listing-live [data-action="run"]')
    assert wait_done(page) == "differs"
    assert "[0.25 0.25 0.25 0.25]" in page.inner_text(".listing-printed")


@pytest.mark.browser
def test_keyboard_only_and_python_survives_instant_navigation(reader):
    """Tab to the button, Enter opens the editor with the focus in it, Ctrl+Enter runs, Escape then
    Tab leaves the editor for the Run button; on another page (instant navigation) the same Python
    runs the next listing without a new start-up."""
    base, page_for = reader
    page = page_for("zh")
    page.goto(base + PAGE["zh"])
    edit_button(page).focus()
    page.keyboard.press("Enter")
    page.locator(".listing-live textarea").wait_for()
    assert page.evaluate("document.activeElement.tagName") == "TEXTAREA"
    page.keyboard.press("Tab")                      # Tab indents inside the editor
    typed = page.locator(".listing-live textarea").input_value()
    caret = page.evaluate("document.activeElement.selectionStart")
    assert typed[caret - 4:caret] == "    " and typed[:caret - 4] + typed[caret:] == listing_source(LISTING, "zh")
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(listing_source(LISTING, "zh"))
    page.keyboard.press("Control+Enter")
    assert wait_done(page) == "same"
    page.locator(".listing-live textarea").focus()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "run"
    # another page, by the site's own (instant) navigation: the document, and its Python, stay
    page.follow(base + OTHER["zh"])
    button = page.locator("button.listing-edit").first
    button.wait_for()
    button.focus()
    page.keyboard.press("Enter")
    page.locator(".listing-live textarea").wait_for()
    page.keyboard.press("Control+Enter")
    assert wait_done(page) == "same"
    assert page.get_attribute(".listing-live", "data-python-was-ready") == "true"
