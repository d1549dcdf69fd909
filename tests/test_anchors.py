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

A heading moves with the widgets above it: each widget holds a height per kind of widget
(overrides/assets/book.css) until it is laid out. So not every such heading is opened (54 of
them took 4 minutes of CI), but the fewest (targets) that meet every kind of widget above a
heading, right before one, and every kind of page (test_axe.kinds) with a widget; ch10/rope's
always. tests/test_pages.py measures every widget on every page against the height it holds.
"""

from __future__ import annotations

import re

import pytest

from bookbuild.browser import SITE, launch, serve_site
from test_axe import SETTLE, fewest, kinds, swept

pytestmark = pytest.mark.browser
MARGIN = 100
WIDTHS = (1280, 375)
# A heading (h2/h3 with an id), and a widget, in a page's HTML.
TARGET = re.compile(r'<h[23] id="(?P<id>[^"]+)"')
WIDGET = re.compile(r'<div [^>]*data-widget="')
KIND = re.compile(r'<div [^>]*data-widget="([^"]+)"')

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


def widgets_above(path: str, anchor: str) -> list[str]:
    """The kinds of the widgets above heading ``anchor`` of a built page, in order."""
    html = (SITE / path.lstrip("/") / "index.html").read_text(encoding="utf-8")
    return KIND.findall(html[html.find("<article"):html.find(f'id="{anchor}"')])


def targets(paths: list[str], only: list[str]) -> list[tuple[str, str]]:
    """(path, heading id) to open: every heading after a widget on the pages ``--pages`` names,
    or the fewest of all (test_axe.fewest) that hold every kind of widget above a heading, every
    kind right before one, every kind of page, and ch10/rope's first."""
    every = [(path, anchor) for path in paths if path.endswith("/") and "print_page" not in path
             for anchor in anchors_after_widgets(path)]
    if only:
        return every
    features = {}
    for path, anchor in every:
        above = widgets_above(path, anchor)
        first_on_rope = path.endswith("/ch10/rope/") and anchor == anchors_after_widgets(path)[0]
        features[(path, anchor)] = ({"above:" + w for w in above} | {"after:" + above[-1]}
                                    | {"page:" + kinds("en" if path.startswith("/en/") else "zh")[path]}
                                    | ({"rope"} if first_on_rope else set()))
    return fewest(features)


def test_the_targets_meet_every_widget_and_kind_of_page():
    for lang in ("zh", "en"):
        paths = swept(lang, [])
        every, chosen = targets(paths, ["/"]), targets(paths, [])
        assert set(chosen) < set(every), (len(chosen), len(every))
        rope = f"{'/en' if lang == 'en' else ''}/ch10/rope/"
        assert (rope, anchors_after_widgets(rope)[0]) in chosen
        right_before = {widgets_above(*target)[-1] for target in every}
        assert {"rope", "exercise", "question"} <= right_before
        assert {widgets_above(*target)[-1] for target in chosen} == right_before
        assert {kinds(lang)[p] for p, _ in chosen} == {kinds(lang)[p] for p, _ in every}


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
    targets_ = targets(swept(lang, only_pages), only_pages)
    if not targets_:
        pytest.skip("no page with a widget and a heading after it")
    problems = []
    with serve_site() as base, launch() as browser:
        for width in WIDTHS:
            page = browser.new_page(width=width, height=800)
            for path, anchor in targets_:
                # from a blank page, so that each address opens a page of its own: two headings of
                # one page in a row would otherwise be a jump within the page, which Chromium,
                # when the page is busy, sometimes turned into a load of the address Material's
                # anchor tracking had written meanwhile (the heading above: CI, /tour/ at 375 px)
                page.goto("about:blank")
                page.goto(f"{base}{path}#{anchor}", wait_until="load")
                if why := misplaced(land(page, path, anchor)):
                    problems.append(f"{path}#{anchor} @ {width} px, opened by its address: {why}")
            # followed from another page, as a search result or a cross-reference is
            rope = f"{'/en' if lang == 'en' else ''}/ch10/rope/"
            if any(path == rope for path, _ in targets_):
                anchor = [a for p, a in targets_ if p == rope][0]
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
