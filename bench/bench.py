"""The edit loop and the build, measured: figures, not assertions (`make bench`).

Works in a temporary copy of the repository (tools/build.py: copy_repo) and prints, each with the
load average beside it (the machine is shared; a figure means little without it):

* cold build (no caches) of each language alone and of both together, then a warm rebuild
  with nothing changed, each with the CPU seconds it used (its processes and all they started);
* the floor under a cold build: each language's figures drawn in one fresh process with
  nothing else to do, plus the warm rebuild's CPU, divided by the cores. No cold build of this
  book on this machine can be faster (it draws every figure and does the warm build's work);
* ``make serve``: time until the first page is served, then the time from saving an edit to the
  served page or figure showing it: a sentence (zh, en), a listing, a figure function;
* from a fresh clone (`git clone`, then `make serve`: its own .venv and node_modules, set up from
  the locks) to the first served page, with the setup's share;
* the test suite: the fast part (`make check`) and the browser part (with one pytest worker per
  core, as `make test`), against the copy's site and PDFs.

    python bench/bench.py            # everything
    python bench/bench.py --no-tests # skip the test suite part
    python bench/bench.py --reload   # only make serve's start and reloads, with this repository's caches
    python bench/bench.py --floor    # only the floor under a cold build (a warm rebuild, the figures alone)
    python bench/bench.py --fresh    # only a fresh clone's `make serve` to its first page

Beside each reload, the CPU seconds its build took after the change (from make serve's log): on
a shared machine the wall time measures the neighbours too.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))   # tools/build.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for bookbuild (not installed)
import build as book_build  # noqa: E402
from benchlib import load  # noqa: E402

TEST_TIMEOUT = 1800   # seconds per part: a bench that hangs says so and goes on
FAST = "not site and not browser and not pdf and not slow and not build and not serve"


def report(what: str, seconds: float, note: str = "") -> None:
    print(f"{what:44s} {seconds:7.1f} s   ({load()}){note}", flush=True)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def wait_for(url: str, changed, timeout: float = 300, failed=lambda: None) -> float:
    """Seconds until ``changed(body of url)``; stops early when ``failed()`` returns a reason."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        try:
            if changed(fetch(url)):
                return time.perf_counter() - start
        except OSError:
            pass
        reason = failed()
        if reason:
            raise SystemExit(f"bench: waiting for {url}: {reason}")
        time.sleep(0.05)
    raise SystemExit(f"bench: {url} did not change within {timeout} s")


