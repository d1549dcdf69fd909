"""On a phone's touch screen, every region that scrolls sideways can be reached by keyboard.

A reader with a phone and a keyboard (or a switch, or a screen reader's keyboard commands) moves
from one focusable thing to the next; a code block wider than the screen scrolls only once it has
focus (WCAG 2.1.1, axe's scrollable-region-focusable). Material makes such a block focusable only
where the pointer can hover, so a desktop window resized to 375 px (what tests/test_pages.py
scans) passes while a phone fails: here the pages are opened at 375 px with touch emulation
(Playwright's has_touch and is_mobile) and scanned with that rule. What makes a region focusable
on a touch screen is the book's code-nav.js, the same on every page, and test_pages.py runs the
rule on every page at 375 px: so one page of each kind is opened here (test_axe.page_types: the
fewest pages that hold every tag.class and widget of the book), or the pages --pages names.
"""

from __future__ import annotations

import pytest

from bookbuild.browser import launch, serve_site
from test_axe import inject_axe, page_types, settle, swept

pytestmark = pytest.mark.browser
RULE = {"type": "rule", "values": ["scrollable-region-focusable"]}
SCAN = """async (runOnly) => (await axe.run(document, { runOnly, resultTypes: ["violations"] }))
  .violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ") + " " + n.html.slice(0, 80)))"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_scrolling_regions_are_focusable_on_a_touch_phone(lang, only_pages):
    paths = [p for p in swept(lang, only_pages) if "print_page" not in p]
    paths = paths if only_pages else page_types(paths)
    problems = []
    with serve_site() as base, launch() as browser:
        page = browser.new_page(width=375, height=740, touch=True)
        page.set_default_timeout(60000)
        assert page.evaluate("matchMedia('(hover: none)').matches && navigator.maxTouchPoints > 0")
        for path in paths:
            page.goto(base + path, wait_until="load")
            settle(page)
            inject_axe(page, base)
            problems += [f"{path}: {found}" for found in page.evaluate(SCAN, RULE)]
        assert not page.errors and not page.outside, (page.errors, page.outside)
    assert not problems, f"{len(problems)} regions scroll but cannot take focus on a touch screen:\n" + "\n".join(problems)
