"""Print how long a reader waits for a listing's "edit and run", and what a chapter page fetches.
Figures, not assertions (each with the load average: this machine is shared).

    python bench/bench_listings.py [--runs 3] [--site site]

Serves a built site (``make build`` first, or --site) and, for each run, in a fresh browser
context (empty cache) on the Chinese book:

* first run: 3.3's softmax listing, "edit and run" pressed, then Run -> output compared with the
  book's (Python starts: Pyodide, NumPy and attnkit in the tab's one worker, python.js);
* second run on another page: 3.2's listing, reached by the site's instant navigation (the same
  Python) -> result shown;
* run after Stop: a loop that never ends is stopped after 3 s, then the listing runs again (on
  the spare Python that started once the loop had run for 1 s);
* bytes fetched by a first visit of 3.3 and 3.2 (nothing of the listings' editor or of Pyodide
  until a button is pressed), and the bytes that pressing "edit and run" fetches.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from benchlib import first_visit, print_runs  # noqa: E402
from bookbuild.browser import launch, serve_site  # noqa: E402

LOOP = "i = 0\nwhile True:\n    i += 1\n    if i % 100000 == 0:\n        print('looping', i)\n"
DONE = "() => ['same', 'differs', 'failed', 'stopped'].includes(document.querySelector('.listing-live').dataset.state)"


def _open(page, listing=None):
    selector = f'button.listing-edit[data-listing="{listing}"]' if listing else "button.listing-edit"
    page.locator(selector).first.click()
    page.locator(".listing-live textarea").wait_for()


def _run(page) -> tuple[float, str]:
    started = time.perf_counter()
    page.click('.listing-live [data-action="run"]')
    page.wait_for_function(DONE)
    return time.perf_counter() - started, page.get_attribute(".listing-live", "data-state")


def first_visit_bytes(browser, base, path) -> tuple[int, int]:
    """(bytes of a first visit, widgets mounted; bytes that pressing the first "edit and run" adds)."""
    page, fetched = first_visit(browser, base + path)
    visit = sum(n for _, n in fetched)
    _open(page)
    page.wait_for_load_state("networkidle")
    page.context.close()
    return visit, sum(n for _, n in fetched) - visit


def measure(site: Path, runs: int) -> None:
    rows, states = [], []
    with serve_site(site) as base, launch() as browser:
        for _ in range(runs):
            page = browser.new_page()
            page.set_default_timeout(180_000)
            page.goto(base + "/ch3/softmax/")
            _open(page, "ch3/softmax_cake.py")
            first, s1 = _run(page)
            page.follow(base + "/ch3/dot-product/")
            _open(page)
            second, s2 = _run(page)
            original = page.input_value(".listing-live textarea")
            page.fill(".listing-live textarea", LOOP)
            page.click('.listing-live [data-action="run"]')
            page.wait_for_function("() => document.querySelector('.listing-printed').textContent.includes('looping')")
            page.wait_for_timeout(3000)        # a reader sees it hang for a few seconds, then presses Stop
            page.click('.listing-live [data-action="stop"]')
            page.wait_for_function(DONE)
            page.fill(".listing-live textarea", original)
            after_stop, s3 = _run(page)
            rows.append((first, second, after_stop))
            states.append((s1, s2, s3))
            if page.outside:
                print("requests to outside the site:", page.outside)
            page.context.close()
        weights = {path: first_visit_bytes(browser, base, path) for path in ("/ch3/softmax/", "/ch3/dot-product/")}
    print_runs("listings' edit and run, cold cache", ["first run (Python starts)", "second run, other page", "run after Stop"],
               rows, [f"verdicts {sorted({s[i] for s in states})}" for i in range(3)])
    for path, (visit, edit) in weights.items():
        print(f"  first visit of {path:20s} {visit / 1024:7.1f} KB fetched; pressing \"edit and run\" fetches "
              f"{edit / 1024:.1f} KB more (uncompressed bodies; Pyodide only on Run)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    args = parser.parse_args()
    measure(args.site, args.runs)


if __name__ == "__main__":
    main()
