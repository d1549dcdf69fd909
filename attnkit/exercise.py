"""Check a reader's own code against an exercise, with feedback in the reader's language.

An exercise asks the reader to write one function (``softmax``, ``causal_mask``, ...). It is one
source for both books (``exercises/chN/<stem>.py`` holds an :class:`Exercise`): the code the editor
starts with, a reference solution, the cases the page lists, a generator of more cases the page
does not list (drawn from a seed), the book's own functions the reader may not call, and the
plausible wrong solutions each check must catch. The expected value of every case is computed by
attnkit, never typed.

:func:`check` runs the reader's source in a fresh namespace, with the real builtins, calls their
function on each case (the listed ones, then the drawn ones), and says, in the page's language,
which case failed first (its input), what was expected, what came back, with as many digits as
the difference needs, and a hint: the hint of the reader's very mistake when their answer is what
a known wrong solution gives, else the case's own. Nothing from inside this module reaches the
reader as a traceback: code that does not parse, raises, calls ``input()``, ``sys.exit()`` or the
book's own solution, prints without end, returns ``None``, the wrong shape or a NaN, or changes
Python itself (``del builtins.len``, a replaced ``np.allclose``: :mod:`attnkit.guard` notices and
undoes it) each gets its own sentence. Code that never returns is stopped by the page, which
owns the Python worker; a grader should run each submission in a process of its own.

The same code runs in CPython (the tests check every exercise's reference and wrong solutions)
and in Pyodide (the page checks the reader's code).

Example
-------
>>> ex = Exercise(
...     id="demo-double", title={"zh": "乘以 2", "en": "Times two"}, function="double",
...     starter="def double(x):\\n    ...\\n",
...     solution="def double(x):\\n    return 2 * x\\n",
...     cases=[Case(args=(np.array([1.0, 2.0]),), expected=np.array([2.0, 4.0]),
...                 about={"zh": "两个数", "en": "two numbers"},
...                 hint={"zh": "每个数乘 2。", "en": "Multiply each number by 2."})],
...     wrong={"add-one": ("def double(x):\\n    return x + 1\\n", 0)})
>>> check(ex, ex.solution, "en").passed
True
>>> print(check(ex, "def double(x):\\n    return x + 1\\n", "en").message)
Case 1 of 1 (two numbers) is not right.
  input:    x = [1. 2.]
  expected: [2. 4.]
  got:      [2. 3.]
Hint: Multiply each number by 2.
"""

from __future__ import annotations

import ast
import copy
import inspect
import io
import sys
import traceback
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from importlib import import_module
from types import FunctionType
from typing import Any, Callable, NamedTuple

import numpy as np

from .guard import Snapshot

__all__ = ["Case", "Exercise", "Result", "Wrong", "check", "LANGS", "PAGE_SEED"]

LANGS = ("zh", "en")
PAGE_SEED = 0                       # the seed the page draws its unlisted cases from
READER_FILE = "<exercise>"          # the file name the reader's code runs under (traceback lines)
MAX_PRINTED = 20_000                # characters of the reader's printed output that are kept
ORDINALS = ("first", "second", "third", "fourth", "fifth")
# The page's JavaScript and event loop: code that reached them could close the Python worker or
# schedule work that runs after the check (into the next one). Hidden while the reader's code runs.
BLOCKED_IMPORTS = ("js", "pyodide", "pyodide_js", "_pyodide", "micropip", "asyncio")
KINDS = ("passed", "syntax", "top_raised", "missing", "not_function", "input", "raised", "none", "not_number",
         "not_array", "shape", "nonfinite", "wrong", "not_tuple", "exit", "interrupt", "library", "blocked",
         "tampered")
SHOWN_DIGITS = 4                    # decimals shown when they are enough to tell expected from got
MAX_DIGITS = 17                     # enough for any float64


@dataclass(frozen=True)
class Case:
    """One input the reader's function is called with, and what a right answer returns.

    ``args`` are passed positionally (deep copies, so the reader's code cannot change the next
    case); ``expected`` is computed by attnkit; ``about`` says what the case tests and ``hint``
    the usual mistake it catches, each as ``{"zh": ..., "en": ...}``. Arrays are compared with
    ``np.allclose(got, expected, rtol, atol)``; a Python number by ``np.isclose``; anything else
    (lists, dicts, tuples of ids) by value.
    """

    args: tuple
    expected: Any
    about: dict
    hint: dict
    rtol: float = 1e-7
    atol: float = 1e-9

    def __post_init__(self):
        for name in ("about", "hint"):
            _check_texts(f"Case.{name}", getattr(self, name))
        if not isinstance(self.args, tuple):
            raise ValueError(f"Case.args must be a tuple of the function's arguments, got {type(self.args).__name__}")


class Wrong(NamedTuple):
    """A plausible wrong solution, which :func:`check` must fail.

    ``source`` is the code; ``case`` the index of the listed case that must catch it first.
    ``hint``, if given, is the hint a reader gets whose answer to the failed case is what this
    solution answers (their mistake, named); else the case's own hint is shown. ``says`` names the
    kind of message it must get instead of a wrong value (one of ``KINDS``: "library" for a
    solution that calls the book's own function, "nonfinite" for one that overflows, ...).
    A plain ``(source, case)`` tuple is a ``Wrong`` without hint.
    """

    source: str
    case: int
    hint: dict | None = None
    says: str | None = None


