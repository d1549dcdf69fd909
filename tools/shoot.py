"""Screenshot pages of the built site in headless Chromium, to look at them.

    python tools/shoot.py /ch3/softmax/ /en/ch3/softmax/ [--dark] [--width 375] [--out test-artifacts/shots]
    python tools/shoot.py /ch3/softmax/ --click "button.listing-edit" --click ".listing-live [data-action=run]" \
        --wait ".listing-live[data-state=same]" --at ".listing-live"      # a listing in edit mode, run

Serves site/ on a free localhost port and aborts every request to anywhere else.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild (not installed)
from bookbuild.browser import launch, serve_site  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--full", action="store_true", help="capture the full page")
    parser.add_argument("--out", default="test-artifacts/shots")
    parser.add_argument("--click", action="append", default=[], help="a selector to click (first match; repeatable)")
    parser.add_argument("--wait", help="a selector to wait for (3 min at most: a run may load Python)")
    parser.add_argument("--at", help="a selector whose first match to scroll to the top of the screen")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with serve_site() as base, launch() as browser:
        page = browser.new_page(args.width, dark=args.dark)
        for path in args.paths:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            for selector in args.click:
                page.locator(selector).first.click()
            if args.wait:
                page.wait_for_selector(args.wait, timeout=180_000)
            if args.at:
                page.locator(args.at).first.evaluate("e => e.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(300)
            name = (path.strip("/").replace("/", "_") or "home") + ("-dark" if args.dark else "") + f"-{args.width}.png"
            page.screenshot(path=str(out / name), full_page=args.full)
            print(out / name)
        if page.outside:
            print("outside requests attempted:", page.outside)
        if page.errors:
            print("console errors:", page.errors)


if __name__ == "__main__":
    main()
