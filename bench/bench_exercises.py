"""Print how long a reader waits when checking an exercise, and what a chapter page fetches.
Figures, not assertions (each with the load average: this machine is shared).

    python bench/bench_exercises.py [--runs 3] [--site site]

Serves a built site (``make build`` first, or --site) and, for each run, in a fresh browser
context (empty cache) on the Chinese book:

* first check: 3.3's softmax exercise, Check pressed -> result shown (Python starts: Pyodide,
  NumPy, attnkit and the exercises loaded in the shared worker);
* second check on another page: 3.6's attention exercise, reached by the site's instant
  navigation (the same Python) -> result shown;
* check after Stop: a loop that never ends is stopped after 3 s, then a right answer is checked
  (by the spare Python that started loading once the loop had run for 1 s: overrides/assets/widgets/python.js);
* bytes fetched by a first visit of 3.3 before any check, and how many of them are the exercise
  widget's own files; 3.2 (a chapter page without an exercise) for comparison.

Then the time the test suite spends on the exercises in CPython (tests/test_exercises.py,
without the browser test).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from benchlib import first_visit, load, print_runs  # noqa: E402
from bookbuild.browser import launch, serve_site  # noqa: E402

SOFTMAX = "import numpy as np\n\ndef softmax(x):\n    e = np.exp(x - np.max(x))\n    return e / np.sum(e)\n"
LOOP = "def softmax(x):\n    while True:\n        pass\n"


def _check(page, exercise_id, source):
    w = page.locator(f'[data-exercise="{exercise_id}"]')
    w.locator("textarea").fill(source)
    started = time.perf_counter()
    w.locator('[data-action="check"]').click()
    page.wait_for_function(
        "id => !['checking', 'idle'].includes(document.querySelector(`[data-exercise='${id}'] .ex-status`).dataset.state)",
        arg=exercise_id)
    return time.perf_counter() - started


EXERCISE_FILES = ("/assets/widgets/exercise.js", "/assets/widgets/python.js", "/data/widgets/exercises.json",
                  "/assets/widgets/exercise-progress.js")
EXERCISE_PARTS = "/data/widgets/exercises/"    # one exercise's data (bookbuild/widgets.py PARTS)


def first_visit_bytes(browser, base, path) -> tuple[int, int]:
    """(all bytes, the exercise widget's own files) fetched by a first visit, widgets mounted."""
    page, fetched = first_visit(browser, base + path)
    page.context.close()
    return sum(n for _, n in fetched), sum(n for url, n in fetched if url.endswith(EXERCISE_FILES) or EXERCISE_PARTS in url)


def measure(site: Path, runs: int) -> None:
    rows = []
    with serve_site(site) as base, launch() as browser:
        for _ in range(runs):
            page = browser.new_page()
            page.set_default_timeout(180_000)
            page.goto(base + "/ch3/softmax/")
            page.locator('[data-exercise="ch3-softmax"] [data-action="check"]').wait_for()
            first = _check(page, "ch3-softmax", SOFTMAX)
            page.follow(base + "/ch3/pipeline/")
            page.locator('[data-exercise="ch3-attention"] [data-action="check"]').wait_for()
            solution = page.evaluate("() => fetch('../../data/widgets/exercises.json').then(r => r.json())")
            second = _check(page, "ch3-attention", solution["exercises"]["ch3-attention"]["solution"])
            w = page.locator('[data-exercise="ch3-attention"]')
            w.locator("textarea").fill(LOOP.replace("softmax(x)", "attention(q, k, v)"))
            w.locator('[data-action="check"]').click()
            page.wait_for_timeout(3000)        # a reader sees it hang for a few seconds, then presses Stop
            w.locator('[data-action="stop"]').click()
            page.wait_for_function("() => document.querySelector(`[data-exercise='ch3-attention'] .ex-status`).dataset.state === 'stopped'")
            after_stop = _check(page, "ch3-attention", solution["exercises"]["ch3-attention"]["solution"])
            rows.append((first, second, after_stop))
            if page.outside:
                print("requests to outside the site:", page.outside)
            page.context.close()
        weights = {path: first_visit_bytes(browser, base, path) for path in ("/ch3/softmax/", "/ch3/dot-product/")}
    print_runs("exercises, cold cache", ["first check (Python starts)", "second check, other page", "check after Stop"], rows)
    for path, (size, own) in weights.items():
        print(f"  first visit of {path:20s} {size / 1024:7.1f} KB fetched, of which the exercise widget's "
              f"files {own / 1024:.1f} KB (uncompressed bodies; Pyodide is fetched only by a check)")


def ci_time() -> None:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_exercises.py",
                    "-m", "not browser and not site"], cwd=ROOT, check=True, capture_output=True)
    print(f"  tests/test_exercises.py in CPython (no browser): {time.perf_counter() - started:.1f} s, {load()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    args = parser.parse_args()
    measure(args.site, args.runs)
    ci_time()


if __name__ == "__main__":
    main()
