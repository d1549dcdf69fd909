"""What the site weighs and what a first visit costs: a benchmark that prints figures.

    python bench/bench_pages.py [--site site]

First the site: its size by part as built (site/) and as published (a copy made deployable by
bookbuild/publish.py, what `make publish` leaves), the PDFs' size and page count (both editions of
both languages, from `make pdf`), and the first visit (bench/benchlib.py first_visit: a fresh
context, 1280 px, every widget mounted) to five pages, with the 400 KB of issue 38 beside it.

Then, for the home page, a chapter page (3.3 softmax), the tour and the playground, in both languages,
it opens the page in a fresh headless Chromium (empty cache, 375 px wide, like a phone), waits
until the network is idle, and prints: requests, raw bytes, gzip bytes (computed here with gzip -6:
Python's http.server, which serves the site for this benchmark, sends no compression, so the raw
column is what this server sends and the gzip column what a compressing host would), the largest
items, and the longest main-thread task during load (PerformanceObserver "longtask").
Then Lighthouse 12 (npm, pinned in package.json; mobile, simulated throttling) on the chapter
page and the tour of each language, driving Debian's Chromium, several times per page (one run
says little on a shared 2-core machine; Lighthouse's own advice is the median of five): each
run's performance and accessibility scores, total blocking time and largest contentful paint,
then the median.

A run marked "held" is one where headless Chromium kept the first frame off the screen after the
page had loaded: its observed first contentful paint comes after the load event, about a second
late (the page had painted at ~0.25 s). Chromium's display compositor stops sending frames to a
renderer it judges unresponsive (GoogleChrome/lighthouse#17148, open); the simulated metrics then
count every request made before that late paint, and the score falls to the 70s. Such runs are
listed and counted, and the median of the others is printed beside the median of all.
Nothing is asserted: speed and size are figures to read, not tests.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from bookbuild import publish  # noqa: E402
from bookbuild.browser import launch, serve_site  # noqa: E402
from benchlib import first_visit, load  # noqa: E402  (bench/ is on the path: the script's folder)

MB = 1024 * 1024
FIRST_VISIT = ["/", "/tour/", "/en/tour/", "/ch3/softmax/", "/en/ch3/softmax/"]
FIRST_VISIT_GOAL_KB = 400      # issue 38 (tests/test_weight.py checks three of these pages)

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
LIGHTHOUSE_PAGES = ("chapter", "tour")
PAGES = {"home": "/", "chapter": "/ch3/softmax/", "tour": "/tour/", "playground": "/playground/"}
LONG_TASKS = """() => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: "longtask", buffered: true });
}"""


def measure(browser, url: str) -> dict:
    page = browser.new_page(375, 812)
    items: list[tuple[str, int, int]] = []

    def done(response):
        try:
            body = response.body()
        except Exception:  # a redirect or an aborted request has no body
            return
        items.append((response.url, len(body), len(gzip.compress(body, 6))))

    page.on("response", done)
    page.add_init_script(f"({LONG_TASKS})()")
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    longest = page.evaluate("window.__longest")
    page.context.close()
    return {"items": items, "longest_task_ms": longest}


def lighthouse(url: str) -> dict:
    """One Lighthouse mobile run: scores, TBT and LCP, and whether Chromium held the first frame."""
    result = subprocess.run(
        [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
         "--only-categories=performance,accessibility", "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"}, timeout=300,
    )
    if result.returncode != 0:
        return {"error": "Lighthouse failed: " + (result.stderr.strip().splitlines() or ["no message"])[-1]}
    report = json.loads(result.stdout)
    audits = report["audits"]
    observed = audits["metrics"]["details"]["items"][0]
    return {**{k: round(100 * (c["score"] or 0)) for k, c in report["categories"].items()},
            "tbt": audits["total-blocking-time"]["numericValue"],
            "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
            "held": observed["observedLoad"] < observed["observedFirstContentfulPaint"]}


def lighthouse_runs(url: str, runs: int) -> str:
    """``runs`` Lighthouse runs of ``url``: each one, then the medians."""
    lines, results = [], []
    for _ in range(runs):
        load = os.getloadavg()[0]
        run = lighthouse(url)
        if "error" in run:
            lines.append(f"    {run['error']}")
            continue
        results.append(run)
        lines.append(f"    performance {run['performance']:>3} · accessibility {run['accessibility']:>3} · "
                     f"TBT {run['tbt']:>4.0f} ms · LCP {run['lcp']:.1f} s{' · held' if run['held'] else ''}"
                     f"  (load {load:.1f})")
    if results:
        free = [r["performance"] for r in results if not r["held"]]
        lines.append(f"    median performance {median([r['performance'] for r in results]):.0f} of {len(results)} runs"
                     f" ({len(results) - len(free)} held); of the runs not held: "
                     + (f"{median(free):.0f}" if free else "none") +
                     f"; median accessibility {median([r['accessibility'] for r in results]):.0f},"
                     f" TBT {median([r['tbt'] for r in results]):.0f} ms")
    return "\n".join(lines)


def site_sizes(site: Path) -> None:
    """The site by part, as built and as published, and the PDFs' size and page count."""
    print(f"site as built ({site}): {publish.total(site) / MB:.1f} MB")
    built = dict((part, size) for part, size, _ in publish.parts(site))
    copy = Path(tempfile.mkdtemp(prefix="bench-published-")) / "site"
    try:
        shutil.copytree(site, copy)
        publish.lean(copy)
        print(f"site as published (make publish): {publish.total(copy) / MB:.1f} MB")
        print(f"  {'part':<40s}{'built MB':>10s}{'published MB':>14s}{'files':>7s}")
        for part, size, count in publish.parts(copy):
            print(f"  {part:<40s}{built.get(part, 0) / MB:10.2f}{size / MB:14.2f}{count:7d}")
        for part in sorted(set(built) - {p for p, _, _ in publish.parts(copy)}):
            print(f"  {part:<40s}{built[part] / MB:10.2f}{0:14.2f}{0:7d}")
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)
    pdfs = sorted((site / "pdf").glob("*.pdf"))
    if not pdfs:
        print("PDFs: none in site/pdf/ (run `make pdf`)")
    from pypdf import PdfReader
    for pdf in pdfs:
        print(f"  {pdf.name:<40s}{pdf.stat().st_size / MB:6.2f} MB {len(PdfReader(pdf).pages):5d} pages")


