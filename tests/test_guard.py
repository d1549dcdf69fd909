"""attnkit.guard: a snapshot of what code can change in Python by name notices each kind of change,
puts it back, and sees nothing after the ordinary work of the book's code (no false alarm would
let the page keep restarting its Python)."""

from __future__ import annotations

import builtins
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import attnkit
import attnkit.core
import attnkit.exercise
import attnkit.kv_bytes
from attnkit.guard import Change, Snapshot

EXERCISES = sorted(str(p) for p in (Path(__file__).resolve().parents[1] / "exercises").glob("ch*/*.py"))


def _names(changes) -> list:
    return [str(c) for c in changes]


ORDINARY_WORK = """
import runpy, sys, warnings
import numpy as np
import attnkit.exercise
from attnkit.guard import Snapshot
exercises = sys.argv[1:]
for path in exercises:                                     # the exercises' imports, before the snapshot
    runpy.run_path(path)
before = Snapshot()
import fractions  # a module imported after the snapshot is not a change
np.fft.fft([1.0, 2.0])
np.linalg.norm([3.0, 4.0])
with np.errstate(all="ignore"):
    np.log(np.zeros(2))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("caught")
for path in exercises:
    ex = runpy.run_path(path)["EXERCISE"]
    attnkit.exercise.check(ex, ex.solution, "en", baseline=before)
    for wrong in ex.wrong.values():
        result = attnkit.exercise.check(ex, wrong.source, "zh", baseline=before)
        assert not result.tampered, (path, result.tampered)
print(before.changes())
"""


def test_ordinary_work_changes_nothing_it_watches():
    """Importing more modules, NumPy's work, warnings caught and checks of every exercise (right,
    wrong, library answers) leave the snapshot as it was. In a fresh interpreter, as the page's
    Python and the grader's processes are: this test process holds every module the other tests
    loaded (torch among them), and walking them all made this test take two minutes."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", ORDINARY_WORK, *EXERCISES], cwd=root, capture_output=True, text=True,
                          timeout=600, env={**__import__("os").environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-2000:]


@pytest.mark.parametrize("change, name", [
    (lambda: delattr(builtins, "len"), "builtins.len (deleted)"),
    (lambda: setattr(builtins, "stray", 1), "builtins.stray (added)"),
    (lambda: setattr(np, "allclose", lambda *a, **k: True), "numpy.allclose (replaced)"),
    (lambda: setattr(attnkit.core.softmax, "__code__", (lambda x, axis=-1, mask=None: x).__code__),
     "attnkit.core.softmax.__code__ (changed)"),
    (lambda: setattr(attnkit.exercise.Case, "__post_init__", lambda self: None),
     "attnkit.exercise.Case.__post_init__ (replaced)"),
    (lambda: attnkit.kv_bytes.MODELS.pop("llama-3-8b"), "attnkit.kv_bytes.MODELS (changed)"),
    (lambda: sys.path.append("/nowhere"), "sys.path (changed)"),
    (lambda: sys.setrecursionlimit(321), "sys.setrecursionlimit (changed)"),
    (lambda: np.seterr(all="raise"), "np.seterr (changed)"),
    (lambda: np.set_printoptions(precision=1), "np.set_printoptions (changed)"),
    (lambda: warnings.simplefilter("error"), "warnings.filters (changed)"),
    (lambda: sys.modules.__setitem__("numpy", attnkit), "sys.modules['numpy'] (replaced)"),
])
def test_each_change_is_named_and_put_back(change, name):
    before = Snapshot()
    real = (len, np.allclose, attnkit.core.softmax.__code__, sys.getrecursionlimit(), list(sys.path))
    change()
    found = before.changes()
    assert name in _names(found), _names(found)
    assert all(isinstance(c, Change) for c in found)
    before.restore()
    assert before.changes() == []
    assert (len, np.allclose, attnkit.core.softmax.__code__, sys.getrecursionlimit(), list(sys.path)) == real
    assert attnkit.exercise.check(attnkit.exercise.Exercise(
        id="demo", title={"zh": "一", "en": "one"}, function="f", starter="", solution="def f(x):\n    return x\n",
        cases=[attnkit.exercise.Case(args=(np.array([1.0]),), expected=np.array([1.0]),
                                     about={"zh": "一", "en": "one"}, hint={"zh": "一", "en": "one"})],
        wrong={"w": ("def f(x):\n    return x + 1\n", 0)}), "def f(x):\n    return x\n", "en").passed


def test_volatile_names_are_neither_compared_nor_put_back():
    module = sys.modules[__name__]
    module.SCRATCH = 1
    before = Snapshot(volatile={__name__: {"SCRATCH"}})
    module.SCRATCH = 2
    assert before.changes() == []
    before.restore()
    assert module.SCRATCH == 2


def test_builtins_copy_is_the_real_builtins_even_after_they_were_deleted():
    before = Snapshot()
    real_len = builtins.len
    del builtins.len
    try:
        assert before.builtins()["len"] is real_len
        assert "len" not in vars(builtins)
        assert _names(before.changes()) == ["builtins.len (deleted)"]
    finally:
        before.restore()
    assert builtins.len is real_len
