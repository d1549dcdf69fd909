"""The built pages of both languages, each loaded once in Chromium as a reader meets it, under its
strict Content-Security-Policy, with nothing reachable outside the site (which pages, and with
which checks: below). In that one visit:

1. nothing the policy forbids is attempted (tests/test_csp.py: record_violations, violations);
2. every formula is rendered and every image shown on screen loads (test_browser.render_problems);
   no block the browser may skip off screen (content-visibility) has content larger than itself
   or is taller than the height it holds while skipped, at 1280 or 375 px (test_axe.REVEAL);
3. with every fold opened and the widgets mounted, every line of every code block takes the
   columns attnkit.text.width counts (test_code_columns.column_problems);
4. axe-core finds no WCAG 2.0/2.1 A or AA violation, nor a best-practice one, at 1280 px and at 375 px in the light
   palette (test_axe.scan; test_axe.py scans the dark palette);
5. at 375 px no label of a figure or a widget is under 9 CSS px, and a figure too small inline
   opens full size when tapped (test_figure_text.label_problems);
6. no console error.

7. every widget mounted (data-mounted="yes"; a widget that failed would otherwise pass unseen);
8. every class a widget's elements carry that a widget stylesheet styles is styled on the page: a
   widget fetches only its own stylesheets (overrides/assets/widgets/index.js, STYLES), and chapter
   11's replay, which draws with chapter 8's classes, once drew its loss curve as a black shape.

Each check lives, with its reasons, in the module named beside it; this module only visits the
pages. These checks used to load every page once per check: 12 loads of each page in all, now 2
(this sweep and the dark scan), which took about a quarter of the browser tests' time out of CI.

Not every page gets every check (issue 33: the sweep was a quarter of CI's worker-seconds):
* one page of each kind (test_axe.page_types: every kind of page, every ``tag.class`` and every
  widget of the book, found from the build) gets all of them, axe at both widths included;
* the print page (the whole book on one page, for the PDF) gets checks 1, 2, 3, 4 (at 1280 px),
  6 and 7: every formula, image, code line and element of the book's text, once;
* every other page that holds a figure or a widget, whose checks are per figure and per widget
  (each figure's labels and full-size view, each widget's height against what it holds, its
  labels, its mounting), gets every check but axe;
* the other pages (prose, formulas, listings: every part of them is on the print page) are not
  loaded here; tests/test_csp.py reads every page's inline scripts against its policy without a
  browser.
``--pages`` visits the pages it names with every check.
"""

from __future__ import annotations

import re
import time

import pytest

from bookbuild.browser import ROOT, SITE, launch, serve_site
from test_axe import WIDTHS, confirmed, page_types, report, reveal, scan, settle, swept
from test_browser import render_problems
from test_code_columns import column_problems
from test_csp import record_violations, violations
from test_figure_text import Seen, figure_label_pt, label_problems

pytestmark = pytest.mark.browser


# A figure of the book (attnkit's SVG) or a widget in a page's content: what is checked one by one.
PER_INSTANCE = re.compile(r'<img\b[^>]*\bsrc="[^"]*figures/[^"]+\.svg"|\bdata-widget="')
UNMOUNTED = """() => [...document.querySelectorAll("[data-widget]")].filter((w) => w.dataset.mounted !== "yes")
  .map((w) => `${w.dataset.widget}: ${w.dataset.mounted}`)"""


# Every class the widgets' and the playground's stylesheets style (their sources).
STYLED = {name for css in (ROOT / "overrides" / "assets").glob("*/*.css")
          if css.parent.name in ("widgets", "playground")
          for name in re.findall(r"\.([A-Za-z][\w-]*)", re.sub(r"/\*.*?\*/", "", css.read_text(encoding="utf-8"), flags=re.S))}
# The classes the page's stylesheets style, and those each widget's elements carry.
CLASSES = """() => {
  const styled = new Set();
  const walk = (rules) => { for (const r of rules) {
    for (const m of (r.selectorText || "").matchAll(/\\.([A-Za-z][\\w-]*)/g)) styled.add(m[1]);
    if (r.cssRules) walk(r.cssRules);
  } };
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (e) { /* another origin's */ } }
  const carried = [];
  for (const w of document.querySelectorAll("[data-widget]"))
    for (const el of w.querySelectorAll("[class]"))
      for (const name of el.classList) carried.push([w.dataset.widget, name]);
  return { styled: [...styled], carried };
}"""


