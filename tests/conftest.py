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
        info = getattr(item, "_fixtureinfo", None)
        for fixture in (info.name2fixturedefs if info else {}).values():
            func = getattr(fixture[-1], "func", None)
            if func is not None and getattr(func, "__module__", "").startswith(("test_", "conftest")):
                names |= _names(func, getattr(func, "__globals__", {}), set())
        marked = {m.name for m in item.iter_markers()}
        for marker, uses in USES.items():
            if names & uses and marker not in marked:
                item.add_marker(getattr(pytest.mark, marker))
    first_the_longest(items)


# What a test's markers say of its length: serving or building a copy of the book takes minutes,
# so does a slow test, and a browser test that sweeps pages of the book (it calls test_axe.swept:
# tests/test_pages.py, test_anchors.py, the dark and touch scans, about a minute or two each); a
# browser test takes seconds; the rest, milliseconds.
LENGTH = {"serve": 5, "build": 4, "slow": 3, "sweep": 2, "browser": 1}


def first_the_longest(items: list) -> None:
    """Put the files with the longest tests first (by their markers: LENGTH), keeping each file's
    tests together and in order. ``make test`` runs two pytest-xdist workers with ``--dist
    worksteal``: each starts on one half of the list and takes tests still waiting in the other's
    when it runs out. A test of minutes started last kept one worker busy alone to the end (the
    serve test, about 4 minutes, sat in the middle of the list); started first, the other
    worker's short tests fill the time beside it."""
    def length(item) -> int:
        fn = getattr(item, "function", None)
        sweeps = fn is not None and "swept" in _names(fn, fn.__globals__, set())
        return max([LENGTH.get(m.name, 0) for m in item.iter_markers()] + [LENGTH["sweep"] if sweeps else 0])

    files: dict[str, int] = {}
    for item in items:
        name = item.nodeid.split("::")[0]
        files[name] = max(files.get(name, 0), length(item))
    items.sort(key=lambda item: -files[item.nodeid.split("::")[0]])   # stable: each file in its order
