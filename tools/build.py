"""Build the book: the data step, then both languages at once, in two processes (the two cores).

    python tools/build.py              # site/ (Chinese) and site/en/ (English), as `make build`
    python tools/build.py --lang en    # one language only (into site/en/)
    python tools/build.py -d /tmp/out  # somewhere else

First the figures and the widgets' data that the caches miss are computed (bookbuild/data.py,
`make data`), with a line per job. Then each language is built by its own ``mkdocs build
--strict`` into a fresh folder next to the target, and the folders are moved into place only when
both succeeded, so a failed build never leaves half a site. Every build is a fresh process:
nothing imported by an earlier build (an old attnkit, an old hook) can reach it. tools/serve.py
forks its builds here too (:func:`build_or_explain`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"zh": ROOT / "mkdocs.yml", "en": ROOT / "mkdocs.en.yml"}
LANGS = ("zh", "en")


def _load(lang: str, site_dir: str, quiet: bool = True):
    """The config, loaded as ``mkdocs build --strict`` loads it, the plugins started."""
    import logging

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    # This repository's attnkit, not whichever one the environment finds first (an editable
    # install may point at another clone): what `python -m mkdocs` in ROOT does with its cwd.
    sys.path.insert(0, str(ROOT))
    from mkdocs.config import load_config

    logging.basicConfig(format=f"[{lang}] %(levelname)-7s -  %(message)s")
    logging.getLogger("jieba").setLevel(logging.WARNING)
    logging.getLogger("mkdocs").setLevel(logging.WARNING if quiet else logging.INFO)
    config = load_config(config_file=str(CONFIGS[lang]), site_dir=site_dir, strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    return config


def build_or_explain(lang: str, site_dir: str) -> None:
    """Build one language into ``site_dir`` in this process (the body of ``mkdocs build``), for
    tools/serve.py: a failed build prints MkDocs' message and exits with 1."""
    os.setpgrp()   # its own process group: serve stops the build with everything it started
    _explained(lambda: _load(lang, site_dir), lang, site_dir)


def _explained(load, lang: str, site_dir: str) -> None:
    """Build the config ``load()`` returns, timed (:func:`_timed`), and shut its plugins down; a
    failure prints MkDocs' message (as the `mkdocs` command does) and exits with 1, instead of a
    Python traceback."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    def run():
        config = load()
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()

    try:
        _timed(run, lang, site_dir)
    except MkDocsException as error:
        print(f"[{lang}] {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None


def _timed(run, lang: str, site_dir: str) -> None:
    """``run()`` (a build), then the CPU seconds this process took (with the notebook kernels it
    waited for) written to
    ``<site_dir>.cpu`` for tools/serve.py's log: on a shared machine the wall time says more
    about the neighbours than about the build."""
    try:
        profile = os.environ.get("BOOK_PROFILE")   # a folder: write a cProfile of each build there
        if profile:
            import cProfile

            Path(profile).mkdir(parents=True, exist_ok=True)
            cProfile.runctx("run()", globals(), {"run": run},
                            str(Path(profile) / f"{lang}-{Path(site_dir).name}-{os.getpid()}.prof"))
        else:
            run()
    finally:
        t = os.times()
        Path(f"{site_dir}.cpu").write_text(f"{t.user + t.system + t.children_user + t.children_system:.2f}")


def command(lang: str, site_dir: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(CONFIGS[lang]), "-d", str(site_dir)]


def shown(output: str, quiet: bool) -> list[str]:
    """MkDocs' messages worth reading: warnings and errors with their details (its INFO lines
    only when ``quiet`` is false). Not `mkdocs -q`: that hides the warnings --strict fails on."""
    lines, keep = [], not quiet
    for line in output.rstrip().splitlines():
        if re.match(r"(INFO|DEBUG)\b", line):
            keep = not quiet
        elif re.match(r"(WARNING|ERROR|CRITICAL)\b", line) or not line.startswith(" "):
            keep = True
        if keep and not (quiet and re.match(r"(Building prefix dict|Loading model|Prefix dict)", line)):
            lines.append(line)
    return lines


def build(langs=LANGS, target: Path = ROOT / "site", quiet: bool = True) -> dict[str, float]:
    """Build ``langs`` in parallel into ``target`` (zh at target/, en at target/en/ or, when
    only en is built, at target/en/). Returns the seconds each language took."""
    target = Path(target).resolve()
    sys.path.insert(0, str(ROOT))
    from bookbuild import data

    try:
        data.make(langs, workers=os.cpu_count(), log=lambda line: print(line, flush=True))
    except RuntimeError as error:
        raise SystemExit(f"build failed: {error}") from None
    staging = target.with_name(f".{target.name}.building")
    shutil.rmtree(staging, ignore_errors=True)
    # BOOK_BUILDS_AT_ONCE: each language's figure workers take their share of the cores
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOK_BUILDS_AT_ONCE=str(len(langs)))
    # One BLAS thread per process: the languages and their figure workers already run in parallel
    # on every core, and BLAS threads on top of them fight for the same cores (chapter 12's
    # training took 2.5 s a step instead of 0.33 s at a load of 25). A caller's setting wins.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(name, "1")
    started, jobs = {}, {}
    for lang in langs:
        started[lang] = time.perf_counter()
        jobs[lang] = subprocess.Popen(command(lang, staging / lang), cwd=ROOT, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds, outputs, failed = {}, {}, []

    def wait(lang):   # each in its own thread: a language's time ends when it does, not when the other does
        outputs[lang], _ = jobs[lang].communicate()
        seconds[lang] = time.perf_counter() - started[lang]

    waiting = [threading.Thread(target=wait, args=(lang,)) for lang in jobs]
    for thread in waiting:
        thread.start()
    for thread in waiting:
        thread.join()
    for lang, job in jobs.items():
        print("".join(f"[{lang}] {line}\n" for line in shown(outputs[lang], quiet)), end="", flush=True)
        if job.returncode != 0:
            failed.append(lang)
    if failed:
        shutil.rmtree(staging, ignore_errors=True)
        raise SystemExit(f"build failed: {', '.join(failed)} (see the messages above)")
    if "zh" in langs:
        shutil.rmtree(target, ignore_errors=True)
        (staging / "zh").replace(target)
    else:
        target.mkdir(parents=True, exist_ok=True)
    if "en" in langs:
        shutil.rmtree(target / "en", ignore_errors=True)
        (staging / "en").replace(target / "en")
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