def unstyled(page, path: str) -> list[str]:
    """The classes a widget of the page carries that a widget stylesheet styles but the page did not load."""
    found = page.evaluate(CLASSES)
    styled = set(found["styled"])
    missing = sorted({(widget, name) for widget, name in found["carried"] if name in STYLED and name not in styled})
    return [f"{path} {widget}: .{name} is styled by a stylesheet the page did not load" for widget, name in missing]


def holds_instances(path: str) -> bool:
    """Whether a built page's content holds a figure or a widget."""
    html = (SITE / path.lstrip("/") / ("index.html" if path.endswith("/") else "")).read_text(encoding="utf-8")
    return bool(PER_INSTANCE.search(html[html.find('<div class="md-content"'):]))


def visits(paths: list[str], only: list[str]) -> dict[str, str]:
    """{path: "all" or "no axe"} for the pages the sweep loads (see the module docstring)."""
    if only:
        return dict.fromkeys(paths, "all")
    kinds = set(page_types([p for p in paths if "print_page" not in p]))
    return {path: "all" if path in kinds or "print_page" in path else "no axe"
            for path in paths if path in kinds or "print_page" in path or holds_instances(path)}


def test_the_sweep_loads_each_kind_with_every_check_and_each_figure_and_widget():
    for lang in ("zh", "en"):
        paths = swept(lang, [])
        chosen = visits(paths, [])
        full = [p for p, how in chosen.items() if how == "all"]
        assert set(page_types([p for p in paths if "print_page" not in p])) < set(full) and any("print_page" in p for p in full)
        # every page with a figure or a widget is loaded; the others are not (else nothing was saved)
        assert {p for p in paths if holds_instances(p)} <= set(chosen) < set(paths), (lang, sorted(set(paths) - set(chosen)))
    assert visits(["/", "/ch3/softmax/"], ["ch3"]) == {"/": "all", "/ch3/softmax/": "all"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_as_a_reader_meets_it(lang, only_pages):
    paths = visits(swept(lang, only_pages), only_pages)
    label_pt = figure_label_pt()
    seen = Seen()
    problems = {"policy": [], "render": [], "skipped": [], "columns": [], "labels": [], "palette": [], "mounted": [],
                "unstyled": []}
    axe_failures, seconds = {}, {}
    start = time.perf_counter()
    with serve_site() as base, launch() as browser:
        page = browser.new_page(csp=True)
        page.set_default_timeout(60000)  # generous: CI machines can be busy
        policy_console = record_violations(page)
        for path, how in paths.items():
            began = time.perf_counter()
            whole_book = "print_page" in path
            try:
                page.set_viewport_size({"width": WIDTHS[0], "height": 900})
                page.goto(base + path, wait_until="load")
                if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != "default":
                    problems["palette"].append(f"{path}: not loaded in the light palette")
                problems["render"] += render_problems(page, path)
                problems["skipped"] += [f"{path} {c}" for c in settle(page, transitions=how == "all")]
                problems["mounted"] += [f"{path} {w}" for w in page.evaluate(UNMOUNTED)]
                problems["unstyled"] += unstyled(page, path)
                problems["columns"] += column_problems(page, path)
                if how == "all":
                    found = scan(page, base, path)   # leaves the page at 375 px (the print page: 1280)
                else:
                    found = {}
                    page.set_viewport_size({"width": WIDTHS[1], "height": 900})
                if not whole_book:
                    problems["skipped"] += [f"{path} {c}" for c in reveal(page, again=True)]   # at 375 px
                    problems["labels"] += label_problems(page, base, path, label_pt, seen)
                problems["policy"] += [f"{path}: {v}" for v in violations(page)]
                found = confirmed(page, base, path, found)
            except Exception as error:  # a page that does not load or settle is a failure of that page
                found = {0: [{"rule": "scan-failed", "target": path, "summary": str(error).splitlines()[0]}]}
            axe_failures.update({f"{path} @ {width} px": items for width, items in found.items() if items})
            seconds[path] = round(time.perf_counter() - began, 2)
        problems["policy"] += policy_console
        if not only_pages:   # what the whole book must show somewhere (a figure opened, each widget measured)
            problems["labels"] += seen.problems(lang)
    lines = [f"[{check}] {line}" for check, found in problems.items() for line in found]
    axe_message = report("light", lang, axe_failures, seconds, time.perf_counter() - start)
    if axe_message:
        lines.append("[axe] " + axe_message)
    if page.outside:
        lines.append(f"[offline] requests to outside the site: {page.outside}")
    if page.errors:
        lines.append(f"[console] errors: {page.errors}")
    assert not lines, f"{len(lines)} problems on the {lang} pages:\n" + "\n".join(lines[:60])