@dataclass(frozen=True)
class Exercise:
    """An exercise: the reader writes ``function`` so that every case passes.

    ``title`` names it in both languages (``{"zh": ..., "en": ...}``), as the page and the
    chapter's list of exercises show it. ``cases`` are listed on the page (each with its hint);
    ``held_out(rng)`` returns more cases, which the page does not list, drawn with the random
    generator ``rng`` (``numpy.random.default_rng(seed)``), their expected values computed by
    attnkit: an answer that only knows the listed cases fails them. The page draws them with
    ``PAGE_SEED``; a grader can draw others with :meth:`draw`.
    ``wrong`` maps a short name of a plausible mistake to a :class:`Wrong` (or a ``(source,
    index)`` tuple): that source must fail, and first at ``cases[index]`` (the tests check both,
    in both languages). ``forbidden`` names (dotted, ``"attnkit.core.softmax"``) the book's own
    functions that solve the exercise: they are unavailable while the reader's code runs, and
    calling one gets its own message. ``names`` gives the argument names shown in messages
    (default: the reference solution's).
    """

    id: str
    title: dict
    function: str
    starter: str
    solution: str
    cases: list
    wrong: dict
    names: tuple = field(default=())
    held_out: Callable | None = None
    forbidden: tuple = field(default=())

    def __post_init__(self):
        _check_texts(f"exercise {self.id!r}: title", self.title)
        if not self.cases:
            raise ValueError(f"exercise {self.id!r} has no cases")
        if not self.wrong:
            raise ValueError(f"exercise {self.id!r} needs at least one plausible wrong solution")
        wrong = {}
        for name, item in self.wrong.items():
            item = Wrong(*item)
            if not 0 <= item.case < len(self.cases):
                raise ValueError(f"exercise {self.id!r}: wrong solution {name!r} names case {item.case}, "
                                 f"but there are {len(self.cases)} cases")
            if item.hint is not None:
                _check_texts(f"exercise {self.id!r}: the hint of wrong solution {name!r}", item.hint)
            if item.says is not None and item.says not in KINDS:
                raise ValueError(f"exercise {self.id!r}: wrong solution {name!r} says {item.says!r}, "
                                 f"which is not one of {KINDS}")
            wrong[name] = item
        object.__setattr__(self, "wrong", wrong)
        if self.held_out is not None and not callable(self.held_out):
            raise ValueError(f"exercise {self.id!r}: held_out must be a function of a random generator")
        for dotted in self.forbidden:
            _function_at(dotted, self.id)
        if not self.names:
            object.__setattr__(self, "names", _parameters(self.solution, self.function))

    def draw(self, seed: int) -> list:
        """The cases the page does not list, drawn from ``seed`` (a non-negative int)."""
        if self.held_out is None:
            return []
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        cases = list(self.held_out(np.random.default_rng(int(seed))))
        if not cases or not all(isinstance(c, Case) for c in cases):
            raise ValueError(f"exercise {self.id!r}: held_out must return a non-empty list of Case")
        return cases


@dataclass(frozen=True)
class Result:
    """What :func:`check` found: ``passed``, the ``message`` for the reader (page's language),
    the index of the failed ``case`` (None if none ran or all passed; the drawn cases count
    after the listed ones), what the code ``printed`` (at most MAX_PRINTED characters), the
    ``kind`` of message (one of ``KINDS``) and, when the code changed Python itself, what it
    changed (``tampered``: the page then restarts its Python), and whether it printed more than
    MAX_PRINTED characters (``cut``: the rest was dropped; a grader says so)."""

    passed: bool
    message: str
    case: int | None = None
    printed: str = ""
    kind: str = "passed"
    tampered: tuple = ()
    cut: bool = False


