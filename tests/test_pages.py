"""Every built page of both languages, loaded once in Chromium as a reader meets it, under its
strict Content-Security-Policy, with nothing reachable outside the site. In that one visit:

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

Each check lives, with its reasons, in the module named beside it; this module only visits the
pages. These checks used to load every page once per check: 12 loads of each page in all, now 2
(this sweep and the dark scan), which took about a quarter of the browser tests' time out of CI.
The print page (the whole book on one page, for the PDF) gets checks 1, 2, 4 (at 1280 px) and 6.
"""

from __future__ import annotations

import time

import pytest

from bookbuild.browser import launch, serve_site
from test_axe import WIDTHS, confirmed, report, reveal, scan, settle, swept
from test_browser import render_problems
from test_code_columns import column_problems
from test_csp import record_violations, violations
from test_figure_text import Seen, figure_label_pt, label_problems

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_as_a_reader_meets_it(lang, only_pages):
    paths = swept(lang, only_pages)
    label_pt = figure_label_pt()
    seen = Seen()
    problems = {"policy": [], "render": [], "skipped": [], "columns": [], "labels": [], "palette": []}
    axe_failures, seconds = {}, {}
    start = time.perf_counter()
    with serve_site() as base, launch() as browser:
        page = browser.new_page(csp=True)
        page.set_default_timeout(60000)  # generous: CI machines can be busy
        policy_console = record_violations(page)
        for path in paths:
            began = time.perf_counter()
            whole_book = "print_page" in path
            try:
                page.set_viewport_size({"width": WIDTHS[0], "height": 900})
                page.goto(base + path, wait_until="load")
                if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != "default":
                    problems["palette"].append(f"{path}: not loaded in the light palette")
                problems["render"] += render_problems(page, path)
                problems["skipped"] += [f"{path} {c}" for c in settle(page)]
                if not whole_book:
                    problems["columns"] += column_problems(page, path)
                found = scan(page, base, path)   # leaves the page at 375 px (the print page: 1280)
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