def first_visits(browser, base: str) -> None:
    print(f"\nfirst visit, every widget mounted (1280 px, empty cache; goal {FIRST_VISIT_GOAL_KB} KB), {load()}:")
    for path in FIRST_VISIT:
        page, fetched = first_visit(browser, base + path)
        page.wait_for_timeout(300)
        total = sum(n for _, n in fetched)
        page.context.close()
        print(f"  {path:<22s}{len(fetched):4d} requests {total / 1024:7.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--lighthouse-runs", type=int, default=5, metavar="N",
                        help="Lighthouse runs per page (default 5; 0 skips Lighthouse)")
    args = parser.parse_args()
    site_sizes(args.site)
    with serve_site(args.site) as base, launch() as browser:
        first_visits(browser, base)
    print()
    print("load average: %.2f %.2f %.2f (task times depend on it)" % os.getloadavg())
    print("server: Python http.server, no compression (gzip column computed here with gzip -6)\n")
    print(f"{'page':<22}{'requests':>9}{'raw KB':>9}{'gzip KB':>9}{'longest task ms':>17}")
    largest = {}
    with serve_site(args.site) as base, launch() as browser:
        for lang in ("zh", "en"):
            for kind, path in PAGES.items():
                url = base + ("/en" if lang == "en" else "") + path
                result = measure(browser, url)
                items = result["items"]
                raw, packed = sum(i[1] for i in items), sum(i[2] for i in items)
                name = f"{kind} ({lang})"
                print(f"{name:<22}{len(items):>9}{raw / 1024:>9.0f}{packed / 1024:>9.0f}{result['longest_task_ms']:>17.0f}")
                largest[name] = sorted(items, key=lambda i: -i[1])[:5]
        print("\nlargest items on first visit (raw KB):")
        for name, items in largest.items():
            listed = ", ".join(f"{i[0].removeprefix(base)} {i[1] / 1024:.0f}" for i in items)
            print(f"  {name}: {listed}")
        if not args.lighthouse_runs:
            return
        if not LIGHTHOUSE.exists():
            print("\nLighthouse: not installed (run `make setup`, which runs `npm ci`)")
            return
        print(f"\nLighthouse 12, mobile, {args.lighthouse_runs} runs per page (load average %.2f %.2f %.2f):" % os.getloadavg())
        for lang in ("zh", "en"):
            for kind in LIGHTHOUSE_PAGES:
                url = base + ("/en" if lang == "en" else "") + PAGES[kind]
                print(f"  {kind} ({lang}) {PAGES[kind]}:", flush=True)
                print(lighthouse_runs(url, args.lighthouse_runs), flush=True)


if __name__ == "__main__":
    main()
