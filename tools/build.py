"""Build the book: the data step, then both languages at once, each in a fresh process (the two cores).

    python tools/build.py              # site/ (Chinese) and site/en/ (English), as `make build`
    python tools/build.py --lang en    # one language only (into site/en/)
    python tools/build.py -d /tmp/out  # somewhere else

First the figures and the widgets' data that the caches miss are computed (bookbuild/data.py,
`make data`), with a line per job. Then each language is one ``mkdocs build --strict``
(:func:`build_one`) in a fresh process, so nothing imported by an earlier build (an old attnkit,
an old hook) can reach it, into a folder next to the target; the folders are moved into place
only when both succeeded, so a failed build never leaves half a site. tools/serve.py forks its
builds from :func:`build_one` too.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"zh": ROOT / "mkdocs.yml", "en": ROOT / "mkdocs.en.yml"}
LANGS = ("zh", "en")


def set_environment(builds: int) -> None:
    """For the build processes started from now on: each language's figure workers take their share
    of the cores (BOOK_BUILDS_AT_ONCE), and one BLAS thread per process, as the languages and their
    workers already run on every core and BLAS threads on top fight for them (chapter 12's training
    took 2.5 s a step instead of 0.33 s at a load of 25). A caller's BLAS setting wins."""
    os.environ.update(NO_MKDOCS_2_WARNING="1", BOOK_BUILDS_AT_ONCE=str(builds))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _load(lang: str, site_dir: str, quiet: bool = True):
    """The config, loaded as ``mkdocs build --strict`` loads it, the plugins started; MkDocs'
    messages prefixed with the language (its INFO lines only when ``quiet`` is false)."""
    import logging

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    # This repository's attnkit, not whichever one the environment finds first (an editable
    # install may point at another clone): what `python -m mkdocs` in ROOT does with its cwd.
    sys.path.insert(0, str(ROOT))
    from mkdocs.config import load_config

    logging.basicConfig(format=f"[{lang}] %(levelname)-7s -  %(message)s")
    try:   # jieba's logger says DEBUG when it is imported (by Material's search): quiet it first
        import jieba

        jieba.setLogLevel(logging.WARNING)
    except ImportError:
        pass
    logging.getLogger("mkdocs").setLevel(logging.WARNING if quiet else logging.INFO)
    config = load_config(config_file=str(CONFIGS[lang]), site_dir=site_dir, strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    return config


def build_one(lang: str, site_dir: str, quiet: bool = True, group: bool = False) -> None:
    """Build one language into ``site_dir`` in this process (the body of ``mkdocs build``): a failure
    prints MkDocs' message, as the `mkdocs` command does, and exits with 1. ``group``: in a process
    group of its own, so that tools/serve.py stops it with everything it started. The CPU seconds it
    took, with the notebook kernels it waited for, go to ``<site_dir>.cpu`` for serve's log (on a
    shared machine the wall time says more about the neighbours); BOOK_PROFILE=<folder> writes a
    cProfile of it there."""
    import cProfile

    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    if group:
        os.setpgrp()
    os.chdir(ROOT)   # pymdownx.snippets reads snippets/ from the working directory
    profile = os.environ.get("BOOK_PROFILE")
    try:
        with cProfile.Profile() if profile else contextlib.nullcontext() as profiler:
            config = _load(lang, site_dir, quiet)
            try:
                build(config)
            finally:
                config.plugins.on_shutdown()
    except MkDocsException as error:
        print(f"[{lang}] {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    finally:
        if profile:
            Path(profile).mkdir(parents=True, exist_ok=True)
            profiler.dump_stats(Path(profile) / f"{lang}-{Path(site_dir).name}-{os.getpid()}.prof")
        t = os.times()
        Path(f"{site_dir}.cpu").write_text(f"{t.user + t.system + t.children_user + t.children_system:.2f}")


def build(langs=LANGS, target: Path = ROOT / "site", quiet: bool = True) -> dict[str, float]:
    """Build ``langs`` in parallel into ``target`` (zh at target/, en at target/en/). Returns the
    seconds each language took."""
    target = Path(target).resolve()
    sys.path.insert(0, str(ROOT))
    from bookbuild import data

    try:
        data.make(langs, workers=os.cpu_count(), log=lambda line: print(line, flush=True))
    except RuntimeError as error:
        raise SystemExit(f"build failed: {error}") from None
    staging = target.with_name(f".{target.name}.building")
    shutil.rmtree(staging, ignore_errors=True)
    set_environment(len(langs))
    start, seconds = time.perf_counter(), {}
    spawn = multiprocessing.get_context("spawn")
    jobs = {lang: spawn.Process(target=build_one, args=(lang, str(staging / lang), quiet)) for lang in langs}
    for job in jobs.values():
        job.start()
    waiting = {job.sentinel: lang for lang, job in jobs.items()}
    while waiting:   # a language's time ends when it does, not when the other does
        for lang in map(waiting.pop, wait(list(waiting))):
            jobs[lang].join()
            seconds[lang] = time.perf_counter() - start
    failed = [lang for lang, job in jobs.items() if job.exitcode != 0]
    if failed:
        shutil.rmtree(staging, ignore_errors=True)
        raise SystemExit(f"build failed: {', '.join(failed)} (see the messages above)")
    target.mkdir(parents=True, exist_ok=True)
    for lang in sorted(langs, reverse=True):   # zh (replacing target/) before en (target/en/)
        shutil.rmtree(target / "en" if lang == "en" else target, ignore_errors=True)
        (staging / lang).replace(target / "en" if lang == "en" else target)
    shutil.rmtree(staging, ignore_errors=True)
    return seconds


def copy_repo(dest: Path, caches: bool) -> Path:
    """The working tree (tracked and untracked, not ignored) copied to ``dest``, with node_modules
    and the downloaded Pyodide linked; ``caches`` copies the content-keyed build caches too.
    For tests and benchmarks that edit sources (tests/test_build.py, bench/bench.py)."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    (dest / ".cache").mkdir()
    (dest / ".cache" / "pyodide").symlink_to(ROOT / ".cache" / "pyodide")
    if caches:   # every cache but the downloads (linked above)
        for path in sorted((ROOT / ".cache").iterdir()) if (ROOT / ".cache").is_dir() else []:
            if path.is_dir() and path.name != "pyodide":
                shutil.copytree(path, dest / ".cache" / path.name)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", choices=[*LANGS, "both"], default="both")
    parser.add_argument("-d", "--site-dir", default=str(ROOT / "site"))
    parser.add_argument("-v", "--verbose", action="store_true", help="show MkDocs' INFO messages")
    args = parser.parse_args()
    langs = LANGS if args.lang == "both" else (args.lang,)
    start = time.perf_counter()
    seconds = build(langs, Path(args.site_dir), quiet=not args.verbose)
    each = ", ".join(f"{lang} {s:.1f} s" for lang, s in seconds.items())
    print(f"built {args.site_dir} in {time.perf_counter() - start:.1f} s ({each})")


if __name__ == "__main__":
    main()