MESSAGES = {
    "zh": {
        "passed": "全部 {n} 个用例都通过了。",
        "passed_drawn": "全部 {n} 个用例都通过了：提示里列出的 {shown} 个，和检查程序另外出的 {drawn} 个。",
        "syntax": "第 {line} 行，Python 读不懂这行代码（语法错误）：\n  {text}\n  {caret}",
        "syntax_nowhere": "Python 读不懂这段代码（语法错误）。",
        "top_raised": "运行这段代码时，第 {line} 行出了错：{error}",
        "missing": "没有找到名为 {name} 的函数：请用 def {name}(...): 定义它。",
        "not_function": "{name} 应该是一个函数，现在它是 {kind}。",
        "input": "练习里不能用 input()：函数的输入由检查程序传进来。",
        "case": "第 {i} 个用例（共 {n} 个，{about}）",
        "case_drawn": "第 {i} 个用例（共 {n} 个；这一个提示里没有列出：{about}）",
        "raised": "{case}：函数在第 {line} 行出了错：{error}",
        "none": "{case}：函数没有返回任何东西（返回了 None）。是不是忘了写 return？",
        "not_number": "{case}：应该返回一个数，返回的却是 {kind}。",
        "not_array": "{case}：应该返回一个数组，返回的却是 {kind}。",
        "shape": "{case}：返回数组的形状是 {got}，应该是 {expected}。",
        "nonfinite": "{case}：返回的结果里有 NaN 或无穷大。\n{inputs}\n{got}",
        "wrong": "{case}不对。\n{inputs}\n{expected}\n{got}",
        "input_label": "输入：",
        "expected_label": "应为：",
        "got_label": "得到：",
        "difference": "  两者相差 {diff}，超过了允许的误差 {allowed}。",
        "difference_at": "  相差最多的是 {at} 这一格：差 {diff}，超过了允许的误差 {allowed}。",
        "hint": "提示：{hint}",
        "hard_coded": "对这组输入，你的函数返回的是第 {j} 个用例的答案：答案要用传进来的参数算出来，不能照抄页面上的用例。",
        "printed_cut": "\n……（后面打印的内容太多，没有保留）",
        "not_tuple": "{case}：应该返回 {n} 个值（用逗号隔开，如 return a, b），返回的却是 {kind}。",
        "item": "{case}返回的第 {j} 个值",
        "exit": "你的代码在第 {line} 行要 Python 退出（SystemExit：sys.exit()、exit()、quit() 都会引发它）。"
                "练习里不要退出，用 return 把结果交回去。",
        "interrupt": "你的代码在第 {line} 行引发了 KeyboardInterrupt（按 Ctrl+C 时的那个信号）。"
                     "练习里用不着它，用 return 把结果交回去。",
        "library": "你的代码调用了本书 attnkit 里现成的 {name}。这个练习要你自己写出它：只用 Python 和 NumPy。",
        "blocked": "练习里不能 import {name}：它通向计算之外（网页的 JavaScript 或它的事件循环）。只用 Python 和 NumPy 写这个函数。",
        "tampered": "你的代码改动了 Python 本身：{names}。改动过的 Python 给出的结果不可信，所以这次检查不算；"
                    "浏览器里的 Python 会重新启动。练习只需要定义函数，不要改动 builtins、NumPy 或 attnkit。",
        "and_more": "还有 {n} 处",
        "sep": "；",
        "how": {"deleted": "{name} 被删掉了", "replaced": "{name} 被换掉了", "added": "多了 {name}",
                "changed": "{name} 被改动了"},
    },
    "en": {
        "passed": "All {n} cases pass.",
        "passed_drawn": "All {n} cases pass: the {shown} listed under Hints, and {drawn} more the checker made up.",
        "syntax": "Python cannot read line {line} (a syntax error):\n  {text}\n  {caret}",
        "syntax_nowhere": "Python cannot read this code (a syntax error).",
        "top_raised": "Running your code stopped at line {line}: {error}",
        "missing": "There is no function called {name}: define it with def {name}(...):",
        "not_function": "{name} should be a function, but it is {kind}.",
        "input": "input() does not work in an exercise: the checker passes the inputs to your function.",
        "case": "Case {i} of {n} ({about})",
        "case_drawn": "Case {i} of {n} (not listed under Hints: {about})",
        "raised": "{case}: your function stopped at line {line}: {error}",
        "none": "{case}: your function returned nothing (None). Did you forget the return?",
        "not_number": "{case}: it should return a number, but returned {kind}.",
        "not_array": "{case}: it should return an array, but returned {kind}.",
        "shape": "{case}: the array you returned has shape {got}; it should be {expected}.",
        "nonfinite": "{case}: the result contains NaN or infinity.\n{inputs}\n{got}",
        "wrong": "{case} is not right.\n{inputs}\n{expected}\n{got}",
        "input_label": "input:   ",
        "expected_label": "expected:",
        "got_label": "got:     ",
        "difference": "  They differ by {diff}, more than the {allowed} allowed.",
        "difference_at": "  The largest difference is {diff}, at {at}: more than the {allowed} allowed.",
        "hint": "Hint: {hint}",
        "hard_coded": "For this input your function returned the answer to case {j}: work the answer out from "
                      "the arguments, not from the cases on the page.",
        "printed_cut": "\n... (more was printed; the rest was not kept)",
        "not_tuple": "{case}: it should return {n} values (separated by commas: return a, b), but returned {kind}.",
        "item": "{case}: the {j} value it returned",
        "exit": "Your code asked Python to stop at line {line} (SystemExit, which sys.exit(), exit() and quit() "
                "raise). An exercise never stops Python: hand the result back with return.",
        "interrupt": "Your code raised KeyboardInterrupt at line {line} (the signal Ctrl+C sends). "
                     "An exercise does not need it: hand the result back with return.",
        "library": "Your code calls {name}, the book's own function from attnkit. This exercise asks you to "
                   "write it yourself, with Python and NumPy.",
        "blocked": "An exercise cannot import {name}: it reaches outside the computation (into the web page's "
                   "JavaScript or its event loop). Write the function with Python and NumPy.",
        "tampered": "Your code changed Python itself: {names}. A changed Python cannot be trusted to mark "
                    "anything, so this check does not count, and the Python in your browser starts afresh. "
                    "An exercise only needs your function: leave builtins, NumPy and attnkit as they are.",
        "and_more": "and {n} more",
        "sep": "; ",
        "how": {"deleted": "{name} was deleted", "replaced": "{name} was replaced", "added": "{name} was added",
                "changed": "{name} was changed"},
    },
}


