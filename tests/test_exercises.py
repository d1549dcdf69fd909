"""The exercises (exercises/chN/*.py) and the checker that marks a reader's code (attnkit.exercise).

Every exercise, in both languages: the reference solution passes (on the listed cases and on the
cases drawn from several seeds); each plausible wrong solution fails, first at the case it names,
with its intended message (its own hint, or the case's, or its kind: "library" for an answer
that calls the book's own function); an answer that hard-codes the listed cases, written here
from those cases for every exercise, fails on the drawn ones; every wrong solution also fails on
the drawn cases alone (what a grader uses); the starter fails cleanly; each message and every
comment of the starter and the solution is in its own language only. Then the checker itself on
what a reader can type: code that does not parse, raises, calls input() or sys.exit(), imports
the page's JavaScript, prints without end, returns None, the wrong shape or a NaN, differs by
less than four decimals show, or changes Python itself. In headless Chromium: the time limit,
hostile checks followed by honest ones, sys.exit(), and a reader solving one exercise per chapter.
"""

from __future__ import annotations

import builtins
import html
import importlib.util
import io
import json
import re
import runpy
import time
import tokenize
from pathlib import Path

import numpy as np
import pytest

from attnkit.exercise import LANGS, PAGE_SEED, Case, Exercise, Wrong, check
from bookbuild.listings import for_language

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "exercises").glob("ch*/*.py"))
HAN = re.compile(r"[\u4e00-\u9fff]")
SEEDS = range(4)                  # the seeds the drawn cases are checked with (the page uses PAGE_SEED)


def load(path: Path) -> Exercise:
    return runpy.run_path(str(path))["EXERCISE"]


EXERCISES = {path.relative_to(ROOT / "exercises").as_posix(): load(path) for path in FILES}
EXERCISES_BY_ID = {ex.id: ex for ex in EXERCISES.values()}


def test_chapters_0_to_9_each_have_at_least_two_exercises():
    chapters = {}
    for name in EXERCISES:
        chapters.setdefault(name.split("/")[0], []).append(name)
    assert chapters, "no exercise found under exercises/"
    assert all(len(names) >= 2 for names in chapters.values()), chapters
    missing = [f"ch{n}" for n in range(10) if f"ch{n}" not in chapters]
    assert not missing, f"chapters 0 to 9 each need at least two exercises; none in {missing}"


def test_ids_are_unique_and_name_their_chapter():
    ids = [ex.id for ex in EXERCISES.values()]
    assert len(ids) == len(set(ids))
    for name, ex in EXERCISES.items():
        assert ex.id.startswith(name.split("/")[0] + "-"), (name, ex.id)


def _in_language(message: str, lang: str) -> bool:
    """A zh message has Chinese in it; an en message has none (inputs are numbers)."""
    return bool(HAN.search(message)) if lang == "zh" else not HAN.search(message)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_reference_solution_passes(name, lang):
    ex = EXERCISES[name]
    result = check(ex, for_language(ex.solution, lang), lang)
    assert result.passed, result.message
    assert _in_language(result.message, lang)
    assert result.kind == "passed" and not result.tampered


def _intended(ex: Exercise, wrong: Wrong, result, lang: str) -> bool:
    if wrong.says:
        return result.kind == wrong.says
    return (wrong.hint or ex.cases[wrong.case].hint)[lang] in result.message


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_each_wrong_solution_fails_at_its_case_with_its_message(name, lang):
    ex = EXERCISES[name]
    for mistake, wrong in ex.wrong.items():
        result = check(ex, for_language(wrong.source, lang), lang)
        assert not result.passed, f"{name}: the wrong solution {mistake!r} passes"
        assert result.case == wrong.case, f"{name}: {mistake!r} failed at case {result.case}, not {wrong.case}:\n{result.message}"
        assert _intended(ex, wrong, result, lang), f"{name}: {mistake!r} got another message:\n{result.message}"
        assert _in_language(result.message, lang), result.message
        assert "Traceback" not in result.message and "exercise.py" not in result.message


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_drawn_cases_alone_pass_the_solution_and_catch_every_wrong_one(name):
    """What a grader checks with (``shown=False``): the cases drawn from a seed, never the listed
    ones. Each seed passes the reference solution and fails every wrong solution."""
    ex = EXERCISES[name]
    assert ex.held_out is not None, f"{name} draws no cases the page does not list"
    for seed in SEEDS:
        assert check(ex, ex.solution, "en", seed=seed, shown=False).passed, (name, seed)
        for mistake, wrong in ex.wrong.items():
            assert not check(ex, wrong.source, "en", seed=seed, shown=False).passed, (name, mistake, seed)


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_drawn_cases_follow_their_seed(name):
    """The same seed draws the same cases (a grader can say which it used); another seed, others."""
    ex = EXERCISES[name]
    first, again, other = ex.draw(3), ex.draw(3), ex.draw(4)
    assert [c.about for c in first] == [c.about for c in again]
    assert all(_same_value(a.args, b.args) and _same_value(a.expected, b.expected) for a, b in zip(first, again))
    assert not all(_same_value(a.args, b.args) for a, b in zip(first, other)), f"{name}: seeds 3 and 4 draw the same"


