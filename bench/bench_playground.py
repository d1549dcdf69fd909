"""Print how long the playground takes from a cold browser cache to Python-ready and to the first
result, on this machine. Figures, not assertions.

    python bench/bench_playground.py [--runs 3] [--site site]

Builds the Chinese book into a temporary folder (unless --site names a built one), serves it on
localhost, and for each run opens a fresh browser context (empty cache), loads the playground
with the first listing, presses Run, and times: page load -> editor ready, Run -> Python ready
(Pyodide + NumPy + attnkit loaded), Run -> the listing's output shown.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from benchlib import print_runs  # noqa: E402
from bookbuild.browser import launch, serve_site  # noqa: E402


def build(target: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml", "-d", str(target)],
                   cwd=ROOT, env=env, check=True, capture_output=True)


def measure(site: Path, runs: int) -> None:
    """Cold-cache timings (the machine's load shows in them: compare runs on a quiet machine)."""
    listing = sorted(p.relative_to(ROOT / "snippets").as_posix() for p in (ROOT / "snippets").rglob("*.py"))[0]
    rows = []
    with serve_site(site) as base, launch() as browser:
        for _ in range(runs):
            page = browser.new_page()          # a new context: nothing cached
            page.set_default_timeout(60000)
            start = time.perf_counter()
            page.goto(f"{base}/playground/?listing={listing}")
            page.wait_for_selector(".cm-content")
            editor = time.perf_counter() - start
            clicked = time.perf_counter()
            page.click(".pg-run")
            page.wait_for_selector("[data-playground][data-python='ready']")
            ready = time.perf_counter() - clicked
            page.wait_for_selector("[data-playground][data-runs='1']")
            result = time.perf_counter() - clicked
            rows.append((editor, ready, result))
            if page.outside:
                print("requests to outside the site:", page.outside)
            page.context.close()
    print_runs(f"playground, cold cache, listing {listing}", ["page -> editor ready", "Run -> Python ready", "Run -> first result"], rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a built site to serve instead of building one")
    args = parser.parse_args()
    if args.site:
        measure(args.site, args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        measure(Path(tmp), args.runs)


if __name__ == "__main__":
    main()
