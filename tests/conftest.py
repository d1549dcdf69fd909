"""Sort the tests into the fast check and the rest, by what each test actually uses.

* ``site``: reads the built site (``SITE``, ``built_page``) — run ``make build`` first;
* ``browser``: drives Chromium (``launch``, ``serve_site``, or a fixture that does);
* ``pdf``: reads the PDFs — run ``make pdf`` first;
* ``build`` / ``serve`` (set by hand in tests/test_build.py): build or serve a copy of the
  repository (minutes);
* ``slow`` (set by hand): needs no site, but minutes of CPU (every figure drawn again, the labs
  run as scripts).

A test gets a marker when its function, a fixture it requests, or a helper of its module that
it calls (followed through the module's own functions) names one of those things. So a new
test is sorted without anyone remembering to mark it. ``make check`` runs the rest:
``pytest -m "not site and not browser and not pdf and not slow and not build and not serve"``
(the Makefile's ``check`` target).
"""

from __future__ import annotations

import inspect
import sys
import types
from pathlib import Path

import pytest

# tools/ on the path: tests/test_build.py imports tools/build.py, the program it tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

USES = {
    "site": {"SITE", "built_page"},
    "browser": {"launch", "serve_site"},
    "pdf": {"pdf_path", "pdf_text"},
}


def _names(fn, module_globals: dict, seen: set) -> set[str]:
    """Global names a function refers to, followed through the functions of its own module."""
    code = getattr(fn, "__code__", None)
    if code is None or code in seen:
        return set()
    seen.add(code)
    names: set[str] = set()
    todo = [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    for name in list(names):
        value = inspect.unwrap(module_globals.get(name)) if callable(module_globals.get(name)) else None
        if isinstance(value, types.FunctionType) and value.__module__ == module_globals.get("__name__"):
            names |= _names(value, module_globals, seen)
    return names


def pytest_addoption(parser):
    parser.addoption(
        "--pages", default="", metavar="PARTS",
        help="the whole-book browser sweeps (test_pages, the dark axe sweep, the phone-width check) visit "
             "only the pages whose URL path contains one of these comma-separated parts, e.g. "
             "--pages ch9/kv-cache,tour; checks that need the whole book are then skipped")


@pytest.fixture
def only_pages(pytestconfig) -> list[str]:
    """The parts given with ``--pages`` (empty: every page)."""
    return [part.strip() for part in pytestconfig.getoption("--pages").split(",") if part.strip()]


def pytest_collection_modifyitems(config, items):
    for item in items:
        fn = getattr(item, "function", None)
        if fn is None:
            continue
        module_globals = fn.__globals__
        names = _names(fn, module_globals, set())
        for name in item.fixturenames:   # this module's fixtures and its test module's (pytest's own are neither)
            func = inspect.unwrap(module_globals.get(name) or globals().get(name) or (lambda: None))
            if getattr(func, "__module__", "").startswith(("test_", "conftest")):
                names |= _names(func, func.__globals__, set())
        marked = {m.name for m in item.iter_markers()}
        for marker, uses in USES.items():
            if names & uses and marker not in marked:
                item.add_marker(getattr(pytest.mark, marker))
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    first_the_longest(items, workers)


# About how long one test of each sort takes, in seconds (full runs at load 3-6): serving or
# building a copy of the book, minutes; a browser test that sweeps pages of the book (it calls
# test_axe.swept: tests/test_pages.py, test_anchors.py, the dark and touch scans), a minute or
# two; a slow test or another browser test, seconds; the rest, milliseconds.
SECONDS = {"serve": 180, "build": 30, "sweep": 60, "slow": 3, "browser": 3}


def first_the_longest(items: list, workers: int) -> None:
    """Order the tests so that pytest-xdist's workers end together. ``make test`` runs one worker
    per core with ``--dist worksteal``: worker i starts on the i-th of ``workers`` equal slices of
    the list and, when it runs out, takes tests still waiting at the end of another's slice. A
    test of minutes that starts last runs alone to the end (in a full run both page sweeps of
    tests/test_pages.py did, for 2 minutes). So the files with long tests are dealt out, the
    longest first, each to the slice with the least estimated time (SECONDS), at its start; the
    files of short tests fill each slice to its size after them. A file's tests stay together
    and in order."""
    def seconds(item) -> float:
        fn = getattr(item, "function", None)
        sorts = {m.name for m in item.iter_markers()}
        if fn is not None and "swept" in _names(fn, fn.__globals__, set()):
            sorts.add("sweep")
        return max([SECONDS.get(name, 0) for name in sorts] + [0.05])

    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    cost = {name: sum(map(seconds, tests)) for name, tests in files.items()}
    long = sorted((name for name in files if cost[name] > 30), key=lambda name: -cost[name])
    slices, load = [[] for _ in range(workers)], [0.0] * workers
    for name in long:
        i = load.index(min(load))
        slices[i] += files[name]
        load[i] += cost[name]
    short = [item for name, tests in files.items() if name not in long for item in tests]
    ordered, left = [], len(items)
    for i, own in enumerate(slices):   # as xdist deals: each slice is len(pending) // workers left
        size = left // (workers - i)
        take = max(0, size - len(own))
        ordered += own + short[:take]
        short = short[take:]
        left -= size
    items[:] = ordered + short