def _same_value(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    return a == b


def _literal(value) -> str:
    """Python source that rebuilds ``value`` exactly (arrays, numbers, tuples, lists, dicts)."""
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r}, dtype={value.dtype.str!r}).reshape({value.shape!r})"
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        return repr(value.item())
    if isinstance(value, tuple):
        return "(" + "".join(_literal(v) + ", " for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def hard_coded(ex: Exercise, by: str) -> str:
    """An answer that knows only the listed cases: it looks its input up among them ("input") or
    returns their answers in the order the checker asks ("order"). Written from the cases."""
    answers = "[" + ", ".join(f"({_literal(c.args)}, {_literal(c.expected)})" for c in ex.cases) + "]"
    if by == "input":
        body = ("    for args, answer in ANSWERS:\n"
                "        if same(args, given):\n"
                "            return answer\n"
                "    return ANSWERS[0][1]\n")
    else:
        body = ("    CALLS.append(1)\n"
                "    return ANSWERS[min(len(CALLS), len(ANSWERS)) - 1][1]\n")
    return ("import numpy as np\n\n"
            f"ANSWERS = {answers}\n"
            "CALLS = []\n\n"
            "def same(a, b):\n"
            "    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):\n"
            "        return np.shape(a) == np.shape(b) and np.array_equal(a, b)\n"
            "    if isinstance(a, (tuple, list)):\n"
            "        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))\n"
            "    return a == b\n\n"
            f"def {ex.function}(*given):\n" + body)


@pytest.mark.parametrize("by", ["input", "order"])
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_an_answer_that_hard_codes_the_listed_cases_fails(name, by):
    """Written from the listed cases for every exercise, so that no exercise can skip this: it
    passes every listed case, and fails on a case the page does not list (named as copied)."""
    ex = EXERCISES[name]
    source = hard_coded(ex, by)
    listed_only = Exercise(id=ex.id, title=ex.title, function=ex.function, starter=ex.starter,
                           solution=ex.solution, cases=ex.cases, wrong=ex.wrong)
    assert check(listed_only, source, "en").passed, f"{name}: the hard-coded answer does not even pass the listed cases"
    for lang in LANGS:
        result = check(ex, source, lang)
        assert not result.passed and result.case >= len(ex.cases), (name, by, result.message)
        if by == "input" and result.kind == "wrong":
            assert ("第 1 个用例的答案" if lang == "zh" else "the answer to case 1") in result.message, result.message


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_calling_the_books_own_function_fails_with_its_message(name):
    """Every function the exercise forbids, called from the reader's function under the right name
    (however its arguments fit), is caught; every exercise that forbids any has such a wrong solution."""
    ex = EXERCISES[name]
    if not ex.forbidden:
        return
    assert any(w.says == "library" for w in ex.wrong.values()), f"{name} forbids {ex.forbidden} but tests no answer calling one"
    for dotted in ex.forbidden:
        module, _, function = dotted.rpartition(".")
        source = f"from {module} import {function} as book\n\ndef {ex.function}(*args):\n    return book(*args)\n"
        for lang in LANGS:
            result = check(ex, source, lang)
            assert not result.passed and result.kind == "library", (name, dotted, result.message)
            assert dotted in result.message and _in_language(result.message, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_starter_fails_cleanly_and_speaks_the_language(name, lang):
    ex = EXERCISES[name]
    starter = for_language(ex.starter, lang)
    compile(starter, name, "exec")
    result = check(ex, starter, lang)
    assert not result.passed and result.case == 0
    assert ("None" in result.message) and _in_language(result.message, lang), result.message
    other = "en" if lang == "zh" else "zh"
    assert for_language(ex.starter, other) != starter, "the starter's comments should speak each language"


def _comments(source: str) -> list[str]:
    return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]


def _code_names(source: str) -> set[str]:
    return {t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.NAME}


ENGLISH_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
SYMBOLS = {"ReLU", "eps", "max", "min", "sum", "mean", "exp", "log", "sin", "cos", "tanh", "softmax", "argmax"}


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_starter_and_solution_comments_speak_each_language(name):
    """What the page and the PDF show (the starter code, the reference solution in its fold): in the
    English book no Chinese at all; in the Chinese book every comment that says something in words
    says it in Chinese (a shape such as (n, d_k) @ (d_k, n), or a name of the code, may stand alone)."""
    ex = EXERCISES[name]
    for source in (ex.starter, ex.solution):
        assert not HAN.search(for_language(source, "en")), (name, for_language(source, "en"))
        zh = for_language(source, "zh")
        allowed = _code_names(zh) | SYMBOLS
        for comment in _comments(zh):
            words = [w for w in ENGLISH_WORD.findall(comment) if w not in allowed]
            assert HAN.search(comment) or not words, f"{name}: an English comment in the Chinese book: {comment!r}"


# --- the checker on what a reader can type --------------------------------------------------

DOUBLE = Exercise(
    id="demo-double", title={"zh": "乘以 2", "en": "Times two"}, function="double", starter="def double(x):\n    ...\n",
    solution="def double(x):\n    return 2 * x\n",
    cases=[Case(args=(np.array([1.0, 2.0]),), expected=np.array([2.0, 4.0]),
                about={"zh": "两个数", "en": "two numbers"}, hint={"zh": "乘以 2。", "en": "Times 2."}),
           Case(args=(np.array([[1.0], [-3.0]]),), expected=np.array([[2.0], [-6.0]]),
                about={"zh": "一列数", "en": "a column"}, hint={"zh": "形状不变。", "en": "Same shape."})],
    wrong={"add": ("def double(x):\n    return x + 1\n", 0)})


@pytest.mark.parametrize("source, zh, en", [
    ("def double(x)\n    return 2 * x\n", "第 1 行", "line 1"),
    ("def double(x):\nreturn 2 * x\n", "第 2 行", "line 2"),
    ("import numpy as np\nx = 1 / 0\n", "ZeroDivisionError", "ZeroDivisionError"),
    ("def twice(x):\n    return 2 * x\n", "def double", "def double"),
    ("double = 3\n", "应该是一个函数", "should be a function"),
    ("def double(x):\n    return input()\n", "input()", "input()"),
    ("def double(x):\n    2 * x\n", "None", "None"),
    ("def double(x):\n    return float(x[0] * 2)\n", "数组", "array"),
    ("def double(x):\n    return (2 * x).ravel()\n", "(2,)", "(2,)"),
    ("def double(x):\n    return x * np.nan\n", "NaN", "NaN"),
    ("def double(x):\n    return [a * 2 for a in x]\n", "全部 2 个用例都通过了", "All 2 cases pass"),
    ("def double(x):\n    return double(x)\n", "RecursionError", "RecursionError"),
    ("def double(x):\n    return x.nope()\n", "第 2 行", "line 2"),
])
def test_checker_names_each_kind_of_mistake_in_the_page_language(source, zh, en):
    for lang, expected in (("zh", zh), ("en", en)):
        result = check(DOUBLE, source, lang)
        assert expected in result.message, (lang, result.message)
        assert "Traceback" not in result.message and "attnkit" not in result.message


SHAPES = Exercise(
    id="demo-shapes", title={"zh": "形状", "en": "Shapes"}, function="shapes",
    starter="def shapes(n):\n    ...\n", solution="def shapes(n):\n    return (n, n), (n, 2)\n",
    cases=[Case(args=(3,), expected=((3, 3), (3, 2)), about={"zh": "三", "en": "three"},
                hint={"zh": "n × n。", "en": "n by n."})],
    wrong={"swapped": ("def shapes(n):\n    return (n, n), (2, n)\n", 0)})


@pytest.mark.parametrize("source, passes, en", [
    ("def shapes(n):\n    return (n, n), (n, 2)\n", True, "All 1 cases pass"),
    ("def shapes(n):\n    return [n, n], (n, 2.0)\n", True, "All 1 cases pass"),
    ("def shapes(n):\n    return (n, n), (2, n)\n", False, "the second value it returned is not right"),
    ("def shapes(n):\n    return (n, n), (n, 2, 1)\n", False, "got:      (3, 2, 1)"),
    ("import numpy as np\ndef shapes(n):\n    return (n, n), np.zeros((n, 2))\n", False, "the second value"),
])
def test_checker_compares_a_returned_shape_whole(source, passes, en):
    """A tuple of whole numbers inside a returned tuple (a shape) is shown and compared whole,
    not number by number ("the second value it returned: the first value it returned ...")."""
    result = check(SHAPES, source, "en")
    assert result.passed == passes and en in result.message, result.message
    assert result.message.count("value it returned") <= 1, result.message


def test_checker_keeps_what_was_printed_but_not_ten_megabytes():
    result = check(DOUBLE, "print('hello')\ndef double(x):\n    print('x' * 10_000_000)\n    return 2 * x\n", "en")
    assert result.passed
    assert result.printed.startswith("hello\n") and len(result.printed) < 30_000
    assert result.printed.endswith("the rest was not kept)")


def test_checker_cannot_be_changed_by_the_readers_code():
    """A reader's function that changes its input does not change the next case or the expected value."""
    before = [c.args[0].copy() for c in DOUBLE.cases]
    check(DOUBLE, "def double(x):\n    x *= 2\n    return x\n", "en")
    assert all(np.array_equal(b, c.args[0]) for b, c in zip(before, DOUBLE.cases))


def test_bad_exercises_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="'zh' and 'en'"):
        Case(args=(1,), expected=1, about={"en": "x"}, hint={"zh": "x", "en": "y"})
    with pytest.raises(ValueError, match="tuple"):
        Case(args=[1], expected=1, about={"zh": "x", "en": "x"}, hint={"zh": "x", "en": "y"})
    with pytest.raises(ValueError, match="plausible wrong solution"):
        Exercise(id="x", title=DOUBLE.title, function="f", starter="", solution="", cases=DOUBLE.cases, wrong={})
    with pytest.raises(ValueError, match="names case 5"):
        Exercise(id="x", title=DOUBLE.title, function="f", starter="", solution="", cases=DOUBLE.cases, wrong={"w": ("", 5)})
    with pytest.raises(ValueError, match="title must be"):
        Exercise(id="x", title={"zh": "标题"}, function="f", starter="", solution="", cases=DOUBLE.cases,
                 wrong={"w": ("", 0)})
    with pytest.raises(ValueError, match="lang must be one of"):
        check(DOUBLE, "", "fr")