def edit(path: Path, old: str | None, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")


def clean_caches(repo: Path) -> None:
    """What `make clean` leaves: every build cache of the copy removed, the downloads kept."""
    import shutil

    for path in (repo / ".cache").iterdir():
        if path.name != "pyodide":
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()


def children_cpu() -> float:
    """CPU seconds of every finished child process and what it waited for (figure workers, kernels)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(command: list[str], repo: Path, env: dict, label: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``command`` (in ``repo``), and its output; a failure ends the bench."""
    cpu, start = children_cpu(), time.perf_counter()
    result = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"bench: {label} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return seconds, cpu, result.stdout


def build(repo: Path, env: dict, label: str, *args: str) -> tuple[float, float]:
    seconds, cpu, _ = run_timed([sys.executable, "tools/build.py", *args], repo, env, label)
    report(label, seconds, f"  {cpu:.1f} CPU-s")
    return seconds, cpu


def builds(repo: Path, env: dict) -> None:
    """Each language cold on its own, both cold together (in parallel, as `make build`), then a
    warm rebuild of both with nothing changed, then the floor under the cold build."""
    for lang in ("zh", "en"):
        clean_caches(repo)
        build(repo, env, f"cold build, {lang} alone", "--lang", lang)
    clean_caches(repo)
    build(repo, env, "cold build, both languages (parallel)")
    _, warm_cpu = build(repo, env, "warm rebuild (nothing changed), both")
    floor(repo, env, warm_cpu)


FIGURES_ALONE = """
import sys, time
sys.path[:0] = [{root!r}]
import attnkit.figures as figures
from bookbuild import bookcache
bookcache.memoize(bookcache.MEMOIZED)
start = time.process_time()
for fig_id in sorted(figures.FIGURES):
    figures.render_svg(fig_id, {lang!r})
print(time.process_time() - start)
"""


def floor(repo: Path, env: dict, warm_cpu: float) -> None:
    """The least CPU a cold build does: every figure drawn (each language in one process, alone,
    the memoized computations done once, as in a build) and the warm rebuild's work; over the
    cores, the shortest cold build possible. The figures' part is matplotlib laying out and
    drawing 2 x 42 figures; the warm part is MkDocs and the hooks with every cache hit."""
    import shutil

    cache = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    try:
        drawn = {}
        for lang in ("zh", "en"):
            code = FIGURES_ALONE.format(root=str(repo), lang=lang)
            seconds, cpu, out = run_timed([sys.executable, "-c", code], repo, dict(env, BOOK_CACHE=str(cache)),
                                          f"figures alone ({lang})")
            drawn[lang] = cpu
            report(f"figures alone, {lang} (one process)", seconds, f"  {cpu:.1f} CPU-s ({float(out):.1f} drawing)")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    cores = os.cpu_count() or 1
    total = sum(drawn.values()) + warm_cpu
    report(f"floor: (figures + warm build) / {cores} cores", total / cores,
           f"  {sum(drawn.values()):.1f} + {warm_cpu:.1f} CPU-s: no cold build here can be faster")


def serve(repo: Path, env: dict, repeat: int = 1) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    log = repo / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "tools/serve.py", "--port", str(port)], cwd=repo, env=env,
                                  stdout=out, stderr=subprocess.STDOUT)

    def failed():
        """The server died, or a build failed: stop waiting and show why."""
        text = log.read_text(encoding="utf-8", errors="replace")
        if server.poll() is not None or "FAILED" in text:
            return f"make serve reported a failure:\n{text[-3000:]}"
        return None

    def wait(url, changed):
        return wait_for(url, changed, failed=failed)

    def cpu(lang: str) -> str:
        """The CPU seconds of the last build of ``lang`` (make serve's log), as a note."""
        import re

        found = re.findall(rf"serve: {lang}: built in [\d.]+ s \(([\d.?]+) s of CPU",
                           log.read_text(encoding="utf-8", errors="replace"))
        return f"   build CPU {found[-1]} s" if found else ""

    try:
        zh, en = f"{base}/ch3/softmax/", f"{base}/en/ch3/softmax/"
        wait(zh, lambda body: b"<html" in body)
        report("serve: first Chinese page served", time.perf_counter() - start)
        wait(en, lambda body: b"<html" in body)
        report("serve: first English page served", time.perf_counter() - start)
        stamp = str(int(time.time()))
        edit(repo / "docs/zh/ch3/softmax.md", None, f"\n这是一句新写的话{stamp}。\n")
        for n in range(repeat):
            time.sleep(1)   # the reader looks at the page
            edit(repo / "docs/zh/ch3/softmax.md", None, f"\n这是一句新写的话{stamp}{n}。\n")
            seconds = wait(zh, lambda b: f"新写的话{stamp}{n}".encode() in b)
            time.sleep(0.3)   # the log line is written just after the site is switched
            report("serve: sentence edit (zh) visible", seconds, cpu("zh"))
            time.sleep(1)
            edit(repo / "docs/en/ch3/softmax.md", None, f"\nA sentence written just now {stamp}{n}.\n")
            seconds = wait(en, lambda b: f"written just now {stamp}{n}".encode() in b)
            time.sleep(0.3)
            report("serve: sentence edit (en) visible", seconds, cpu("en"))
        edit(repo / "snippets/ch3/softmax_cake.py", None, f'print("edited {stamp}")\n')
        seconds = wait(zh, lambda b: f"edited {stamp}".encode() in b)
        time.sleep(0.3)
        report("serve: listing edit visible (zh page)", seconds, cpu("zh"))
        figure = f"{base}/figures/ch3-softmax-amplify.svg"
        before = fetch(figure)
        edit(repo / "attnkit/figures/ch3.py", '"① 原始得分"', '"① 原始的得分"')
        report("serve: figure function edit visible (zh)", wait(figure, lambda b: b != before))
    finally:
        server.terminate()
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            tail = log.read_text(encoding="utf-8", errors="replace")[-1500:]
            print(f"bench: make serve did not exit within 120 s of SIGTERM; killed. Its last output:\n{tail}", flush=True)
            server.kill()
            server.wait()