def _check_texts(what: str, value) -> None:
    if not isinstance(value, dict) or set(value) != set(LANGS) or not all(value.values()):
        raise ValueError(f"{what} must be a dict with non-empty 'zh' and 'en' texts, got {value!r}")


def _function_at(dotted: str, exercise_id: str = "?"):
    """The Python function a dotted name such as "attnkit.core.softmax" names."""
    module, _, name = dotted.rpartition(".")
    try:
        f = inspect.unwrap(getattr(import_module(module), name))   # the function under a cache's wrapper (the build's)
    except (ImportError, AttributeError, ValueError):
        raise ValueError(f"exercise {exercise_id!r}: forbidden names {dotted!r}, which is not a function of attnkit") from None
    if not module.startswith("attnkit") or not isinstance(f, FunctionType) or f.__closure__:
        raise ValueError(f"exercise {exercise_id!r}: forbidden names {dotted!r}, which is not a plain Python function "
                         f"of attnkit (it must be one, to be made unavailable while the reader's code runs)")
    return f


def _parameters(source: str, function: str) -> tuple:
    """The argument names of ``def function(...)`` in ``source`` (read, not run)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return tuple(a.arg for a in node.args.posonlyargs + node.args.args)
    return ()


# --- the reader's code, run ------------------------------------------------------------------

class _InputCalled(Exception):
    """Raised by the ``input`` the reader's code sees."""


def _no_input(*_args, **_kwargs):
    raise _InputCalled()


def _exit(code=None):
    """``exit()`` and ``quit()`` as the reader's code sees them: SystemExit, without closing stdin."""
    raise SystemExit(code)


class _BlockedImport(ImportError):
    """Raised when the reader's code imports the page's JavaScript (``import js``)."""


class _Hidden:
    """While open, the modules of BLOCKED_IMPORTS are out of ``sys.modules`` and a finder first in
    ``sys.meta_path`` refuses them: ``import js`` and ``importlib.import_module("js")`` alike raise
    _BlockedImport. Everything is put back on exit."""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED_IMPORTS:
            raise _BlockedImport(name.partition(".")[0])
        return None

    def __enter__(self):
        self.hidden = {name: module for name, module in sys.modules.items()
                       if name.partition(".")[0] in BLOCKED_IMPORTS}
        for name in self.hidden:
            del sys.modules[name]
        sys.meta_path.insert(0, self)
        return self

    def __exit__(self, *_exc):
        while self in sys.meta_path:
            sys.meta_path.remove(self)
        for name in [n for n in sys.modules if n.partition(".")[0] in BLOCKED_IMPORTS]:
            del sys.modules[name]
        sys.modules.update(self.hidden)
        return False


class _LibraryCalled(Exception):
    """Raised by one of the book's functions while it is unavailable to the reader's code."""


TRAP = "def {name}(*args, _calls, _error, **kwargs):\n    _calls.append(_error.args[0])\n    raise _error\n"


class _Unavailable:
    """While open, each forbidden function of attnkit raises _LibraryCalled when called, and the
    dotted names called are appended to ``calls``. Its code object is swapped, so every alias of
    it (``from attnkit import softmax``, ``attnkit.core.softmax``, another attnkit function that
    calls it) is caught. The trap looks nothing up by name: deleted builtins do not free it."""

    def __init__(self, dotted_names, calls: list):
        self.functions = [(dotted, _function_at(dotted)) for dotted in dotted_names]
        self.calls = calls
        self.saved = []

    def __enter__(self):
        for dotted, f in self.functions:
            space = {}
            exec(compile(TRAP.format(name=f.__name__), f"<{dotted}: not available in this exercise>", "exec"), space)
            self.saved.append((f, f.__code__, f.__defaults__, f.__kwdefaults__))
            f.__code__ = space[f.__name__].__code__
            f.__defaults__ = None
            f.__kwdefaults__ = {"_calls": self.calls, "_error": _LibraryCalled(dotted)}
        return self

    def __exit__(self, *_exc):
        for f, code, defaults, kwdefaults in self.saved:
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults
        self.saved = []
        return False


class _CappedOutput(io.StringIO):
    """Keeps the first MAX_PRINTED characters of what is printed and drops the rest."""

    def __init__(self):
        super().__init__()
        self.cut = False

    def write(self, s):
        if not isinstance(s, str):
            return super().write(s)                 # the same TypeError print would give
        room = MAX_PRINTED - self.tell()
        if room <= 0:
            self.cut = True
            return len(s)
        if len(s) > room:
            self.cut = True
        return super().write(s[:room])