@pytest.mark.parametrize("source, kind, zh, en", [
    ("import sys\nsys.exit()\n", "exit", "第 2 行要 Python 退出", "asked Python to stop at line 2"),
    ("def double(x):\n    raise SystemExit(3)\n", "exit", "SystemExit", "SystemExit"),
    ("def double(x):\n    exit()\n", "exit", "sys.exit()", "sys.exit()"),
    ("def double(x):\n    quit()\n", "exit", "sys.exit()", "sys.exit()"),
    ("def double(x):\n    raise KeyboardInterrupt\n", "interrupt", "KeyboardInterrupt", "KeyboardInterrupt"),
    ("import js\n", "blocked", "import js", "import js"),
    ("def double(x):\n    from pyodide.ffi import to_js\n    return 2 * x\n", "blocked", "import pyodide", "import pyodide"),
    ("import builtins\ndel builtins.len\ndef double(x):\n    return 2 * x\n", "tampered",
     "builtins.len 被删掉了", "builtins.len was deleted"),
    ("import numpy\nnumpy.allclose = lambda *a, **k: True\ndef double(x):\n    return x\n", "tampered",
     "numpy.allclose 被换掉了", "numpy.allclose was replaced"),
    # a harmless change (one more frame allowed): a limit of 50 can crash the test process's own
    # machinery (pytest-xdist) before the checker puts the old one back
    ("def double(x):\n    import sys\n    sys.setrecursionlimit(sys.getrecursionlimit() + 1)\n    return 2 * x\n", "tampered",
     "sys.setrecursionlimit", "sys.setrecursionlimit"),
])
def test_checker_names_what_stops_or_changes_python(source, kind, zh, en):
    """sys.exit(), KeyboardInterrupt, the page's JavaScript and changes to Python itself each get
    their own sentence (not "Python could not start"), and a change is undone at once."""
    real_len, real_allclose = builtins.len, np.allclose
    for lang, expected in (("zh", zh), ("en", en)):
        result = check(DOUBLE, source, lang)
        assert not result.passed and result.kind == kind, (lang, result.kind, result.message)
        assert expected in result.message and _in_language(result.message, lang), result.message
        assert builtins.len is real_len and np.allclose is real_allclose
        assert bool(result.tampered) == (kind == "tampered")


