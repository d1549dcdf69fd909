"""What a first visit costs, per page type and language: a benchmark that prints figures.

    python tools/bench_pages.py [--site site]

For the home page, a chapter page (3.3 softmax), the tour and the playground, in both languages,
it opens the page in a fresh headless Chromium (empty cache, 375 px wide, like a phone), waits
until the network is idle, and prints: requests, raw bytes, gzip bytes (computed here with gzip -6:
Python's http.server, which serves the site for this benchmark, sends no compression, so the raw
column is what this server sends and the gzip column what a compressing host would), the largest
items, and the longest main-thread task during load (PerformanceObserver "longtask").
Nothing is asserted: speed and size are figures to read, not tests.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser import launch, serve_site  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
