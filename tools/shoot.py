"""Screenshot pages of the built site in headless Chromium, to look at them.

    python tools/shoot.py /ch3/softmax/ /en/ch3/softmax/ [--dark] [--width 375] [--out test-artifacts/shots]

Serves site/ on a free localhost port and aborts every request to anywhere else.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/browser.py
from browser import launch, serve_site  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--full", action="store_true", help="capture the full page")
    parser.add_argument("--out", default="test-artifacts/shots")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with serve_site() as base, launch() as browser:
        page = browser.new_page(args.width, dark=args.dark)
        for path in args.paths:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            name = (path.strip("/").replace("/", "_") or "home") + ("-dark" if args.dark else "") + f"-{args.width}.png"
            page.screenshot(path=str(out / name), full_page=args.full)
            print(out / name)
        if page.outside:
            print("outside requests attempted:", page.outside)
        if page.errors:
            print("console errors:", page.errors)


if __name__ == "__main__":
    main()
