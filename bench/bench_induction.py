"""Print what chapters 11 and 12's training costs: chapter 11's training time in CPython and in the
browser (Pyodide), the CPU seconds both chapters' training adds to a cold build, the same with the
memo, and the size of the data chapter 11's widget loads. Figures, not assertions.

    python bench/bench_induction.py [--site site] [--no-browser]

* CPython: attnkit.induction.train_induction on the book's configuration (INDUCTION), in a fresh
  interpreter with one BLAS thread (as tools/build.py runs the build), with its steps per second.
* Cold build: in a fresh interpreter with an empty memo store, everything chapter 11 and 12
  train or measure through the memo: induction.report (seed 0), seed_runs (the other seeds),
  diversity (the narrower ranges), both languages' widget data, and realtext.report for both
  books (chapter 12's models). The CPU seconds of that interpreter are what training adds to a
  cold build (the figures and pages then read the memo). Then again, in a second interpreter, on
  that store: "with the memo".
* Browser: serves a built site (--site), opens 11.2 in headless Chromium with an empty cache,
  presses "Train in your browser" and times the start (Pyodide, NumPy and attnkit loaded, the
  first chunk trained), the step the heads formed in the build's run, and the whole run, with
  the steps per second in between.
* Payload: data/widgets/induction-replay.json per language, raw and gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchlib import load  # noqa: E402

ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}

TRAIN = r"""
import sys, time
sys.path.insert(0, ".")
from attnkit import induction
w, c = time.perf_counter(), time.process_time()
run = induction.train_induction()
w, c = time.perf_counter() - w, time.process_time() - c
print(f"{w:.2f} {c:.2f} {induction.INDUCTION['steps'] / c:.1f}")
"""

BUILD = r"""
import sys, time
sys.path.insert(0, ".")
from bookbuild import bookcache
bookcache.memoize(bookcache.MEMOIZED)
from bookbuild import widgets
from attnkit import induction, realtext
parts = {}
for name, call in [("report", induction.report), ("seed_runs", induction.seed_runs),
                   ("diversity", induction.diversity),
                   ("widget", lambda: [widgets.induction_replay_data(lang) for lang in ("zh", "en")]),
                   ("ch12", lambda: [realtext.report(lang) for lang in ("en", "zh")])]:
    c = time.process_time()
    call()
    parts[name] = time.process_time() - c
print(" ".join(f"{k}={v:.1f}" for k, v in parts.items()), f"total={time.process_time():.1f}")
"""


def fresh(code: str, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={**os.environ, **ONE_THREAD, **(env or {})})
    return out.stdout.strip().splitlines()[-1]


def browser(site: Path) -> None:
    from attnkit import induction
    from bookbuild.browser import launch, serve_site

    widget = "[data-widget='induction-replay']"
    steps = induction.INDUCTION["steps"]
    formed = None
    with serve_site(site) as base, launch() as b:
        page = b.new_page(csp=True)
        page.goto(base + "/en/ch11/phase-change/")
        page.wait_for_selector(f"{widget}[data-mounted='yes']")
        start = time.perf_counter()
        page.click(f"{widget} [data-action='start']")
        first = induction.INDUCTION["every"]
        wait = lambda n: page.wait_for_function(   # noqa: E731
            f"() => Number(document.querySelector(\"{widget}\").dataset.liveStep) >= {n}", timeout=600_000)
        wait(first)
        loaded = time.perf_counter() - start
        formed = induction.report()["formed"]
        if formed:
            wait(formed)
            at_formed = time.perf_counter() - start
        wait(steps)
        done = time.perf_counter() - start
    rate = (steps - first) / (done - loaded)
    print(f"browser (headless Chromium, Pyodide): first {first} steps after {loaded:.1f} s (Python loaded), "
          + (f"step {formed} (the build's heads formed) after {at_formed:.1f} s, " if formed else "")
          + f"all {steps} after {done:.1f} s, {rate:.1f} steps/s   [{load()}]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", default="site")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    from attnkit import induction

    wall, cpu, rate = fresh(TRAIN).split()
    print(f"chapter 11 training, one run: {induction.INDUCTION['steps']} steps in {float(wall):.1f} s "
          f"({float(cpu):.1f} CPU s, {float(rate):.0f} steps per CPU second) in CPython   [{load()}]")

    with tempfile.TemporaryDirectory() as cache:
        env = {"BOOK_CACHE": cache}
        start = time.perf_counter()
        cold = fresh(BUILD, env)
        cold_wall = time.perf_counter() - start
        start = time.perf_counter()
        warm = fresh(BUILD, env)
        warm_wall = time.perf_counter() - start
    print(f"chapters 11 and 12 in a cold build, without the memo (CPU s): {cold}; wall {cold_wall:.1f} s   [{load()}]")
    print(f"the same with the memo (CPU s): {warm}; wall {warm_wall:.1f} s   [{load()}]")

    site = Path(args.site)
    if not args.no_browser:
        if (site / "en/ch11/phase-change/index.html").exists():
            browser(site)
        else:
            print(f"browser: skipped ({site}/en/ch11/phase-change/ not built; run tools/build.py first)")

    for lang in ("zh", "en"):
        built = site / ("" if lang == "zh" else "en") / "data/widgets/induction-replay.json"
        if built.exists():
            data, where = built.read_bytes(), str(built)
        else:
            from bookbuild import widgets
            data = json.dumps(widgets.induction_replay_data(lang), ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8")
            where = "computed"
        print(f"replay data ({lang}): {len(data) / 1024:.1f} KiB, {len(gzip.compress(data)) / 1024:.1f} KiB gzipped ({where})")


if __name__ == "__main__":
    main()