def _run_reader(code, namespace, function_name, arg_sets, *,
                _exec=exec, _callable=callable, _enumerate=enumerate, _Base=BaseException):
    """Run the reader's code, then their function on each set of arguments, stopping at the first
    that raises. Returns (outcome, outputs): outcome is None, ("top", error), ("missing",),
    ("not_function", value) or ("call", index, error). The builtins it needs are bound when this
    module is imported: the reader's code may delete them from the builtins module."""
    outputs = []
    try:
        _exec(code, namespace)
    except _Base as error:
        return ("top", error), outputs
    function = namespace.get(function_name, None)
    if function is None:
        return ("missing",), outputs
    if not _callable(function):
        return ("not_function", function), outputs
    for i, args in _enumerate(arg_sets):
        try:
            outputs.append(function(*args))
        except _Base as error:
            return ("call", i, error), outputs
    return None, outputs


# --- what came back, read without running the reader's code again ------------------------------

class _Other:
    """A returned value of a type the checker does not read (the reader's own class, a set, ...):
    only its type's name is kept."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"<{self.name}>"


_NUMPY_SCALARS = (np.bool_, np.integer, np.floating, np.complexfloating)


def _freeze(value, depth: int = 0):
    """``value`` as plain data (ndarray, numbers, str, None, tuple, list, dict), copied, or an
    _Other. Only exact types are read, so none of the reader's methods runs here."""
    kind = type(value)
    if value is None or kind in (bool, int, float, complex, str):
        return value
    if issubclass(kind, np.ndarray):            # the type itself, not what value.__class__ may claim
        array = np.ndarray.copy(np.ndarray.view(value, np.ndarray))
        return array if array.dtype != object else _Other("ndarray of Python objects")
    if issubclass(kind, _NUMPY_SCALARS) and kind.__module__ == "numpy":
        return value
    if depth > 20:
        return _Other(kind.__name__)
    if kind in (tuple, list):
        return kind(_freeze(v, depth + 1) for v in value)
    if kind is dict:
        return {_freeze(k, depth + 1): _freeze(v, depth + 1) for k, v in value.items()}
    return _Other(kind.__name__)


# --- messages ------------------------------------------------------------------------------------

def _show(value, digits: int = SHOWN_DIGITS) -> str:
    """A value as the messages show it: arrays with ``digits`` decimals, on few lines; every
    print option given here, so that no earlier change of NumPy's defaults shows through."""
    if isinstance(value, np.ndarray):
        return np.array2string(value, max_line_width=72, precision=digits, suppress_small=digits <= SHOWN_DIGITS,
                               separator=" ", threshold=10_000, edgeitems=3, sign="-", floatmode="maxprec",
                               formatter=None, legacy=False)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.{max(digits, 6)}g}"
    if isinstance(value, _Other):
        return value.name
    return repr(value)


def _digits_to_tell_apart(expected, got) -> int:
    """The fewest decimals (at least SHOWN_DIGITS) at which ``expected`` and ``got`` print differently."""
    for digits in range(SHOWN_DIGITS, MAX_DIGITS + 1):
        if _show(expected, digits) != _show(got, digits):
            return digits
    return MAX_DIGITS


def _kind(value, lang: str) -> str:
    """What a returned value is, in words."""
    if isinstance(value, np.ndarray):
        return (f"形状为 {value.shape} 的数组" if lang == "zh" else f"an array of shape {value.shape}")
    if isinstance(value, _Other):
        return (f"一个 {value.name}" if lang == "zh" else f"a {value.name}")
    name = type(value).__name__
    shown = _show(value)
    if len(shown) > 200:
        shown = shown[:200] + "…"
    return (f"一个 {name}（{shown}）" if lang == "zh" else f"a {name} ({shown})")


def _reader_line(error: BaseException) -> int | None:
    """The line of the reader's code where ``error`` was raised (its innermost frame there)."""
    line = None
    try:
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename == READER_FILE:
                line = frame.lineno
    except Exception:  # noqa: BLE001  (a traceback the reader's code tampered with)
        return None
    return line


def _error_text(error: BaseException) -> str:
    try:
        text = str(error)
    except BaseException:  # noqa: BLE001  (the reader's own exception class, whose __str__ failed)
        text = ""
    name = type(error).__name__
    return f"{name}: {text}" if text else name


def _field(label: str, text: str) -> str:
    """'  label value' on one line, or the label alone and the value indented below it."""
    if "\n" in text:
        return f"  {label.rstrip()}\n" + "\n".join("    " + line for line in text.splitlines())
    return f"  {label} {text}"