def test_a_check_after_a_hostile_one_is_not_fooled():
    """After code that deleted a builtin and code that made np.allclose say yes to everything, a
    right answer passes and a wrong one fails at its case with its hint."""
    check(DOUBLE, "import builtins\ndel builtins.len\n", "en")
    check(DOUBLE, "import numpy\nnumpy.allclose = lambda *a, **k: True\nnumpy.isclose = numpy.allclose\n", "en")
    assert check(DOUBLE, DOUBLE.solution, "en").passed
    wrong = check(DOUBLE, "def double(x):\n    return x + 1\n", "en")
    assert not wrong.passed and wrong.case == 0 and "Times 2." in wrong.message


def test_checker_is_not_fooled_by_what_the_function_returns():
    """A returned object is read as plain data: an ndarray subclass with a hostile __repr__, an
    exception whose __str__ deletes a builtin, an object claiming to be an array."""
    sub = ("class A(np.ndarray):\n    def __repr__(self):\n        raise RuntimeError('no')\n"
           "def double(x):\n    return np.asarray(2 * x).view(A)\n")
    assert check(DOUBLE, sub, "en").passed
    liar = ("class Liar:\n    __class__ = np.ndarray\n    def __eq__(self, other):\n        return True\n"
            "def double(x):\n    return Liar()\n")
    result = check(DOUBLE, liar, "en")
    assert not result.passed and result.kind == "not_array" and "a Liar" in result.message, result.message
    sneaky = ("class E(Exception):\n    def __str__(self):\n        import builtins\n        del builtins.print\n"
              "        return 'boom'\ndef double(x):\n    raise E()\n")
    result = check(DOUBLE, sneaky, "en")
    assert result.kind == "tampered" and "builtins.print was deleted" in result.message
    assert builtins.print is print


