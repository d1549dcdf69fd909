"""The playground's helper inside Pyodide: runs the reader's code and draws attention weights.

    show(weights, tokens=None, keys=None, title=None)

draws ``weights`` as a heatmap under the output: a (n_q, n_k) matrix, a (n,) row, or a stack
(h, n_q, n_k) of heads. ``tokens`` labels the rows (the queries) and, unless ``keys`` is given,
the columns too. ``show`` is already defined in the playground; ``from playground import show``
also works. If the last line of the code is an expression whose value is such an array of
numbers, it is drawn the same way; any other value is printed, as in a Python console.
"""

from __future__ import annotations

import ast
import linecache
import sys
import traceback

import numpy as np

FILENAME = "main.py"
MAX_CELLS = 64
_emit = None


def show(weights, tokens=None, keys=None, title=None):
    """Draw attention weights as a heatmap: (n_k,), (n_q, n_k) or (h, n_q, n_k)."""
    w = np.asarray(weights, dtype=float)
    if w.ndim == 1:
        w = w[None, :]                                   # (n_k,) -> (1, n_k)
    if w.ndim == 2:
        w = w[None]                                      # (n_q, n_k) -> (1, n_q, n_k)
    if w.ndim != 3:
        raise ValueError(f"show() draws 1-D, 2-D or 3-D (heads, n_q, n_k) arrays; got shape {np.shape(weights)}")
    h, n_q, n_k = w.shape
    if max(n_q, n_k) > MAX_CELLS or h > 16:
        raise ValueError(f"show() draws at most 16 heads of {MAX_CELLS}x{MAX_CELLS}; got shape {w.shape}")
    if not np.isfinite(w).all():
        raise ValueError("show() needs finite numbers (no nan or inf)")
    rows = _labels(tokens, n_q, "tokens")
    cols = _labels(keys if keys is not None else (tokens if n_q == n_k or n_q == 1 else None), n_k, "keys")
    if n_q == 1 and tokens is not None and keys is None and len(rows) == n_k:
        rows = [""]
    sys.stdout.flush()
    _emit("heatmap", {"weights": w.tolist(), "rows": rows, "cols": cols, "title": "" if title is None else str(title)})


def _labels(names, n, what):
    if names is None:
        return [str(i) for i in range(n)]
    names = [str(x) for x in names]
    if len(names) != n and not (what == "tokens" and n == 1):
        raise ValueError(f"show(): {len(names)} {what} for {n} rows/columns of weights")
    return names if len(names) == n else [""]


def _looks_like_weights(value) -> bool:
    if not isinstance(value, np.ndarray) or value.ndim not in (2, 3) or value.size == 0:
        return False
    return np.issubdtype(value.dtype, np.number) and max(value.shape[-2:]) <= MAX_CELLS


NO_INPUT = {
    "zh": "这里没有键盘输入：input() 在网页里的 Python 用不了。请直接在代码里写上这个值，例如 name = \"小猫\"。",
    "en": "There is no keyboard input here: input() does not work in the browser's Python. "
          "Write the value into the code instead, for example name = \"kitten\".",
}


class InputNotAvailable(RuntimeError):
    """Raised by input() in the playground."""

    __module__ = "builtins"  # shown as "InputNotAvailable: ...", without this module's name


def _no_input(lang: str):
    def input(prompt=""):  # noqa: A001  (the reader's input())
        raise InputNotAvailable(NO_INPUT.get(lang, NO_INPUT["en"]))

    return input


def _run(code: str, emit, lang: str = "en") -> int:
    """Run the reader's code in fresh globals; 0 if it finished, 1 if it raised."""
    global _emit
    _emit = emit
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
    namespace = {"__name__": "__main__", "__file__": FILENAME, "show": show, "input": _no_input(lang)}
    try:
        tree = ast.parse(code, FILENAME)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, FILENAME, "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), FILENAME, "eval"), namespace)
            if _looks_like_weights(value):
                show(value)
            elif value is not None:
                print(repr(value))
        return 0
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: report, keep the worker alive
        sys.stdout.flush()
        _report(error)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def _report(error: BaseException) -> None:
    """A traceback of the reader's code only (the playground's own frames left out)."""
    if isinstance(error, SyntaxError) and error.filename == FILENAME:
        # Only the reader's line and the caret: the frames of ast.py / compile() mean nothing to them.
        text = "".join(traceback.format_exception_only(type(error), error))
        _emit("error", {"text": text, "name": type(error).__name__})
        return
    here = __file__
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != here]
    text = "".join(["Traceback (most recent call last):\n", *traceback.format_list(frames)]) if frames else ""
    text += "".join(traceback.format_exception_only(type(error), error))
    _emit("error", {"text": text, "name": type(error).__name__})


def _versions() -> dict:
    import attnkit  # noqa: F401  (fails loudly here if the site's attnkit is missing)

    return {"python": sys.version.split()[0], "numpy": np.__version__}


EXERCISES = "/book/exercises"
_BASELINE = []   # [the snapshot every check is compared with], taken by _baseline() at start-up


def _baseline() -> None:
    """Import what the exercises import (attnkit's modules, read from their files, not run) and
    take the snapshot of this Python that every check is compared with: the worker calls this once,
    when it has started and before any reader's code has run (attnkit.guard)."""
    import glob
    from importlib import import_module

    from attnkit.guard import Snapshot

    modules = {"attnkit.exercise"}
    for path in glob.glob(EXERCISES + "/ch*/*.py"):
        with open(path, encoding="utf-8") as file:
            tree = ast.parse(file.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("attnkit"):
                modules.add(node.module)
            elif isinstance(node, ast.Import):
                modules.update(a.name for a in node.names if a.name.startswith("attnkit"))
    for module in sorted(modules):
        import_module(module)
    _BASELINE[:] = [Snapshot(volatile={__name__: {"_emit"}})]


def check_exercise(path: str, source: str, lang: str) -> None:
    """Check the reader's ``source`` against the exercise in ``path`` (under /book, from attnkit.zip)
    with attnkit.exercise.check, and send the result to the page as an "exercise" message.

    If this Python is no longer the one that started (an earlier run changed builtins, NumPy or
    attnkit), nothing is checked: the message asks the page to restart Python and check again.
    The result names what the reader's own code changed (``tampered``): the page then restarts
    Python, so that nothing of it reaches the next check or listing."""
    import runpy

    from attnkit.exercise import check

    baseline = _BASELINE[0] if _BASELINE else None
    changed = baseline.changes() if baseline is not None else []
    if changed:
        _emit("exercise", {"restart": True, "changed": [str(c) for c in changed[:8]]})
        return
    exercise = runpy.run_path(path)["EXERCISE"]
    result = check(exercise, source, lang, baseline=baseline)
    _emit("exercise", {"passed": result.passed, "message": result.message, "case": result.case,
                       "printed": result.printed, "kind": result.kind, "tampered": list(result.tampered)})