def _inputs(case: Case, names: tuple, m: dict) -> str:
    shown = [_show(a) for a in case.args]
    names = names[:len(shown)] if len(names) >= len(shown) else [f"#{i + 1}" for i in range(len(shown))]
    lines = [f"{n} = {s}" if "\n" not in s else f"{n} =\n" + "\n".join("  " + r for r in s.splitlines())
             for n, s in zip(names, shown)]
    text = "\n".join(lines)
    if len(lines) == 1 and "\n" not in text:
        return f"  {m['input_label']} {text}"
    return f"  {m['input_label'].rstrip()}\n" + "\n".join("    " + line for line in text.splitlines())


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _same(expected, got) -> bool:
    """Equal as plain data: lists and tuples alike, arrays as lists, numbers by value."""
    try:
        if isinstance(got, np.ndarray):
            got = got.tolist()
        if isinstance(expected, np.ndarray):
            expected = expected.tolist()
        if isinstance(expected, (list, tuple)):
            return (isinstance(got, (list, tuple)) and len(got) == len(expected)
                    and all(_same(e, g) for e, g in zip(expected, got)))
        if isinstance(expected, dict):
            return (isinstance(got, dict) and len(got) == len(expected)
                    and all(k in got and _same(v, got[k]) for k, v in expected.items()))
        if isinstance(got, _Other) or isinstance(got, (bool, np.bool_)) != isinstance(expected, (bool, np.bool_)):
            return False
        return bool(got == expected)
    except Exception:  # noqa: BLE001  (values that cannot be compared are not the same)
        return False


class _Wrong(NamedTuple):
    """A comparison that failed: its message and its kind (one of KINDS)."""
    message: str
    kind: str


def _wrong_value(case, expected, got, m, prefix, inputs) -> str:
    digits = _digits_to_tell_apart(expected, got)
    text = m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected, digits)),
                             got=_field(m["got_label"], _show(got, digits)))
    if digits > SHOWN_DIGITS:
        text += "\n" + _difference(case, expected, got, m)
    return text


def _difference(case, expected, got, m) -> str:
    """Where the largest difference is and how large, when the printed numbers only just differ."""
    e = np.asarray(expected, dtype=float)
    g = np.asarray(got, dtype=float)
    gap = np.abs(g - e)
    if not gap.ndim:
        return m["difference"].format(diff=f"{float(gap):.2g}", allowed=f"{case.atol + case.rtol * abs(float(e)):.2g}")
    index = np.unravel_index(int(np.argmax(gap)), gap.shape)
    at = "[" + ", ".join(str(int(i)) for i in index) + "]"
    allowed = case.atol + case.rtol * abs(float(e[index]))
    return m["difference_at"].format(at=at, diff=f"{float(gap[index]):.2g}", allowed=f"{allowed:.2g}")


def _compare_value(case: Case, expected, got, m: dict, lang: str, prefix: str, inputs: str,
                   nested: bool = False) -> _Wrong | None:
    if got is None and expected is not None:
        return _Wrong(m["none"].format(case=prefix), "none")
    if isinstance(expected, tuple) and nested and all(_is_int(e) for e in expected):
        # a tuple of whole numbers inside a returned tuple (a shape, say): shown and compared whole
        if (isinstance(got, (tuple, list)) and len(got) == len(expected)
                and all(_is_number(g) and g == e for e, g in zip(expected, got))):
            return None
        return _Wrong(m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                        got=_field(m["got_label"], _show(got))), "wrong")
    if isinstance(expected, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return _Wrong(m["not_tuple"].format(case=prefix, n=len(expected), kind=_kind(got, lang)), "not_tuple")
        for j, (e, g) in enumerate(zip(expected, got)):
            which = j + 1 if lang == "zh" else ORDINALS[j] if j < len(ORDINALS) else f"#{j + 1}"
            problem = _compare_value(case, e, g, m, lang, m["item"].format(case=prefix, j=which), inputs, nested=True)
            if problem is not None:
                return problem
        return None
    if isinstance(expected, np.ndarray):
        if isinstance(got, (list, tuple)):
            try:
                got = np.asarray(got, dtype=float if expected.dtype != bool else None)
            except (TypeError, ValueError):
                return _Wrong(m["not_array"].format(case=prefix, kind=_kind(got, lang)), "not_array")
        if not isinstance(got, np.ndarray):
            return _Wrong(m["not_array"].format(case=prefix, kind=_kind(got, lang)), "not_array")
        if got.shape != expected.shape:
            return _Wrong(m["shape"].format(case=prefix, got=got.shape, expected=expected.shape), "shape")
        if expected.dtype == bool or got.dtype == bool:
            if got.dtype != expected.dtype or not np.array_equal(got, expected):
                return _Wrong(m["wrong"].format(case=prefix, inputs=inputs,
                                                expected=_field(m["expected_label"], _show(expected)),
                                                got=_field(m["got_label"], _show(got))), "wrong")
            return None
        if not np.issubdtype(got.dtype, np.number):
            return _Wrong(m["not_array"].format(case=prefix, kind=_kind(got, lang)), "not_array")
        if not np.isfinite(got).all() and np.isfinite(expected).all():
            return _Wrong(m["nonfinite"].format(case=prefix, inputs=inputs, got=_field(m["got_label"], _show(got))),
                          "nonfinite")
        if not np.allclose(got, expected, rtol=case.rtol, atol=case.atol, equal_nan=True):
            return _Wrong(_wrong_value(case, expected, got, m, prefix, inputs), "wrong")
        return None
    if _is_number(expected):
        if isinstance(got, np.ndarray) and got.shape == ():
            got = got[()]
        if not _is_number(got):
            return _Wrong(m["not_number"].format(case=prefix, kind=_kind(got, lang)), "not_number")
        if not np.isfinite(got) and np.isfinite(expected):
            return _Wrong(m["nonfinite"].format(case=prefix, inputs=inputs, got=_field(m["got_label"], _show(got))),
                          "nonfinite")
        if not np.isclose(got, expected, rtol=case.rtol, atol=case.atol, equal_nan=True):
            return _Wrong(_wrong_value(case, expected, got, m, prefix, inputs), "wrong")
        return None
    if not _same(expected, got):
        return _Wrong(m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                        got=_field(m["got_label"], _show(got))), "wrong")
    return None


