"""The book's data, computed before MkDocs runs: every figure (SVG) and every widget's data
(JSON), in each language, into their content-keyed caches (bookbuild/bookcache.py). `make data`
(tools/data.py) runs it; `make build`, `make serve` and `make test` run it first, so MkDocs only
copies what is there. The hooks call it too (figures.py, widgets.py): `mkdocs build` alone still
works, it just computes this first.

The work is what is missing from the caches: training runs (chapters 4, 8, 11 and 12, memoized
in .cache/memo/ and shared by both languages), then the figures that draw from them. It runs in
fresh worker processes (never in the process that asks: an edited attnkit is always imported
anew), one per core, each taking the next job from one list, and prints a line per job with a
count and the seconds it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .bookcache import MEMOIZED, python, write_atomically

LANGS = ("zh", "en")


def jobs(langs=LANGS) -> list[tuple[str, str, str, str]]:
    """Every (kind, language, name, cache path) of ``langs`` that is not in the caches yet: first
    the widgets whose data trains a model (widgets.TRAINED, each language's in turn, so that two
    workers train two models, not one model twice), then the other widgets, then the figures
    (which find the training runs in the memo)."""
    from . import figures, widgets

    def first(job):
        return widgets.TRAINED.index(job[2]) if job[2] in widgets.TRAINED else len(widgets.TRAINED)

    todo = [("widget", lang, name, str(path)) for name in widgets.cache_paths(langs[0]) for lang in langs
            if not (path := widgets.cache_paths(lang)[name]).is_file()]
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
    with tempfile.TemporaryDirectory(prefix="book-data-") as folder:
        spec = Path(folder) / "jobs.json"
        spec.write_text(json.dumps({"jobs": todo, "memoized": MEMOIZED}))
        env = dict(os.environ)
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env.setdefault(name, "1")   # one BLAS thread per worker: the workers already share the cores
        code = f"from bookbuild import data; data.work({str(spec)!r})"
        procs = [subprocess.Popen(python(code), stdout=subprocess.PIPE, text=True, env=env) for _ in range(n)]
        done, errors, lock = [0], [], threading.Lock()

        def follow(proc):
            for line in proc.stdout:
                kind, lang, name, seconds, *error = line.rstrip("\n").split("\t")
                with lock:
                    done[0] += 1
                    if error:
                        errors.append(f"{kind} {name!r} ({lang}): {error[0]}")
                    log(f"data [{done[0]:>3}/{len(todo)}] {kind} {name} ({lang}) {float(seconds):.1f} s"
                        + (" FAILED" if error else ""))

        threads = [threading.Thread(target=follow, args=(p,)) for p in procs]
        for t in threads:
            t.start()
        for t, p in zip(threads, procs):
            t.join()
            p.wait()
    if errors or any(p.returncode for p in procs):
        raise RuntimeError("data: " + ("; ".join(errors) or f"a worker exited with {[p.returncode for p in procs]}"))
    return len(todo)


def ensure(lang: str, log) -> None:
    """For the hooks: compute what ``lang`` misses now; a failure stops the build with its message."""
    from mkdocs.exceptions import PluginError

    try:
        make((lang,), log=log)
    except RuntimeError as error:
        raise PluginError(str(error)) from None


def work(jobs_file: str) -> None:
    """A worker: compute the jobs of ``jobs_file`` that no other worker claimed (a claim is a file
    made with O_EXCL), each into its cache path; print one tab-separated line per job."""
    from . import bookcache

    folder, spec = Path(jobs_file).parent, json.loads(Path(jobs_file).read_text())
    bookcache.memoize(spec["memoized"])   # the training runs and measurements: computed once, shared
    for i, (kind, lang, name, path) in enumerate(spec["jobs"]):
        try:
            os.close(os.open(folder / f"{i}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        start = time.perf_counter()
        try:
            if kind == "figure":
                from attnkit.figures import render_svg

                data = render_svg(name, lang)
            else:
                from . import widgets

                data = widgets.compute(name, lang)
        except Exception as error:
            message = f"{type(error).__name__}: {error}".replace("\t", " ").replace("\n", " ")
            print(f"{kind}\t{lang}\t{name}\t{time.perf_counter() - start:.2f}\t{message}", flush=True)
            sys.exit(1)
        write_atomically(Path(path), data)
        print(f"{kind}\t{lang}\t{name}\t{time.perf_counter() - start:.2f}", flush=True)


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

