"""Every program in tools/ and bench/ starts: `python tools/X.py --help` exits 0 from any directory.

The programs import bookbuild, which is not installed (pyproject installs attnkit only), so each
must put the repository on its path first; `make bench` once failed at its first import because
an edit moved that import above the path line, and no test ran the programs.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# tools/ and bench/ hold programs (the modules they share are in bookbuild/ and bench/benchlib.py;
# tools/serve_preload.py is what serve's forkserver imports); each must answer --help
PROGRAMS = sorted(p for p in (ROOT / "tools").glob("*.py") if p.name != "serve_preload.py") + sorted(
    p for p in (ROOT / "bench").glob("*.py") if p.name != "benchlib.py")


def test_the_tools_are_found():
    assert len(PROGRAMS) >= 14, [p.name for p in PROGRAMS]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_each_tool_answers_help(program, tmp_path):
    done = subprocess.run([sys.executable, str(program), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{program.name} --help failed:\n{done.stderr[-2000:]}"
    assert "usage" in done.stdout.lower(), f"{program.name} --help printed no usage:\n{done.stdout[:500]}"


def test_every_module_serve_preloads_exists():
    """tools/serve.py's forkserver imports PRELOAD once before it forks a build, and Python's
    forkserver skips a name that fails to import without a word: the builds would then import
    it themselves, slower, and nothing would say so. Each name must be found as the forkserver
    looks (``python -c`` in the repository: Python 3.11's forkserver ignores the caller's sys.path
    and its "__main__" preload, which once left every build reading jieba's dictionary again, 0.6 s);
    none is attnkit or bookbuild (every build imports those anew)."""
    import json

    import serve

    assert not [name for name in serve.PRELOAD if name.startswith(("attnkit", "bookbuild")) or name == "__main__"]
    assert serve.PRELOAD[-1] == "tools.serve_preload", "jieba's dictionary and gc.freeze come after every import"
    code = f"import importlib.util, json; print(json.dumps([n for n in {serve.PRELOAD!r} if importlib.util.find_spec(n) is None]))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    missing = json.loads(done.stdout)
    assert not missing, f"serve's forkserver would not find these PRELOAD modules: {missing}"


def test_the_bench_table_prints_median_and_range(capsys):
    """bench/benchlib.py's print_runs, which bench_playground, bench_listings, bench_exercises and
    bench_tinygpt print their timed runs with: its docstring's example, and the load average."""
    import doctest

    sys.path.insert(0, str(ROOT / "bench"))
    import benchlib as bench

    result = doctest.testmod(bench)
    assert result.attempted == 1 and result.failed == 0, result
    bench.print_runs("t", ["a"], [(3.0,), (1.0,), (2.0,)])
    out = capsys.readouterr().out
    assert "load average" in out.splitlines()[0] and "  a   2.00 s  (1.00-3.00)" in out, out
