"""Print what chapter 11's two-layer tiny GPT costs: training time in CPython, its cost to a build
with and without the memo, and the size of the replay data the page loads. Figures, not assertions.

    python bench/bench_induction.py [--site site]

* Training: attnkit.induction.train_induction on the book's configuration (INDUCTION), in a fresh
  interpreter, with its steps per second.
* Build: attnkit.induction.report() and both languages' replay data, in a fresh interpreter with
  an empty memo store ("without the memo": the training runs), then again in a second fresh
  interpreter on that store ("with the memo": the training is read back, the measurements of the
  report still run). This is what a cold build adds for chapter 11 apart from drawing its figures.
* Payload: the bytes of data/widgets/induction-replay.json per language (from --site if it was
  built, else computed), raw and gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchlib import load  # noqa: E402


TRAIN = r"""
import time
from attnkit import induction
t = time.perf_counter()
run = induction.train_induction()
s = time.perf_counter() - t
steps = induction.INDUCTION["steps"]
print(f"{s:.2f} {steps / s:.1f}")
"""

BUILD = r"""
import sys, time
sys.path.insert(0, ".")
t = time.perf_counter()
from bookbuild import bookcache
bookcache.memoize(("attnkit.induction.train_induction",))
from bookbuild import widgets
from attnkit import induction
induction.report()
for lang in ("zh", "en"):
    widgets.induction_replay_data(lang)
print(f"{time.perf_counter() - t:.2f}")
"""


def fresh(code: str, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={**os.environ, **(env or {})})
    return out.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", default="site")
    args = parser.parse_args()
    from attnkit import induction

    seconds, rate = fresh(TRAIN).split()
    print(f"chapter 11 training: {induction.INDUCTION['steps']} steps in {float(seconds):.1f} s "
          f"({float(rate):.0f} steps/s) in CPython   [{load()}]")

    with tempfile.TemporaryDirectory() as cache:
        env = {"BOOK_CACHE": cache}
        cold = float(fresh(BUILD, env))
        warm = float(fresh(BUILD, env))
    print(f"chapter 11 build cost (report + replay data, both languages): without the memo {cold:.1f} s, "
          f"with it {warm:.1f} s   [{load()}]")

    for lang in ("zh", "en"):
        built = Path(args.site) / ("" if lang == "zh" else "en") / "data/widgets/induction-replay.json"
        if built.exists():
            data = built.read_bytes()
            where = str(built)
        else:
            from bookbuild import widgets
            data = json.dumps(widgets.induction_replay_data(lang), ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8")
            where = "computed"
        print(f"replay data ({lang}): {len(data) / 1024:.1f} KiB, {len(gzip.compress(data)) / 1024:.1f} KiB gzipped ({where})")


if __name__ == "__main__":
    main()