TINY = Exercise(
    id="demo-tiny", title={"zh": "小差别", "en": "A tiny difference"}, function="f", starter="def f(x):\n    ...\n",
    solution="def f(x):\n    return x / np.sqrt(2.0 + 1e-5)\n",
    cases=[Case(args=(np.array([[1.0, 2.0, 3.0]]),), expected=np.array([[1.0, 2.0, 3.0]]) / np.sqrt(2.0 + 1e-5),
                about={"zh": "一行", "en": "a row"}, hint={"zh": "eps 在根号里。", "en": "eps goes under the root."})],
    wrong={"outside": ("def f(x):\n    return x / (np.sqrt(2.0) + 1e-5)\n", 0)})


def test_checker_prints_as_many_digits_as_the_difference_needs():
    """Two numbers that agree to four decimals are printed until they differ, with the largest
    difference, where it is and what was allowed."""
    result = check(TINY, "def f(x):\n    return x / np.sqrt(2.0)\n", "en")
    expected_line = next(line for line in result.message.splitlines() if "expected:" in line)
    got_line = next(line for line in result.message.splitlines() if "got:" in line)
    assert expected_line.split(":", 1)[1].strip() != got_line.split(":", 1)[1].strip(), result.message
    assert "The largest difference is" in result.message and "at [0, 2]" in result.message
    zh = check(TINY, "def f(x):\n    return x / np.sqrt(2.0)\n", "zh").message
    assert "相差最多的是 [0, 2] 这一格" in zh
    plain = check(DOUBLE, "def double(x):\n    return x + 1\n", "en").message
    assert "difference" not in plain          # differences the usual four decimals show need no more


def test_a_known_mistake_gets_its_own_hint():
    ex = Exercise(id="demo", title=TINY.title, function="f", starter=TINY.starter, solution=TINY.solution,
                  cases=TINY.cases, wrong={"outside": Wrong(TINY.wrong["outside"].source, 0,
                                                            {"zh": "根号外面。", "en": "Outside the root."})})
    assert "Hint: Outside the root." in check(ex, ex.wrong["outside"].source, "en").message
    assert "Hint: eps goes under the root." in check(ex, "def f(x):\n    return 2 * x\n", "en").message


def test_cases_the_page_does_not_list_are_drawn_and_numbered_after_the_listed_ones():
    ex = Exercise(id="demo", title=DOUBLE.title, function="double", starter=DOUBLE.starter, solution=DOUBLE.solution,
                  cases=DOUBLE.cases, wrong=DOUBLE.wrong,
                  held_out=lambda rng: [Case(args=(x,), expected=2 * x, about={"zh": "随机的数", "en": "random numbers"},
                                             hint={"zh": "乘以 2。", "en": "Times 2."})
                                        for x in [rng.normal(size=3)]])
    assert check(ex, ex.solution, "en").message == "All 3 cases pass: the 2 listed under Hints, and 1 more the checker made up."
    result = check(ex, hard_coded(ex, "input"), "en")
    assert result.case == 2 and result.message.startswith("Case 3 of 3 (not listed under Hints: random numbers)")
    assert check(ex, ex.solution, "en", seed=5, shown=False).message == "All 1 cases pass."
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        ex.draw(-1)


def test_forbidden_names_must_be_plain_attnkit_functions():
    with pytest.raises(ValueError, match="not a function of attnkit"):
        Exercise(id="x", title=DOUBLE.title, function="f", starter="", solution="", cases=DOUBLE.cases,
                 wrong=DOUBLE.wrong, forbidden=("attnkit.core.no_such_thing",))
    with pytest.raises(ValueError, match="not a plain Python function of attnkit"):
        Exercise(id="x", title=DOUBLE.title, function="f", starter="", solution="", cases=DOUBLE.cases,
                 wrong=DOUBLE.wrong, forbidden=("numpy.allclose",))


