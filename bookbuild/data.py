"""The book's data, computed before MkDocs runs (`make data`: ``python -m bookbuild.data [--lang en]``;
tools/build.py and tools/serve.py run it first, and the figure and widget hooks for anything missing, so
a plain `mkdocs build` still works): every figure (SVG) and widget's data (JSON) its cache misses, per
language, in a pool of fresh worker processes (an edited attnkit is always imported anew), one per core,
the training runs first (memoized in .cache/memo/, shared by both languages), a line per job with a count.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from .bookcache import MEMOIZED, ROOT, memoize, write_atomically

LANGS = ("zh", "en")


def jobs(langs=LANGS) -> list[tuple[str, str, str, str]]:
    """Every (kind, language, name, cache path) of ``langs`` missing from the caches: the widgets that
    train a model first (each language's in turn: two workers train two models, not one twice), then the
    other widgets, then the figures (which find the training runs in the memo)."""
    from . import figures, widgets

    paths = {lang: widgets.cache_paths(lang) for lang in langs}
    todo = sorted([("widget", lang, name, str(path)) for name in paths[langs[0]] for lang in langs
                   if not (path := paths[lang][name]).is_file()],
                  key=lambda job: (*widgets.TRAINED, job[2]).index(job[2]))   # TRAINED's order, then the others
    registry = figures.registry()
    return todo + [("figure", lang, fig_id, str(path)) for lang in langs
                   for fig_id, path in figures.cache_paths(lang, registry).items() if not path.is_file()]


def make(langs=LANGS, workers: int | None = None, log=print) -> int:
    """Compute what ``langs`` miss on ``workers`` processes (default: the cores, shared with the other
    languages' builds running at once: BOOK_BUILDS_AT_ONCE); the number of jobs done. A job that fails
    raises RuntimeError with its message."""
    todo = jobs(langs)
    if not todo:
        return 0
    cores = (os.cpu_count() or 1) // max(1, int(os.environ.get("BOOK_BUILDS_AT_ONCE") or 1))
    n = max(1, min(len(todo), workers or cores))
    widgets = sum(job[0] == "widget" for job in todo)
    log(f"data ({', '.join(langs)}): {widgets} widget files and {len(todo) - widgets} figures to compute "
        f"on {n} worker{'s' * (n > 1)} (the rest is cached)")
    errors = []
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker) as pool:
        futures = {pool.submit(compute, *job): job for job in todo}   # taken in this order
        for done, future in enumerate(as_completed(futures), 1):
            kind, lang, name, _ = futures[future]
            try:
                outcome = f"{future.result():.1f} s"
            except Exception as error:   # the job's, or the worker died
                errors.append(f"{kind} {name!r} ({lang}): {type(error).__name__}: {error}")
                outcome = "FAILED"
            log(f"data [{done:>3}/{len(todo)}] {kind} {name} ({lang}) {outcome}")
    if errors:
        raise RuntimeError("data: " + "; ".join(errors))
    return len(todo)


def ensure(lang: str, log) -> None:
    """For the hooks: compute what ``lang`` misses now; a failure stops the build with its message."""
    from mkdocs.exceptions import PluginError

    try:
        make((lang,), log=log)
    except RuntimeError as error:
        raise PluginError(str(error)) from None


def start_worker() -> None:
    """A worker's start: this repository's attnkit, one BLAS thread (the workers share the cores), the
    training runs and measurements memoized."""
    sys.path.insert(0, str(ROOT))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")   # before attnkit imports NumPy
    memoize(MEMOIZED)


def compute(kind: str, lang: str, name: str, path: str) -> float:
    """A worker's job: one figure or widget file into its cache path; the seconds it took."""
    start = time.perf_counter()
    if kind == "figure":
        from attnkit.figures import render_svg

        data = render_svg(name, lang)
    else:
        from . import widgets

        data = widgets.compute(name, lang)
    write_atomically(Path(path), data)
    return time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Compute the book's figures and widget data (make data).")
    parser.add_argument("--lang", choices=[*LANGS, "both"], default="both")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    n = make(LANGS if args.lang == "both" else (args.lang,), workers=os.cpu_count())
    print(f"data: {n} computed in {time.perf_counter() - start:.1f} s (load average {os.getloadavg()[0]:.2f})"
          if n else "data: all cached")


if __name__ == "__main__":
    main()
