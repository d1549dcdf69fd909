"""Print what chapter 12 (a tiny GPT on real text) costs: BPE training, model training per
language in CPython, the build with and without its memo, the weights a page loads, and the
browser's sampling speed. Figures, not assertions.

    python bench/bench_text.py [--site site] [--no-browser] [--no-cold]

* BPE: attnkit.bpe.train_bpe on each book up to its alphabet + 1000 merges (what 12.1 measures).
* Training: attnkit.realtext.TextTrainer with the book's settings (MODEL), wall and CPU seconds.
* Build, cold: attnkit.realtext.report(lang) in a fresh interpreter with an empty memo (BOOK_CACHE
  in a temporary folder): training + the numbers of the pages + the samples. Warm: the same call
  through bookbuild.bookcache.memo with the memo the build wrote (a disk read).
* Weights: the size of data/widgets/sample-text.bin (and its JSON) in each language of a built site.
* Browser: 12.3 in headless Chromium; time from pressing "Sample" (weights cached) to the text.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# One BLAS thread, as tools/build.py gives the build (set before NumPy is imported).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from benchlib import load  # noqa: E402

from attnkit import bpe, realtext  # noqa: E402


def timed(fn, *args, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def bench_bpe() -> None:
    for lang in ("zh", "en"):
        text = realtext.corpus(lang)
        size = len(bpe.char_vocab(text)) + realtext.MERGES[-1]
        _, wall, cpu = timed(bpe.train_bpe, text, size)
        print(f"BPE {lang}: {len(text)} characters -> vocabulary {size}: {wall:.2f} s wall, {cpu:.2f} s CPU   [{load()}]")


def bench_training() -> None:
    steps = realtext.MODEL["steps"]
    for lang in ("zh", "en"):
        trainer = realtext.TextTrainer(realtext.corpus(lang))
        _, wall, cpu = timed(trainer.run)
        print(f"training {lang}: {steps} steps in {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"({1000 * cpu / steps:.1f} ms CPU per step)   [{load()}]")


COLD = r"""
import sys, time
sys.path.insert(0, ".")
wall, cpu = time.perf_counter(), time.process_time()
from bookbuild.bookcache import memo
from attnkit import realtext
memo(realtext.report, sys.argv[1])
print(f"{time.perf_counter() - wall:.1f} {time.process_time() - cpu:.1f}")
"""


def bench_build() -> None:
    for lang in ("zh", "en"):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", COLD, lang], cwd=ROOT, capture_output=True, text=True,
                                 env={**os.environ, "BOOK_CACHE": cache}, check=True).stdout.split()
        print(f"build {lang}, cold (empty memo): {out[0]} s wall, {out[1]} s CPU   [{load()}]")
        out = subprocess.run([sys.executable, "-c", COLD, lang], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
        print(f"build {lang}, warm (the build's memo): {out[0]} s wall, {out[1]} s CPU   [{load()}]")


def bench_weights(site: Path) -> None:
    for lang, prefix in (("zh", site), ("en", site / "en")):
        b, j = prefix / "data/widgets/sample-text.bin", prefix / "data/widgets/sample-text.json"
        if not b.is_file():
            print(f"weights {lang}: {b} missing (make build first)")
            continue
        import gzip
        print(f"weights {lang}: {b.stat().st_size / 1024:.0f} KB (gzip {len(gzip.compress(b.read_bytes())) / 1024:.0f} KB), "
              f"JSON {j.stat().st_size / 1024:.0f} KB")


def bench_browser(site: Path) -> None:
    from bookbuild.browser import launch, serve_site

    with serve_site(site) as base, launch() as b:
        for lang, path in (("zh", "/ch12/decoding/"), ("en", "/en/ch12/decoding/")):
            page = b.new_page()
            page.goto(base + path)
            w = "[data-widget='sample-text']"
            page.wait_for_selector(f"{w}[data-mounted='yes']")
            times = []
            for i in range(3):
                page.evaluate("() => { delete document.querySelector(\"[data-widget='sample-text']\").dataset.sampled; }")
                start = time.perf_counter()
                page.click(f"{w} [data-action='sample']")
                page.wait_for_selector(f"{w}[data-sampled]", timeout=120_000)
                times.append(time.perf_counter() - start)
            n = realtext.SAMPLE_LENGTH[lang]
            print(f"browser {lang}: {n} characters, first press {times[0]:.2f} s (weights downloaded), "
                  f"then {min(times[1:]):.2f} s ({n / min(times[1:]):.0f} characters/s)   [{load()}]")
            page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold builds (minutes of CPU)")
    args = parser.parse_args()
    bench_bpe()
    bench_training()
    if not args.no_cold:
        bench_build()
    bench_weights(args.site)
    if not args.no_browser:
        bench_browser(args.site)


if __name__ == "__main__":
    main()
