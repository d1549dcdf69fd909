"""Print how fast the tiny GPT of chapter 8 trains, in CPython and in the browser (Pyodide), and
what chapter 8 costs a build. Figures, not assertions.

    python bench/bench_tinygpt.py [--runs 3] [--site site] [--no-browser]

* CPython: steps per second of attnkit.training.Trainer on the book's configuration (BOOK).
* Browser: serves a built site (--site, default site/; build it first with `make build`), opens
  8.5 in headless Chromium with an empty cache, presses Start and times Start -> first losses
  (Pyodide + NumPy + attnkit loaded, the first steps done), Start -> trained (BOOK["steps"]
  steps), and the steps per second in between.
* Build: what chapter 8 adds to one language's build, each part in a fresh interpreter:
  "cold" = train + the numbers of the prose + the widget's data + the listings + drawing the
  chapter's figures; "warm" = the same with the figures cached on disk (the build's figure
  cache), so only the training (once per build, memoised) and the rest remain.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from benchlib import load, print_runs  # noqa: E402

from attnkit import training  # noqa: E402


def cpython(runs: int) -> None:
    config = {k: v for k, v in training.BOOK.items() if k != "steps"}
    steps = training.BOOK["steps"]
    rates = []
    for _ in range(runs):
        trainer = training.Trainer(**config)
        start = time.perf_counter()
        trainer.run(steps)
        rates.append(steps / (time.perf_counter() - start))
    print(f"CPython: {statistics.median(rates):6.1f} steps/s (median of {runs}; "
          f"{min(rates):.1f}-{max(rates):.1f}), {steps} steps in {steps / statistics.median(rates):.2f} s   [{load()}]")


BUILD_PART = r"""
import contextlib, io, sys, time
sys.path.insert(0, ".")   # the repository: bookbuild
t0 = time.perf_counter()
from attnkit import copy_results
from attnkit.figures import render_svg
from bookbuild import listings, widgets as w
t1 = time.perf_counter()
copy_results.report()
for lang in ("zh",):
    w.train_gpt_data(lang)
for name in ("loss", "causal", "train", "generate"):
    code = listings.for_language(open(f"snippets/ch8/{name}.py", encoding="utf-8").read(), "zh")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, name, "exec"), {"__name__": "__main__"})
t2 = time.perf_counter()
if sys.argv[1] == "cold":
    for fig in ("ch8-loss", "ch8-attention", "ch8-train"):
        render_svg(fig, "zh")
t3 = time.perf_counter()
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {t3 - t2:.2f}")
"""


def build_cost() -> None:
    for kind in ("cold", "warm"):
        out = subprocess.run([sys.executable, "-c", BUILD_PART, kind], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
        imports, compute, figures = map(float, out)
        extra = f", figures {figures:.2f} s" if kind == "cold" else " (figures cached)"
        print(f"chapter 8 in one language's build, {kind}: {compute + figures:.2f} s "
              f"(training, prose numbers, widget data and listings {compute:.2f} s{extra}; "
              f"imports {imports:.2f} s, shared with the rest of the build)   [{load()}]")


def browser(site: Path, runs: int) -> None:
    from bookbuild.browser import launch, serve_site

    steps = training.BOOK["steps"]
    rows = []
    with serve_site(site) as base, launch() as b:
        for _ in range(runs):
            page = b.new_page()                         # a new context: nothing cached
            page.set_default_timeout(600_000)
            page.goto(base + "/en/ch8/train-in-browser/")
            page.wait_for_selector("[data-widget='train-gpt'][data-mounted='yes']")
            start = time.perf_counter()
            page.click("[data-widget='train-gpt'] [data-action='start']")
            page.wait_for_function("() => Number(document.querySelector(\"[data-widget='train-gpt']\").dataset.step) > 0")
            first = time.perf_counter()
            first_step = int(page.get_attribute("[data-widget='train-gpt']", "data-step"))
            page.wait_for_selector("[data-widget='train-gpt'] .gpt-status[data-state='done']")
            done = time.perf_counter()
            rows.append((first - start, done - start, (steps - first_step) / (done - first)))
            if page.outside or page.errors:
                print("outside requests:", page.outside, "errors:", page.errors)
            page.context.close()
    print_runs("browser (Pyodide)", ["Start -> first losses (Python ready)", f"Start -> trained ({steps} steps)"], rows)
    rates = [r[2] for r in rows]
    print(f"browser (Pyodide): {statistics.median(rates):6.1f} steps/s (median of {runs})   [{load()}]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    cpython(args.runs)
    build_cost()
    if not args.no_browser:
        if not (args.site / "en" / "ch8" / "train-in-browser" / "index.html").exists():
            print(f"browser: skipped, {args.site} has no built chapter 8 (run `make build` first)")
        else:
            browser(args.site, args.runs)


if __name__ == "__main__":
    main()
