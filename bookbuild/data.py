"""The book's data, computed before MkDocs runs: every figure (SVG) and every widget's data
(JSON), in each language, into their content-keyed caches (bookbuild/bookcache.py). `make data`
(``python -m bookbuild.data [--lang en]``) runs it; `make build`, `make serve` and `make test`
run it first, so MkDocs only copies what is there. The hooks call it too (figures.py,
widgets.py): `mkdocs build` alone still works, it just computes this first.

The work is what is missing from the caches: training runs (chapters 4, 8, 11 and 12, memoized
in .cache/memo/ and shared by both languages), then the figures that draw from them. It runs in
a pool of fresh worker processes (never in the process that asks: an edited attnkit is always
imported anew), one per core, and prints a line per job with a count and the seconds it took.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from .bookcache import MEMOIZED, ROOT, memoize, write_atomically

LANGS = ("zh", "en")


def jobs(langs=LANGS) -> list[tuple[str, str, str, str]]:
    """Every (kind, language, name, cache path) of ``langs`` that is not in the caches yet: first
    the widgets whose data trains a model (widgets.TRAINED, each language's in turn, so that two
    workers train two models, not one model twice), then the other widgets, then the figures
    (which find the training runs in the memo)."""
    from . import figures, widgets

    def first(job):
        return widgets.TRAINED.index(job[2]) if job[2] in widgets.TRAINED else len(widgets.TRAINED)

    paths = {lang: widgets.cache_paths(lang) for lang in langs}
    todo = [("widget", lang, name, str(path)) for name in paths[langs[0]] for lang in langs
            if not (path := paths[lang][name]).is_file()]
    todo.sort(key=first)
    registry = figures.registry()
    for lang in langs:
        for fig_id, path in figures.cache_paths(lang, registry).items():
            if not path.is_file():
                todo.append(("figure", lang, fig_id, str(path)))
    return todo


def make(langs=LANGS, workers: int | None = None, log=print) -> int:
    """Compute what ``langs`` miss, on ``workers`` processes (default: the cores, shared with the
    other languages' builds running at once: BOOK_BUILDS_AT_ONCE). Returns the number of jobs done;
    a job that fails raises RuntimeError with its message."""
    todo = jobs(langs)
    if not todo:
        return 0
    cores = (os.cpu_count() or 1) // max(1, int(os.environ.get("BOOK_BUILDS_AT_ONCE") or 1))
    n = max(1, min(len(todo), workers or cores))
    kinds = {kind: sum(job[0] == kind for job in todo) for kind in ("widget", "figure")}
    log(f"data ({', '.join(langs)}): {kinds['widget']} widget files and {kinds['figure']} figures to compute "
        f"on {n} worker{'s' * (n > 1)} (the rest is cached)")
    errors = []
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker) as pool:
        futures = {pool.submit(compute, *job): job for job in todo}   # taken in this order
        for done, future in enumerate(as_completed(futures), 1):
            kind, lang, name, _ = futures[future]
            try:
                seconds, error = future.result()
            except Exception as lost:   # the worker died
                seconds, error = 0.0, f"{type(lost).__name__}: {lost}"
            if error:
                errors.append(f"{kind} {name!r} ({lang}): {error}")
            log(f"data [{done:>3}/{len(todo)}] {kind} {name} ({lang}) {seconds:.1f} s" + (" FAILED" if error else ""))
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
    """A worker's start: this repository's attnkit, one BLAS thread (the workers already share the
    cores), the training runs and measurements memoized (computed once, shared)."""
    sys.path.insert(0, str(ROOT))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")   # before attnkit imports NumPy
    memoize(MEMOIZED)


def compute(kind: str, lang: str, name: str, path: str) -> tuple[float, str]:
    """A worker's job: one figure or widget file into its cache path; the seconds it took and the
    error, if any."""
    start = time.perf_counter()
    try:
        if kind == "figure":
            from attnkit.figures import render_svg

            data = render_svg(name, lang)
        else:
            from . import widgets

            data = widgets.compute(name, lang)
        write_atomically(Path(path), data)
    except Exception as error:
        return time.perf_counter() - start, f"{type(error).__name__}: {error}"
    return time.perf_counter() - start, ""


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Compute the book's figures and widget data (make data).")
    parser.add_argument("--lang", choices=[*LANGS, "both"], default="both")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    n = make(LANGS if args.lang == "both" else (args.lang,), workers=os.cpu_count())
    load = open("/proc/loadavg").read().split()[0] if Path("/proc/loadavg").is_file() else "?"
    print(f"data: {n} computed in {time.perf_counter() - start:.1f} s (load average {load})" if n else "data: all cached")


if __name__ == "__main__":
    main()

