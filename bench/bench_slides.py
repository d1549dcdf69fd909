"""Print what the chapters' slides cost the build and the site (issue 34): figures, not assertions,
each with the load average (this machine is shared).

    python bench/bench_slides.py [--site site] [--runs 1] [--lang zh --lang en]

* Build time. Each language is built by MkDocs in this process, as tools/build.py builds it (the
  same config and plugins, into a temporary folder; the data step's outputs and the caches are
  the ones the last build left, so run it after a build: ``make bench`` does). A small plugin added
  to the config times every page with MkDocs' public events, first and last of each
  (``event_priority``): from ``on_pre_page`` to the end of ``on_page_content`` (reading, macros,
  Markdown, every hook: for a deck, its listings, figures and the cutting into slides), and from
  ``on_page_context`` to the end of ``on_post_page`` (the template, trimming, minifying). It
  prints the whole build, all pages, the decks (``chN/slides.md``) with their share, and the
  slowest deck. What the build does once for all pages (the security policy's hashes, the own
  CSS and JS minified, the vendored files copied: ``on_post_build``) counts in the whole build only.
* Size. In the built site (``--site``): each language's decks' HTML (raw and gzip -6) and slide
  count, and what only the decks load: reveal.js and its stylesheet, the slides' own CSS and JS.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

# One BLAS thread, as tools/build.py gives the build (set before NumPy is imported).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))             # the repository, for bookbuild (not installed)
sys.path.insert(0, str(ROOT / "tools"))   # tools/build.py: the config as the build loads it
from benchlib import load  # noqa: E402

DECK = re.compile(r"^ch(\d+)/slides\.md$")
FIRST, LAST = 10_000, -10_000   # before every plugin and hook of the book, after every one


class PageTimer:
    """A plugin that records, for every page, the seconds of its two passes through MkDocs:
    ``populate`` (on_pre_page .. on_page_content) and ``render`` (on_page_context .. on_post_page)."""

    def __init__(self):
        from mkdocs.plugins import event_priority

        self.seconds: dict[str, dict[str, float]] = {}   # src_uri -> {"populate": s, "render": s}
        started: dict[tuple[str, str], float] = {}

        def start(phase):
            def on_event(item, page=None, **kwargs):
                page = page if page is not None else item      # on_pre_page's item is the page
                started[(page.file.src_uri, phase)] = time.perf_counter()
                return item
            return event_priority(FIRST)(on_event)

        def stop(phase):
            def on_event(item, page, **kwargs):
                began = started.pop((page.file.src_uri, phase))
                self.seconds.setdefault(page.file.src_uri, {})[phase] = time.perf_counter() - began
                return item
            return event_priority(LAST)(on_event)

        self.on_pre_page = start("populate")
        self.on_page_content = stop("populate")
        self.on_page_context = start("render")
        self.on_post_page = stop("render")


def build_once(lang: str) -> tuple[float, dict[str, dict[str, float]]]:
    """Build ``lang`` into a temporary folder; the build's wall seconds and each page's."""
    from build import _load   # tools/build.py
    from mkdocs.commands.build import build

    timer = PageTimer()
    with tempfile.TemporaryDirectory(prefix="bench-slides-") as site_dir:
        config = _load(lang, site_dir)
        # added as mkdocs.yml's `hooks:` adds a file: a plugin after the plugins, counted among the
        # hooks (print-site checks that it is the last plugin before them)
        config.hooks["bench-page-timer"] = timer
        config.plugins["bench-page-timer"] = timer
        began = time.perf_counter()
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
        return time.perf_counter() - began, timer.seconds


def bench_build(lang: str, runs: int) -> None:
    rows, slowest = [], []
    for _ in range(runs):
        total, pages = build_once(lang)
        decks = {uri: times for uri, times in pages.items() if DECK.match(uri)}
        every = sum(sum(t.values()) for t in pages.values())
        rows.append((total, every, sum(sum(t.values()) for t in decks.values()),
                     sum(t.get("populate", 0) for t in decks.values()), sum(t.get("render", 0) for t in decks.values())))
        slowest.append(max(decks.items(), key=lambda item: sum(item[1].values())))
    labels = ["MkDocs build", f"its {len(pages)} pages", f"the {len(decks)} decks",
              "  macros, Markdown, hooks", "  template, trim, minify"]
    median = [statistics.median(row[i] for row in rows) for i in range(len(labels))]
    print(f"slides in the {lang} build, {runs} run{'s' * (runs > 1)} (median; min-max), {load()}:")
    width = max(map(len, labels))
    for i, label in enumerate(labels):
        values = [row[i] for row in rows]
        share = f"  {100 * median[i] / median[1]:4.1f} % of the pages' time" if i >= 2 else ""
        print(f"  {label:{width}s} {median[i]:6.2f} s  ({min(values):.2f}-{max(values):.2f}){share}")
    uri, times = slowest[-1]
    print(f"  slowest deck (last run): {uri}, {sum(times.values()):.2f} s")


def kb(n: int) -> str:
    return f"{n / 1000:.1f} kB"


def bench_size(site: Path) -> None:
    print(f"slides in the built site {site}:")
    for lang, prefix in (("zh", site), ("en", site / "en")):
        decks = sorted(prefix.glob("ch*/slides/index.html"), key=lambda p: int(p.parent.parent.name[2:]))
        if not decks:
            print(f"  {lang}: no decks (build the site first)")
            continue
        raw = [p.read_bytes() for p in decks]
        slides = sum(text.count(b"<section data-slide=") for text in raw)
        sizes = [len(b) for b in raw]
        largest = max(range(len(decks)), key=lambda i: sizes[i])
        print(f"  {lang}: {len(decks)} decks, {slides} slides, HTML {kb(sum(sizes))} "
              f"(gzip {kb(sum(len(gzip.compress(b, 6)) for b in raw))}); "
              f"largest {decks[largest].parent.parent.name} {kb(sizes[largest])}")
    assets = [site / "assets/vendor/reveal/reveal.js", site / "assets/vendor/reveal/reveal.css",
              site / "assets/slides/slides.js", site / "assets/slides/slides.css"]
    for path in assets:
        if path.exists():
            data = path.read_bytes()
            print(f"  {path.relative_to(site)}: {kb(len(data))} (gzip {kb(len(gzip.compress(data, 6)))})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="site", help="a built site, for the sizes (default: site)")
    parser.add_argument("--runs", type=int, default=1, help="builds per language (default 1: about a minute each)")
    parser.add_argument("--lang", action="append", choices=("zh", "en"), help="a language to build (default: both)")
    parser.add_argument("--no-build", action="store_true", help="print the sizes only")
    args = parser.parse_args()
    os.chdir(ROOT)
    if not args.no_build:
        for lang in args.lang or ("zh", "en"):
            bench_build(lang, max(1, args.runs))
    bench_size(ROOT / args.site)


if __name__ == "__main__":
    main()