def _matches(case: Case, answer, got) -> bool:
    """True if ``got`` is ``answer`` (to the case's tolerance), however either is wrong."""
    probe = Case(args=case.args, expected=answer, about=case.about, hint=case.hint, rtol=case.rtol, atol=case.atol)
    m = MESSAGES["en"]
    try:
        return _compare_value(probe, answer, got, m, "en", "", "") is None
    except Exception:  # noqa: BLE001
        return False


def _diagnosis(exercise: Exercise, cases: list, i: int, got, lang: str) -> str | None:
    """The hint for the reader's very mistake: if their answer to case ``i`` is what a known
    wrong solution answers, that solution's hint (None if it has none: the case's own then); on a
    case the page does not list, an answer to a listed case says the answers were copied."""
    case = cases[i]
    for wrong in exercise.wrong.values():
        answer = _answer_of(wrong.source, exercise.function, case)
        if answer is not _NO_ANSWER and not _matches(case, case.expected, answer) and _matches(case, answer, got):
            return None if wrong.hint is None else wrong.hint[lang]
    if i >= len(exercise.cases) or exercise.cases[i] is not case:
        for j, other in enumerate(exercise.cases):
            if not _matches(case, case.expected, other.expected) and _matches(case, other.expected, got):
                return MESSAGES[lang]["hard_coded"].format(j=j + 1)
    return None


_NO_ANSWER = object()


def _answer_of(source: str, function: str, case: Case):
    """What the book's own (wrong) solution ``source`` answers to ``case``, or _NO_ANSWER."""
    try:
        space = {"__name__": "__wrong_solution__", "np": np}
        exec(compile(source, "<wrong solution>", "exec"), space)
        with np.errstate(all="ignore"), redirect_stdout(io.StringIO()):
            return _freeze(space[function](*copy.deepcopy(case.args)))
    except Exception:  # noqa: BLE001  (a wrong solution may raise on this case: then it is not the reader's)
        return _NO_ANSWER


# --- the check -------------------------------------------------------------------------------------

_LAST = []    # [(the snapshot the last check without a baseline used, how many modules were loaded then)]


def _snapshot_now() -> Snapshot:
    """A snapshot of Python as it is now: the last one taken here if nothing it watches has changed
    since and no module has been imported since (taking one costs more than comparing with one)."""
    if _LAST and _LAST[0][1] == len(sys.modules) and not _LAST[0][0].changes():
        return _LAST[0][0]
    snapshot = Snapshot(volatile={__name__: {"_LAST"}})
    _LAST[:] = [(snapshot, len(sys.modules))]
    return snapshot