def fresh(env: dict) -> None:
    """A fresh clone of this repository's HEAD, `make serve` in it (setup from the locks, the
    data step, the first builds), timed to its first served page."""
    import shutil

    folder = Path(tempfile.mkdtemp(prefix="bench-fresh-"))
    try:
        root = Path(__file__).resolve().parents[1]
        subprocess.run(["git", "clone", "-q", str(root), str(folder / "clone")], check=True)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        log = folder / "serve.log"
        start = time.perf_counter()
        with open(log, "wb") as out:
            server = subprocess.Popen(["make", "serve", f"PORT={port}"], cwd=folder / "clone", env=env,
                                      stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            setup_done = None
            while time.perf_counter() - start < 1800:
                text = log.read_text(encoding="utf-8", errors="replace")
                if setup_done is None and "serve: serving" in text:
                    setup_done = time.perf_counter() - start
                if server.poll() is not None:
                    raise SystemExit(f"bench: make serve ended:\n{text[-3000:]}")
                try:
                    if b"<html" in fetch(f"http://127.0.0.1:{port}/ch3/softmax/") and setup_done:
                        break
                except OSError:
                    pass
                time.sleep(1)
            report("fresh clone: setup (make serve's setup-docs)", setup_done or float("nan"))
            report("fresh clone: first page served", time.perf_counter() - start,
                   f"  ({time.perf_counter() - start - (setup_done or 0):.0f} s after setup ended)")
        finally:
            os.killpg(server.pid, 15)
            server.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tests(repo: Path, env: dict) -> None:
    """The fast part as `make check` runs it, the browser part as `make test` runs it (one pytest
    worker per core), against the copy's site and PDFs (tests/test_subpath.py fetches them)."""
    start = time.perf_counter()
    for step in (["tools/build.py"], ["tools/pdf.py"]):
        result = subprocess.run([sys.executable, *step], cwd=repo, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"bench: {' '.join(step)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    report("tests: build + PDFs for the site tests", time.perf_counter() - start)
    parts = (("tests: fast part (make check)", ["-m", FAST]),
             ("tests: browser part (-m browser, -n auto)", ["-m", "browser", "-n", "auto", "--dist", "worksteal"]))
    for label, args in parts:
        start = time.perf_counter()
        try:
            result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                                    cwd=repo, env=env, capture_output=True, text=True, timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            report(f"{label}: did not finish within", TEST_TIMEOUT)
            continue
        lines = result.stdout.strip().splitlines() or ["?"]
        report(label, time.perf_counter() - start)
        for line in [line for line in lines if line.startswith(("FAILED", "ERROR"))] + lines[-1:]:
            print(f"    {line}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-tests", action="store_true", help="skip timing the test suite")
    parser.add_argument("--reload", action="store_true",
                        help="only make serve's start and its reloads (3 sentence edits per language), with a copy of this repository's caches")
    parser.add_argument("--fresh", action="store_true", help="only a fresh clone's `make serve` to its first page")
    parser.add_argument("--floor", action="store_true",
                        help="only the floor under a cold build: a warm rebuild (with a copy of this repository's caches) and the figures alone")
    args = parser.parse_args()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    print(f"bench: {os.cpu_count()} cores, {load()}", flush=True)
    if args.fresh:
        fresh(env)
        return
    with tempfile.TemporaryDirectory(prefix="book-bench-") as tmp:
        repo = book_build.copy_repo(Path(tmp) / "repo", caches=args.reload or args.floor)
        if args.reload:
            serve(repo, env, repeat=3)
            return
        if args.floor:
            build(repo, env, "build (caches copied), both")
            _, warm_cpu = build(repo, env, "warm rebuild (nothing changed), both")
            floor(repo, env, warm_cpu)
            return
        builds(repo, env)
        serve(repo, env)
        fresh(env)
        if not args.no_tests:
            tests(repo, env)


if __name__ == "__main__":
    main()
