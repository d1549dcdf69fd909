"""What the benchmark programs in tools/ (``make bench``) share: the load average printed beside
every time (this machine is shared), the table of timed runs, and a first visit's fetches."""

from __future__ import annotations

import os
import statistics

# true once every widget of the page has mounted (a page without widgets: at once)
MOUNTED = "() => [...document.querySelectorAll('[data-widget]')].every(w => w.dataset.mounted === 'yes')"


def load() -> str:
    """The 1, 5 and 15 minute load averages, as printed beside a measured time."""
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def print_runs(title: str, labels: list[str], rows: list[tuple], notes: list[str] | None = None) -> None:
    """Print ``title`` with the load average, then a line per label: the median of that column of
    ``rows`` (one tuple of seconds per run) and its range, and the label's note if any.

    >>> print_runs("demo", ["first", "second"], [(1.0, 2.0), (3.0, 4.0), (2.0, 3.0)])  # doctest: +ELLIPSIS
    demo, 3 runs (median; min-max), load average ...:
      first    2.00 s  (1.00-3.00)
      second   3.00 s  (2.00-4.00)
    """
    print(f"{title}, {len(rows)} runs (median; min-max), {load()}:")
    width = max(map(len, labels))
    for i, label in enumerate(labels):
        values = [row[i] for row in rows]
        note = f"  {notes[i]}" if notes else ""
        print(f"  {label:{width}s} {statistics.median(values):6.2f} s  ({min(values):.2f}-{max(values):.2f}){note}")


def first_visit(browser, url: str):
    """Open ``url`` in a new context (empty cache) and wait until its widgets have mounted.
    Returns the page and the list of (address, body bytes) of what it fetched, which goes on
    growing while the page stays open."""
    page = browser.new_page()
    fetched = []
    page.on("requestfinished", lambda r: fetched.append((r.url, r.sizes()["responseBodySize"])))
    page.goto(url, wait_until="networkidle")
    page.wait_for_function(MOUNTED)
    return page, fetched