def check(exercise: Exercise, source: str, lang: str, *, seed: int = PAGE_SEED, shown: bool = True,
          baseline: Snapshot | None = None) -> Result:
    """Run ``source`` (the reader's code) and check ``exercise.function`` on every case.

    The cases are the listed ones (unless ``shown=False``, as a grader asks), then those drawn
    from ``seed``. ``baseline`` is a :class:`~attnkit.guard.Snapshot` of Python before any
    reader's code ran (the page takes one when its Python starts); without one, a snapshot is
    taken now, so that what this code changes is still noticed and undone. Returns a
    :class:`Result` whose ``message`` is in ``lang`` ("zh" or "en"). Never raises for anything
    the reader wrote.
    """
    if lang not in MESSAGES:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    if not isinstance(source, str):
        raise ValueError(f"source must be the reader's code as a str, got {type(source).__name__}")
    m = MESSAGES[lang]
    listed = list(exercise.cases) if shown else []
    cases = listed + exercise.draw(seed)
    n = len(cases)
    if not n:
        raise ValueError(f"exercise {exercise.id!r} has no case to check: it lists none here and draws none")
    printed = _CappedOutput()

    def result(passed, message, case=None, kind="passed", tampered=()):
        text = printed.getvalue() + (m["printed_cut"] if printed.cut else "")
        return Result(passed, message, case, text, kind, tuple(tampered), printed.cut)

    try:
        code = compile(source, READER_FILE, "exec")
    except SyntaxError as error:
        if error.lineno is None:
            return result(False, m["syntax_nowhere"], kind="syntax")
        text = (error.text or "").rstrip("\n")
        caret = " " * max((error.offset or 1) - 1, 0) + "^"
        return result(False, m["syntax"].format(line=error.lineno, text=text, caret=caret), kind="syntax")
    except ValueError:                                   # a NUL character in the code
        return result(False, m["syntax_nowhere"], kind="syntax")

    guard = baseline if baseline is not None else _snapshot_now()
    reader_builtins = guard.builtins()
    reader_builtins.update(input=_no_input, exit=_exit, quit=_exit)
    namespace = {"__name__": "__exercise__", "__builtins__": reader_builtins, "np": np}
    arg_sets = [copy.deepcopy(case.args) for case in cases]
    library_calls = []
    with (redirect_stdout(printed), np.errstate(all="ignore"), _Unavailable(exercise.forbidden, library_calls),
          _Hidden()):
        outcome, outputs = _run_reader(code, namespace, exercise.function, arg_sets)
    tampered = guard.changes()
    if tampered:
        guard.restore()
    # Read what came back and what was raised (the reader's __str__ may run here), let go of the
    # reader's objects (their __del__ may run here), and look again.
    frozen = [_freeze(value) for value in outputs]
    ran = _read_outcome(outcome, lang)
    del outcome, outputs, namespace, arg_sets
    tampered += [change for change in guard.changes() if change not in tampered]
    if tampered:
        guard.restore()
        names = m["sep"].join(m["how"][c.how].format(name=c.name) for c in tampered[:4])
        if len(tampered) > 4:
            names += m["sep"] + m["and_more"].format(n=len(tampered) - 4)
        return result(False, m["tampered"].format(names=names), kind="tampered", tampered=[str(c) for c in tampered])
    if library_calls:
        return result(False, m["library"].format(name=library_calls[0]), ran.index or 0, kind="library")
    if ran.stage == "top":
        return _error_result(result, m, ran, None, "")
    if ran.stage == "missing":
        return result(False, m["missing"].format(name=exercise.function), kind="missing")
    if ran.stage == "not_function":
        return result(False, m["not_function"].format(name=exercise.function, kind=ran.what), kind="not_function")

    for i, got in enumerate(frozen):
        case = cases[i]
        prefix = _case_label(m, i, n, case, i >= len(listed), lang)
        problem = _compare_value(case, case.expected, got, m, lang, prefix, _inputs(case, exercise.names, m))
        if problem is not None:
            message, kind = problem
            hint = case.hint[lang]
            if kind in ("wrong", "nonfinite"):
                hint = _diagnosis(exercise, cases, i, got, lang) or hint
            return result(False, message + "\n" + m["hint"].format(hint=hint), i, kind=kind)
    if ran.stage == "call":
        i = ran.index
        return _error_result(result, m, ran, i, _case_label(m, i, n, cases[i], i >= len(listed), lang),
                             cases[i].hint[lang])
    if listed and len(listed) < n:
        return result(True, m["passed_drawn"].format(n=n, shown=len(listed), drawn=n - len(listed)))
    return result(True, m["passed"].format(n=n))


class _Ran(NamedTuple):
    """How the reader's code ended, read into plain text (no reader object kept)."""
    stage: str | None           # None (every case ran), "top", "missing", "not_function", "call"
    index: int | None = None    # the case whose call raised
    error: str | None = None    # "input", "exit", "interrupt", "blocked" or "error"
    text: str = ""              # "ValueError: ..." as Python names it
    line: int | None = None     # the line of the reader's code where it was raised
    what: str = ""              # the blocked module, or what the non-function name holds


def _read_outcome(outcome, lang: str) -> _Ran:
    if outcome is None:
        return _Ran(None)
    stage = outcome[0]
    if stage == "missing":
        return _Ran(stage)
    if stage == "not_function":
        return _Ran(stage, what=_kind(_freeze(outcome[1]), lang))
    error = outcome[-1]
    index = outcome[1] if stage == "call" else None
    if isinstance(error, _InputCalled):
        kind = "input"
    elif isinstance(error, SystemExit):
        kind = "exit"
    elif isinstance(error, KeyboardInterrupt):
        kind = "interrupt"
    elif isinstance(error, _BlockedImport):
        kind = "blocked"
    else:
        kind = "error"
    what = str(error.args[0]) if kind == "blocked" else ""
    return _Ran(stage, index, kind, _error_text(error), _reader_line(error), what)


def _error_result(result, m: dict, ran: _Ran, i: int | None, prefix: str, hint: str | None = None) -> Result:
    """The message for code that raised (at the top level, or in the function on case ``i``)."""
    line = ran.line or "?"
    if ran.error == "input":
        return result(False, m["input"], i, kind="input")
    if ran.error == "exit":
        return result(False, m["exit"].format(line=line), i, kind="exit")
    if ran.error == "interrupt":
        return result(False, m["interrupt"].format(line=line), i, kind="interrupt")
    if ran.error == "blocked":
        return result(False, m["blocked"].format(name=ran.what), i, kind="blocked")
    if ran.stage == "top":
        return result(False, m["top_raised"].format(line=line, error=ran.text), kind="top_raised")
    message = m["raised"].format(case=prefix, line=line, error=ran.text)
    if not ran.text.startswith("RecursionError"):
        message += "\n" + m["hint"].format(hint=hint)
    return result(False, message, i, kind="raised")


def _case_label(m: dict, i: int, n: int, case: Case, drawn: bool, lang: str) -> str:
    return m["case_drawn" if drawn else "case"].format(i=i + 1, n=n, about=case.about[lang])