def test_the_pages_python_restarts_when_earlier_code_changed_it(monkeypatch):
    """The page's helper (overrides/assets/playground/playground.py) compares its Python with the
    snapshot taken when it started: after earlier code replaced np.allclose it checks nothing and
    asks the page for a new Python; a check whose own code changes Python says so (tampered)."""
    spec = importlib.util.spec_from_file_location("playground_under_test", ROOT / "overrides/assets/playground/playground.py")
    helper = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helper)
    monkeypatch.setattr(helper, "EXERCISES", str(ROOT / "exercises"))
    sent = []
    helper._emit = lambda kind, data: sent.append((kind, data))
    helper._baseline()
    path = str(ROOT / "exercises/ch3/softmax.py")
    solution = EXERCISES["ch3/softmax.py"].solution
    helper.check_exercise(path, solution, "en")
    assert sent[-1][1]["passed"] is True and sent[-1][1]["tampered"] == []
    real = np.allclose
    np.allclose = lambda *a, **k: True
    try:
        helper.check_exercise(path, "def softmax(x):\n    return x\n", "en")
    finally:
        np.allclose = real
    assert sent[-1] == ("exercise", {"restart": True, "changed": ["numpy.allclose (replaced)"]})
    helper.check_exercise(path, "import builtins\ndel builtins.len\ndef softmax(x):\n    return x\n", "zh")
    assert sent[-1][1]["kind"] == "tampered" and sent[-1][1]["tampered"] == ["builtins.len (deleted)"]
    assert helper._BASELINE[0].changes() == []


# --- in the pages ------------------------------------------------------------------------------

from importlib import import_module  # noqa: E402

from book import ROOT as BOOK_ROOT  # noqa: E402

SITE = BOOK_ROOT / "site"
PAGES = import_module("bookbuild.exercise_pages")


