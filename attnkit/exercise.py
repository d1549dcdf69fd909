"""Check a reader's own code against an exercise, with feedback in the reader's language.

An exercise asks the reader to write one function (``softmax``, ``causal_mask``, ...). It is one
source for both books (``exercises/chN/<stem>.py`` holds an :class:`Exercise`): the code the editor
starts with, a reference solution, the cases it is checked on and at least one plausible wrong
solution with the case that must catch it. The expected value of every case is computed by
attnkit, never typed.

:func:`check` runs the reader's source in a fresh namespace and calls their function on each case
in turn. It stops at the first case that fails and says, in the page's language, which case it
was (its input), what was expected, what came back and the hint for the usual mistake. Nothing
from inside this module reaches the reader as a traceback: code that does not parse, raises, calls
``input()``, prints without end, returns ``None``, the wrong shape or a NaN each gets its own
sentence. (Code that never returns is stopped by the page, which owns the Python worker.)

The same code runs in CPython (the tests check every exercise's reference solution and wrong
solutions) and in Pyodide (the page checks the reader's code).

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

import builtins
import io
import traceback
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Case", "Exercise", "Result", "check", "LANGS"]

LANGS = ("zh", "en")
READER_FILE = "<exercise>"          # the file name the reader's code runs under (traceback lines)
MAX_PRINTED = 20_000                # characters of the reader's printed output that are kept
ORDINALS = ("first", "second", "third", "fourth", "fifth")


@dataclass(frozen=True)
class Case:
    """One input the reader's function is called with, and what a right answer returns.

    ``args`` are passed positionally (copies, so the reader's code cannot change the next case);
    ``expected`` is computed by attnkit; ``about`` says what the case tests and ``hint`` the usual
    mistake it catches, each as ``{"zh": ..., "en": ...}``. Arrays are compared with
    ``np.allclose(got, expected, rtol, atol)``; a Python number or bool by value.
    """

    args: tuple
    expected: Any
    about: dict
    hint: dict
    rtol: float = 1e-7
    atol: float = 1e-9

    def __post_init__(self):
        for name in ("about", "hint"):
            value = getattr(self, name)
            if not isinstance(value, dict) or set(value) != set(LANGS) or not all(value.values()):
                raise ValueError(f"Case.{name} must be a dict with non-empty 'zh' and 'en' texts, got {value!r}")
        if not isinstance(self.args, tuple):
            raise ValueError(f"Case.args must be a tuple of the function's arguments, got {type(self.args).__name__}")


@dataclass(frozen=True)
class Exercise:
    """An exercise: the reader writes ``function`` so that every case passes.

    ``title`` names it in both languages (``{"zh": ..., "en": ...}``), as the page and the
    chapter's list of exercises show it.
    ``wrong`` maps a short name of a plausible mistake to ``(source, index)``: that source must
    fail, and first at ``cases[index]`` (the test suite checks both, in both languages).
    ``names`` gives the argument names shown in messages (default: the reference solution's).
    """

    id: str
    title: dict
    function: str
    starter: str
    solution: str
    cases: list
    wrong: dict
    names: tuple = field(default=())

    def __post_init__(self):
        if not isinstance(self.title, dict) or set(self.title) != set(LANGS) or not all(self.title.values()):
            raise ValueError(f"exercise {self.id!r}: title must be a dict with non-empty 'zh' and 'en' texts, "
                             f"got {self.title!r}")
        if not self.cases:
            raise ValueError(f"exercise {self.id!r} has no cases")
        if not self.wrong:
            raise ValueError(f"exercise {self.id!r} needs at least one plausible wrong solution")
        for name, (_, index) in self.wrong.items():
            if not 0 <= index < len(self.cases):
                raise ValueError(f"exercise {self.id!r}: wrong solution {name!r} names case {index}, "
                                 f"but there are {len(self.cases)} cases")


@dataclass(frozen=True)
class Result:
    """What :func:`check` found: ``passed``, the ``message`` for the reader (page's language),
    the index of the failed ``case`` (None if none ran or all passed) and what the code
    ``printed`` (at most MAX_PRINTED characters)."""

    passed: bool
    message: str
    case: int | None = None
    printed: str = ""


MESSAGES = {
    "zh": {
        "passed": "全部 {n} 个用例都通过了。",
        "syntax": "第 {line} 行，Python 读不懂这行代码（语法错误）：\n  {text}\n  {caret}",
        "syntax_nowhere": "Python 读不懂这段代码（语法错误）。",
        "top_raised": "运行这段代码时，第 {line} 行出了错：{error}",
        "missing": "没有找到名为 {name} 的函数：请用 def {name}(...): 定义它。",
        "not_function": "{name} 应该是一个函数，现在它是 {kind}。",
        "input": "练习里不能用 input()：函数的输入由检查程序传进来。",
        "case": "第 {i} 个用例（共 {n} 个，{about}）",
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
        "hint": "提示：{hint}",
        "printed_cut": "\n……（后面打印的内容太多，没有保留）",
        "not_tuple": "{case}：应该返回 {n} 个值（用逗号隔开，如 return a, b），返回的却是 {kind}。",
        "item": "{case}返回的第 {j} 个值",
    },
    "en": {
        "passed": "All {n} cases pass.",
        "syntax": "Python cannot read line {line} (a syntax error):\n  {text}\n  {caret}",
        "syntax_nowhere": "Python cannot read this code (a syntax error).",
        "top_raised": "Running your code stopped at line {line}: {error}",
        "missing": "There is no function called {name}: define it with def {name}(...):",
        "not_function": "{name} should be a function, but it is {kind}.",
        "input": "input() does not work in an exercise: the checker passes the inputs to your function.",
        "case": "Case {i} of {n} ({about})",
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
        "hint": "Hint: {hint}",
        "printed_cut": "\n... (more was printed; the rest was not kept)",
        "not_tuple": "{case}: it should return {n} values (separated by commas: return a, b), but returned {kind}.",
        "item": "{case}: the {j} value it returned",
    },
}


class _InputCalled(Exception):
    """Raised by the ``input`` the reader's code sees."""


def _no_input(*_args, **_kwargs):
    raise _InputCalled()


class _CappedOutput(io.StringIO):
    """Keeps the first MAX_PRINTED characters of what is printed and drops the rest."""

    def __init__(self):
        super().__init__()
        self.cut = False

    def write(self, s):
        room = MAX_PRINTED - self.tell()
        if room <= 0:
            self.cut = True
            return len(s)
        if len(s) > room:
            self.cut = True
        return super().write(s[:room])


def _show(value) -> str:
    """A value as the messages show it: arrays with 4 significant decimals, on few lines."""
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=4, suppress_small=True, separator=" ", max_line_width=72)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return repr(value)


def _kind(value, lang: str) -> str:
    """What a returned value is, in words."""
    if isinstance(value, np.ndarray):
        return (f"形状为 {value.shape} 的数组" if lang == "zh" else f"an array of shape {value.shape}")
    name = type(value).__name__
    return (f"一个 {name}（{_show(value)}）" if lang == "zh" else f"a {name} ({_show(value)})")


def _reader_line(error: BaseException) -> int | None:
    """The line of the reader's code where ``error`` was raised (its innermost frame there)."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == READER_FILE:
            line = frame.lineno
    return line


def _error_text(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _names(ex: Exercise, namespace: dict) -> tuple:
    if ex.names:
        return ex.names
    import inspect

    try:
        return tuple(inspect.signature(namespace[ex.function]).parameters)
    except (TypeError, ValueError, KeyError):
        return ()


def _field(label: str, text: str) -> str:
    """'  label value' on one line, or the label alone and the value indented below it."""
    if "\n" in text:
        return f"  {label.rstrip()}\n" + "\n".join("    " + line for line in text.splitlines())
    return f"  {label} {text}"


def _inputs(case: Case, names: tuple, m: dict) -> str:
    shown = [_show(a) for a in case.args]
    if len(names) != len(shown):
        names = [f"#{i + 1}" for i in range(len(shown))]
    lines = [f"{n} = {s}" if "\n" not in s else f"{n} =\n" + "\n".join("  " + r for r in s.splitlines())
             for n, s in zip(names, shown)]
    text = "\n".join(lines)
    if len(lines) == 1 and "\n" not in text:
        return f"  {m['input_label']} {text}"
    return f"  {m['input_label'].rstrip()}\n" + "\n".join("    " + line for line in text.splitlines())


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def _compare(case: Case, got, m: dict, lang: str, prefix: str, inputs: str) -> str | None:
    """None if ``got`` is right for ``case``, else the message (without the hint)."""
    return _compare_value(case, case.expected, got, m, lang, prefix, inputs)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _compare_value(case: Case, expected, got, m: dict, lang: str, prefix: str, inputs: str,
                   nested: bool = False) -> str | None:
    if got is None and expected is not None:
        return m["none"].format(case=prefix)
    if isinstance(expected, tuple) and nested and all(_is_int(e) for e in expected):
        # a tuple of whole numbers inside a returned tuple (a shape, say): shown and compared whole
        if (isinstance(got, (tuple, list)) and len(got) == len(expected)
                and all(isinstance(g, (int, float, np.number)) and not isinstance(g, (bool, np.bool_)) and g == e
                        for e, g in zip(expected, got))):
            return None
        return m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                 got=_field(m["got_label"], _show(got)))
    if isinstance(expected, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return m["not_tuple"].format(case=prefix, n=len(expected), kind=_kind(got, lang))
        for j, (e, g) in enumerate(zip(expected, got)):
            which = j + 1 if lang == "zh" else ORDINALS[j] if j < len(ORDINALS) else f"#{j + 1}"
            problem = _compare_value(case, e, g, m, lang, m["item"].format(case=prefix, j=which), inputs,
                                     nested=True)
            if problem is not None:
                return problem
        return None
    if isinstance(expected, np.ndarray):
        if isinstance(got, (list, tuple)):
            try:
                got = np.asarray(got, dtype=float)
            except (TypeError, ValueError):
                return m["not_array"].format(case=prefix, kind=_kind(got, lang))
        if not isinstance(got, np.ndarray):
            return m["not_array"].format(case=prefix, kind=_kind(got, lang))
        if got.shape != expected.shape:
            return m["shape"].format(case=prefix, got=got.shape, expected=expected.shape)
        if expected.dtype == bool or got.dtype == bool:
            if got.dtype != expected.dtype or not np.array_equal(got, expected):
                return m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                       got=_field(m["got_label"], _show(got)))
            return None
        if not np.issubdtype(got.dtype, np.number):
            return m["not_array"].format(case=prefix, kind=_kind(got, lang))
        if not np.isfinite(got).all() and np.isfinite(expected).all():
            return m["nonfinite"].format(case=prefix, inputs=inputs, got=_field(m["got_label"], _show(got)))
        if not np.allclose(got, expected, rtol=case.rtol, atol=case.atol):
            return m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                       got=_field(m["got_label"], _show(got)))
        return None
    if isinstance(expected, (int, float, np.number)) and not isinstance(expected, bool):
        if isinstance(got, np.ndarray) and got.shape == ():
            got = got[()]
        if isinstance(got, bool) or not isinstance(got, (int, float, np.number)):
            return m["not_number"].format(case=prefix, kind=_kind(got, lang))
        if not np.isfinite(got) and np.isfinite(expected):
            return m["nonfinite"].format(case=prefix, inputs=inputs, got=_field(m["got_label"], _show(got)))
        if not np.isclose(got, expected, rtol=case.rtol, atol=case.atol):
            return m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                       got=_field(m["got_label"], _show(got)))
        return None
    if got != expected:
        return m["wrong"].format(case=prefix, inputs=inputs, expected=_field(m["expected_label"], _show(expected)),
                                       got=_field(m["got_label"], _show(got)))
    return None


def check(exercise: Exercise, source: str, lang: str) -> Result:
    """Run ``source`` (the reader's code) and check ``exercise.function`` on every case.

    Returns a :class:`Result` whose ``message`` is in ``lang`` ("zh" or "en"). Never raises
    for anything the reader wrote.
    """
    if lang not in MESSAGES:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    if not isinstance(source, str):
        raise ValueError(f"source must be the reader's code as a str, got {type(source).__name__}")
    m = MESSAGES[lang]
    printed = _CappedOutput()

    def result(passed, message, case=None):
        text = printed.getvalue() + (m["printed_cut"] if printed.cut else "")
        return Result(passed, message, case, text)

    try:
        code = compile(source, READER_FILE, "exec")
    except SyntaxError as error:
        if error.lineno is None:
            return result(False, m["syntax_nowhere"])
        text = (error.text or "").rstrip("\n")
        caret = " " * max((error.offset or 1) - 1, 0) + "^"
        return result(False, m["syntax"].format(line=error.lineno, text=text, caret=caret))

    reader_builtins = dict(vars(builtins), input=_no_input)
    namespace = {"__name__": "__exercise__", "__builtins__": reader_builtins, "np": np}
    with redirect_stdout(printed):
        try:
            exec(code, namespace)
        except _InputCalled:
            return result(False, m["input"])
        except Exception as error:   # the reader's code raised while defining things
            return result(False, m["top_raised"].format(line=_reader_line(error) or "?", error=_error_text(error)))

    function = namespace.get(exercise.function)
    if function is None:
        return result(False, m["missing"].format(name=exercise.function))
    if not callable(function):
        return result(False, m["not_function"].format(name=exercise.function, kind=_kind(function, lang)))

    names = _names(exercise, namespace)
    n = len(exercise.cases)
    for i, case in enumerate(exercise.cases):
        prefix = m["case"].format(i=i + 1, n=n, about=case.about[lang])
        inputs = _inputs(case, names, m)
        with redirect_stdout(printed), np.errstate(all="ignore"):
            try:
                got = function(*(_copy(a) for a in case.args))
            except _InputCalled:
                return result(False, m["input"], i)
            except RecursionError as error:
                return result(False, m["raised"].format(case=prefix, line=_reader_line(error) or "?",
                                                        error=_error_text(error)), i)
            except Exception as error:
                return result(False, m["raised"].format(case=prefix, line=_reader_line(error) or "?",
                                                        error=_error_text(error))
                              + "\n" + m["hint"].format(hint=case.hint[lang]), i)
        problem = _compare(case, got, m, lang, prefix, inputs)
        if problem is not None:
            return result(False, problem + "\n" + m["hint"].format(hint=case.hint[lang]), i)
    return result(True, m["passed"].format(n=n))

