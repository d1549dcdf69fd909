"""A link to a section lands on the section, even below a widget.

Cross-references (``[10.3](../ch10/rope.md#the-base-and-stretching-it-for-long-texts)``), search
results and addresses with a ``#`` jump to a heading while the page is still being drawn: the
widgets above it mount afterwards, and blocks the browser skipped while they were off screen
(``content-visibility``, overrides/assets/book.css) take their real height once they are near.
Each of these moves the heading; a reader once landed 1052 px below it on ch10/rope at 1280 px
and 1058 px above it at 375 px. Here, on every page that has a widget (both languages, 1280 and
375 px), the first heading after each widget is opened by its address, and the one after
ch10/rope's widget also by a click from another page (Material's instant navigation, as a search
result is followed); once the widgets have mounted and the page has stopped moving,
the heading's top must be within MARGIN px of the top of the window (below Material's header),
or, when the page cannot scroll that far, on screen.
"""

from __future__ import annotations

import re

import pytest

from bookbuild.browser import SITE, launch, serve_site
from test_axe import SETTLE, swept

pytestmark = pytest.mark.browser
MARGIN = 100
WIDTHS = (1280, 375)
# A heading (h2/h3 with an id), and a widget, in a page's HTML.
TARGET = re.compile(r'<h[23] id="(?P<id>[^"]+)"')
WIDGET = re.compile(r'<div [^>]*data-widget="')

# Wait until the page has not moved for 1.5 s (at most 12 s): the heading's top, and whether
# the page is scrolled as far as it goes.
WHERE = """async (id) => {
  const target = document.getElementById(id);
  if (!target) return null;
  const frame = () => new Promise((r) => setTimeout(r, 100));
  let last = NaN, still = 0;
  for (let i = 0; i < 120 && still < 15; i++) {
    await frame();
    const top = Math.round(target.getBoundingClientRect().top);
    still = top === last ? still + 1 : 0;
    last = top;
  }
  const end = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
  return { top: last, end, height: window.innerHeight };
}"""


def anchors_after_widgets(path: str) -> list[str]:
    """The first heading after each widget of the page's article, in order, each once."""
    html = (SITE / path.lstrip("/") / "index.html").read_text(encoding="utf-8")
    article = html[html.find("<article"):html.rfind("</article>")]
    found = [h["id"] for w in WIDGET.finditer(article) if (h := TARGET.search(article, w.end()))]
    return list(dict.fromkeys(found))


def misplaced(where: dict | None) -> str | None:
    """Why a heading at ``where`` (WHERE's answer) is not where a link should leave it, or None."""
    if where is None:
        return "the heading is not on the page"
    if 0 <= where["top"] <= MARGIN or (where["end"] and 0 <= where["top"] < where["height"]):
        return None
    return f"its top is {where['top']} px from the top of the window (not 0-{MARGIN})"


def land(page, url: str, anchor: str) -> dict | None:
    page.wait_for_function(SETTLE, timeout=60_000)
    return page.evaluate(WHERE, anchor)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_link_to_a_section_below_a_widget_lands_on_it(lang, only_pages):
    targets = [(path, anchor) for path in swept(lang, only_pages) if path.endswith("/") and "print_page" not in path
               for anchor in anchors_after_widgets(path)]
    if not targets:
        pytest.skip("no page with a widget and a heading after it")
    problems = []
    with serve_site() as base, launch() as browser:
        for width in WIDTHS:
            page = browser.new_page(width=width, height=800)
            for path, anchor in targets:
                page.goto(f"{base}{path}#{anchor}", wait_until="load")
                if why := misplaced(land(page, path, anchor)):
                    problems.append(f"{path}#{anchor} @ {width} px, opened by its address: {why}")
            # followed from another page, as a search result or a cross-reference is
            rope = f"{'/en' if lang == 'en' else ''}/ch10/rope/"
            if any(path == rope for path, _ in targets):
                anchor = [a for p, a in targets if p == rope][0]
                page.goto(f"{base}{'/en/' if lang == 'en' else '/'}", wait_until="load")
                page.follow(f"{base}{rope}#{anchor}")
                if why := misplaced(land(page, rope, anchor)):
                    problems.append(f"{rope}#{anchor} @ {width} px, followed from the home page: {why}")
            page.context.close()
    assert not problems, "\n".join(problems)


def test_the_placement_rule():
    assert misplaced({"top": 64, "end": False, "height": 800}) is None
    assert misplaced({"top": 862, "end": False, "height": 800})
    assert misplaced({"top": -1058, "end": False, "height": 800})
    assert misplaced({"top": 400, "end": True, "height": 800}) is None     # the page ends: it cannot go higher
    assert misplaced(None) == "the heading is not on the page"
