"""Build the book: the data step, then both languages at once, each in a fresh process (the two cores).

    python tools/build.py              # site/ (Chinese) and site/en/ (English), as `make build`
    python tools/build.py --lang en    # one language only (into site/en/)
    python tools/build.py -d /tmp/out  # somewhere else

Each language is one ``mkdocs build --strict`` (:func:`build_one`, which tools/serve.py forks too) in
a fresh process, so nothing an earlier build imported (an old attnkit, an old hook) reaches it, into a
folder next to the target, moved into place only when both succeeded: never half a site.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import logging
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
    """For the builds started from now on: each language's data workers take their share of the cores
    (BOOK_BUILDS_AT_ONCE), and one BLAS thread per process, as the processes already fill the cores (more:
    chapter 12's training took 2.5 s a step instead of 0.33 s). A caller's BLAS setting wins."""
    os.environ.update(NO_MKDOCS_2_WARNING="1", BOOK_BUILDS_AT_ONCE=str(builds))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _load(lang: str, site_dir: str, quiet: bool = True):
    """The config, loaded as ``mkdocs build --strict`` loads it, the plugins started; MkDocs'
    messages prefixed with the language (its INFO lines only when ``quiet`` is false)."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    sys.path.insert(0, str(ROOT))   # this repository's attnkit, not an editable install's (another clone)
    from mkdocs.config import load_config

    logging.basicConfig(format=f"[{lang}] %(levelname)-7s -  %(message)s")
    with contextlib.suppress(ImportError):   # jieba's logger says DEBUG once imported (by Material's search)
        import jieba

        jieba.setLogLevel(logging.WARNING)
    logging.getLogger("mkdocs").setLevel(logging.WARNING if quiet else logging.INFO)
    config = load_config(config_file=str(CONFIGS[lang]), site_dir=site_dir, strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    return config


def build_one(lang: str, site_dir: str, quiet: bool = True, group: bool = False) -> None:
    """Build one language into ``site_dir`` in this process (``mkdocs build``'s body); a failure prints
    MkDocs' message and exits with 1. ``group``: in a process group of its own (serve stops it with all it
    started). Its CPU seconds, its kernels' too, go to ``<site_dir>.cpu`` for serve's log; BOOK_PROFILE=<folder>
    writes a cProfile of it there."""
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
        Path(site_dir).parent.mkdir(parents=True, exist_ok=True)   # a build that failed at once made none
        Path(f"{site_dir}.cpu").write_text(f"{t.user + t.system + t.children_user + t.children_system:.2f}")


def build(langs=LANGS, target: Path = ROOT / "site", quiet: bool = True) -> dict[str, float]:
    """Build ``langs`` in parallel into ``target`` (zh at target/, en at target/en/); the seconds of each."""
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
    if "en" not in langs and (target / "en").is_dir():   # --lang zh: the English book stays
        (target / "en").replace(staging / "zh" / "en")
    for lang in sorted(langs, reverse=True):   # zh (replacing target/) before en (target/en/)
        shutil.rmtree(target / "en" if lang == "en" else target, ignore_errors=True)
        (staging / lang).replace(target / "en" if lang == "en" else target)
    shutil.rmtree(staging, ignore_errors=True)
    return seconds


def copy_repo(dest: Path, caches: bool) -> Path:
    """The working tree (tracked and untracked, not ignored) copied to ``dest`` for tests and benchmarks that
    edit sources, node_modules and the downloaded Pyodide linked; ``caches``: the build caches copied too."""
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