@pytest.mark.parametrize("lang", LANGS)
def test_every_exercise_is_on_a_page_of_its_chapter_once(lang):
    """Each exercise is embedded exactly once per book, in its own chapter, and every chapter
    with exercises lists them on its index page."""
    seen = {}
    for path in sorted((BOOK_ROOT / "docs" / lang).rglob("*.md")):
        for match in PAGES.EMBED.finditer(path.read_text(encoding="utf-8")):
            seen.setdefault(match["id"], []).append(path.relative_to(BOOK_ROOT / "docs" / lang).as_posix())
    by_id = {ex.id: name for name, ex in EXERCISES.items()}
    assert sorted(seen) == sorted(by_id), f"{lang}: exercises embedded {sorted(seen)}, defined {sorted(by_id)}"
    for exercise_id, where in seen.items():
        assert len(where) == 1, f"{lang}: {exercise_id} is embedded on {where}"
        assert where[0].split("/")[0] == by_id[exercise_id].split("/")[0], (exercise_id, where)
    for chapter in {name.split("/")[0] for name in EXERCISES}:
        index = (BOOK_ROOT / "docs" / lang / chapter / "index.md").read_text(encoding="utf-8")
        assert f'exercise_progress("{chapter}")' in index, f"{lang}: {chapter}/index.md does not list its exercises"


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_data_is_the_exercises_in_the_pages_language(lang):
    data = json.loads((SITE / ("en/" if lang == "en" else "") / "data/widgets/exercises.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(PAGES.exercises_data(lang), ensure_ascii=False))
    for exercise_id, item in data["exercises"].items():
        assert item["url"] and (SITE / ("en/" if lang == "en" else "") / item["url"] / "index.html").is_file()
        assert (lang == "zh") == bool(HAN.search(item["starter"])), (lang, exercise_id)
        # the hints fold lists the listed cases, and says how many more the check draws (with the page's seed)
        assert item["drawn"] == len(EXERCISES_BY_ID[exercise_id].draw(PAGE_SEED)) > 0, exercise_id


@pytest.mark.parametrize("lang", LANGS)
def test_a_chapter_lists_its_exercises_in_reading_order(lang):
    """Pages in the nav's order (6.1 before 6.2, although "reading-and-playing" sorts before
    "videos"), and top to bottom on one page (1.1's single step before the whole sentence)."""
    order = PAGES.reading_order(lang)
    assert order.index("ch6-animation-frames") < order.index("ch6-grid-shapes")
    assert order.index("ch1-rnn-step") < order.index("ch1-read-sentence")
    assert order.index("ch0-dot-table") < order.index("ch9-online-softmax")
    assert list(PAGES.exercises_data(lang)["exercises"]) == order
    listed = re.findall(r"\]\((\S+)\)", PAGES.progress_markdown("ch1", lang, "ch1/index.md"))
    assert listed[:2] == ["telephone-game.md#exercise-ch1-rnn-step", "telephone-game.md#exercise-ch1-read-sentence"]
    assert listed[2:] == [f"from-paper-to-chatgpt.md#question-{q}" for q in ("ch1-handoffs", "ch1-weight-scale", "ch1-scores-growth")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_pdf_page_prints_the_starter_and_the_solution(lang):
    """Print form: the starter code and the reference solution in a fold (printed open)."""
    page = (SITE / ("en/" if lang == "en" else "") / "ch3/softmax/index.html").read_text(encoding="utf-8")
    print_form = page.split('data-widget="exercise"', 1)[1].split('class="print-only"', 1)[1]
    text = re.sub(r"<[^>]+>", "", print_form.split("</details>", 1)[0])
    solution = for_language(EXERCISES["ch3/softmax.py"].solution, lang)
    assert "def softmax(x):" in text and "np.max(x)" in html.unescape(text), text[:500]
    assert all(line.strip() in html.unescape(text) for line in solution.splitlines() if line.strip())


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_a_reader_solves_one_exercise_per_chapter_with_one_python(lang):
    """As a reader would: on the first chapter's page a wrong answer gets its case and hint, a
    runaway loop is stopped, then a right answer is marked solved; then, moving through the
    chapters by the site's own (instant) navigation, one exercise per chapter is solved with the
    same Python (no check after the first chapter's waits for a start-up); each chapter's index
    counts the solved ones."""
    from bookbuild.browser import launch, serve_site

    data = json.loads((SITE / ("en/" if lang == "en" else "") / "data/widgets/exercises.json").read_text(encoding="utf-8"))
    prefix = "/en/" if lang == "en" else "/"
    first = {}
    for exercise_id, item in data["exercises"].items():
        first.setdefault(item["chapter"], (exercise_id, item))
    with serve_site() as base, launch() as browser:
        page = browser.new_page(375 if lang == "zh" else 1280, csp=True)
        page.set_default_timeout(180_000)
        workers = []
        page.on("request", lambda r: r.url.endswith("/worker.js") and workers.append(r.url))

        def widget(exercise_id):
            return page.locator(f'[data-exercise="{exercise_id}"]')

        def check(exercise_id, source):
            w = widget(exercise_id)
            w.locator("textarea").fill(source)
            w.locator('[data-action="check"]').click()
            page.wait_for_function(
                "id => !['checking', 'idle'].includes(document.querySelector(`[data-exercise='${id}'] .ex-status`).dataset.state)",
                arg=exercise_id)
            return w.locator(".ex-status").get_attribute("data-state"), w.locator(".ex-result").inner_text()

        chapters = sorted(first)
        exercise_id, item = first[chapters[0]]
        # Start where Python is not allowed by the page's policy (no data-python): the worker has its own
        page.goto(base + prefix + chapters[0] + "/")
        page.locator('[data-widget="exercise-progress"] li').first.wait_for()
        page.follow(base + prefix + item["url"])
        widget(exercise_id).locator('[data-action="check"]').wait_for()
        wrong = next(iter(EXERCISES_BY_ID[exercise_id].wrong.values()))
        state, message = check(exercise_id, for_language(wrong.source, lang))
        assert state == "failed-case" and (wrong.hint or EXERCISES_BY_ID[exercise_id].cases[wrong.case].hint)[lang] in message, message
        # a loop that never ends: Stop, then Python works again
        w = widget(exercise_id)
        w.locator("textarea").fill(f"def {item['function']}(*args):\n    while True:\n        pass\n")
        w.locator('[data-action="check"]').click()
        w.locator('[data-action="stop"]').click()
        page.wait_for_function("id => document.querySelector(`[data-exercise='${id}'] .ex-status`).dataset.state === 'stopped'",
                               arg=exercise_id)
        for n, chapter in enumerate(chapters):
            exercise_id, item = first[chapter]
            if n:   # the page's content is swapped, the scripts (and the Python worker) stay
                page.follow(base + prefix + item["url"])
            widget(exercise_id).locator('[data-action="check"]').wait_for()
            state, message = check(exercise_id, item["solution"])
            assert state == "passed", f"{lang} {exercise_id}: {message}"
            if n:   # the Python that checked the previous chapter checks this one: no new start-up
                assert widget(exercise_id).get_attribute("data-python-was-ready") == "true", (lang, exercise_id)
            assert widget(exercise_id).locator(".ex-solved").is_visible()
        page.follow(base + prefix + chapters[0] + "/")
        progress = page.locator('[data-widget="exercise-progress"]')
        progress.locator("li").first.wait_for()
        assert progress.get_attribute("data-solved") == "1"
        progress.locator('[data-action="clear"]').click()
        progress.locator('[data-action="confirm-clear"]').click()
        assert progress.get_attribute("data-solved") == "0"
        assert 1 <= len(workers) <= 3, f"{lang}: Python started {len(workers)} times"   # first, spare, maybe a spare's spare
        assert not page.errors and not page.outside, (page.errors, page.outside)


SOFTMAX = {"right": "import numpy as np\n\ndef softmax(x):\n    e = np.exp(x - np.max(x))\n    return e / np.sum(e)\n",
           "wrong": "import numpy as np\n\ndef softmax(x):\n    e = np.exp(x - np.min(x))\n    return e / np.sum(e)\n"}
HOSTILE = {
    "del builtins.len": "import builtins\ndel builtins.len\n\ndef softmax(x):\n    return x\n",
    "np.allclose": ("import numpy as np\nnp.allclose = lambda *a, **k: True\nnp.isclose = np.allclose\n\n"
                    "def softmax(x):\n    return x\n"),
}


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_in_the_page_the_time_limit_fires_and_hostile_code_fools_no_later_check(lang):
    """As a reader hunting for holes would, on 3.3's softmax exercise: a silent loop (in the
    function in one book, at the top level in the other) is stopped by the time limit within it
    plus 2 s; after code that deleted a builtin, and after code that patched np.allclose, a right
    answer passes and a wrong one fails at its case with its hint; sys.exit() and import js are
    named as what they are; the page's listing still runs and prints the book's output; a listing
    that closes the worker leaves a Python that answers the next run."""
    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    data = json.loads((SITE / prefix.strip("/") / "data/widgets/exercises.json").read_text(encoding="utf-8"))
    limit = data["timeout"]
    ex = EXERCISES_BY_ID["ch3-softmax"]
    subtracts_min = ex.wrong["subtracts-min"]
    with serve_site() as base, launch() as browser:
        page = browser.new_page(1280, csp=True)
        page.set_default_timeout(180_000)
        widget = page.locator('[data-exercise="ch3-softmax"]')

        def check_page(source):
            widget.locator("textarea").fill(source)
            started = time.perf_counter()
            widget.locator('[data-action="check"]').click()
            page.wait_for_function(
                "() => !['checking', 'idle'].includes(document.querySelector(`[data-exercise='ch3-softmax'] .ex-status`).dataset.state)")
            state = widget.locator(".ex-status").get_attribute("data-state")
            message = widget.locator(".ex-result").inner_text() if widget.locator(".ex-result").is_visible() else ""
            return state, widget.locator(".ex-result").get_attribute("data-kind"), message, time.perf_counter() - started

        def passes():
            state, _, message, _ = check_page(SOFTMAX["right"])
            assert state == "passed", message
            state, kind, message, _ = check_page(SOFTMAX["wrong"])
            assert state == "failed-case" and kind == "nonfinite", message
            assert subtracts_min.hint[lang] in message and message.startswith(
                "第 4 个用例" if lang == "zh" else "Case 4 of"), message

        page.goto(base + prefix + "ch3/softmax/")
        widget.locator('[data-action="check"]').wait_for()
        passes()                                            # Python has started: the limit counts the code alone
        loop = ("def softmax(x):\n    while True:\n        pass\n" if lang == "zh" else "while True:\n    pass\n")
        state, _, _, seconds = check_page(loop)
        assert state == "timeout", state
        assert limit - 0.5 <= seconds <= limit + 2, f"{lang}: the time limit of {limit} s fired after {seconds:.1f} s"
        assert str(limit) in widget.locator(".ex-status").inner_text()
        passes()
        for name, source in HOSTILE.items():
            state, kind, message, _ = check_page(source)
            assert kind == "tampered" and widget.get_attribute("data-restarted") == "after", (name, message)
            assert _in_language(message, lang)
            passes()
        state, kind, message, _ = check_page("import sys\nsys.exit()\n")
        assert kind == "exit" and "sys.exit()" in message and _in_language(message, lang), message
        state, kind, message, _ = check_page("import js\njs.close()\n")
        assert kind == "blocked" and "import js" in message, message
        passes()
        # the page's listing runs in the same Python and prints the book's output
        page.locator('button.listing-edit[data-listing="ch3/softmax_cake.py"]').click()
        editor = page.locator(".listing-live textarea")
        editor.wait_for()
        book_code = editor.input_value()
        done = ("() => ['same', 'differs', 'failed', 'stopped'].includes("
                "document.querySelector('.listing-live').dataset.state)")
        page.click('.listing-live [data-action="run"]')
        page.wait_for_function(done)
        assert page.get_attribute(".listing-live", "data-state") == "same", page.inner_text(".listing-result")
        # a listing (not a check: nothing is hidden from it) that closes its worker: the next run gets a new one
        editor.fill("import js\njs.close()\n")
        page.click('.listing-live [data-action="run"]')
        page.wait_for_function(done)
        editor.fill(book_code)
        started = time.perf_counter()
        page.click('.listing-live [data-action="run"]')
        page.wait_for_function(done)
        assert page.get_attribute(".listing-live", "data-state") == "same", page.inner_text(".listing-result")
        assert time.perf_counter() - started < limit, "the run after js.close() waited for the closed worker"
        passes()
        assert not page.errors and not page.outside, (page.errors, page.outside)
