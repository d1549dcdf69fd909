"""The exercises (exercises/chN/*.py) and the checker that marks a reader's code (attnkit.exercise).

Every exercise, in both languages: the reference solution passes; each plausible wrong solution
fails, first at the case it names, with that case's hint; the starter code fails without an
error from inside the checker. Each message is in its own language only. Then the checker
itself on what a reader can type: code that does not parse, raises, calls input(), prints
without end, returns None, the wrong shape or a NaN.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import numpy as np
import pytest

from attnkit.exercise import LANGS, Case, Exercise, check
from listings import for_language

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "exercises").glob("ch*/*.py"))
HAN = re.compile(r"[\u4e00-\u9fff]")


def load(path: Path) -> Exercise:
    return runpy.run_path(str(path))["EXERCISE"]


EXERCISES = {path.relative_to(ROOT / "exercises").as_posix(): load(path) for path in FILES}


def test_every_chapter_with_exercises_has_at_least_two():
    chapters = {}
    for name in EXERCISES:
        chapters.setdefault(name.split("/")[0], []).append(name)
    assert chapters, "no exercise found under exercises/"
    assert all(len(names) >= 2 for names in chapters.values()), chapters


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


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_each_wrong_solution_fails_at_its_case_with_its_hint(name, lang):
    ex = EXERCISES[name]
    for mistake, (source, index) in ex.wrong.items():
        result = check(ex, for_language(source, lang), lang)
        assert not result.passed, f"{name}: the wrong solution {mistake!r} passes"
        assert result.case == index, f"{name}: {mistake!r} failed at case {result.case}, not {index}:\n{result.message}"
        assert ex.cases[index].hint[lang] in result.message, result.message
        assert _in_language(result.message, lang), result.message
        assert "Traceback" not in result.message and "exercise.py" not in result.message


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
    if lang == "en":
        assert not HAN.search(starter), starter


# --- the checker on what a reader can type --------------------------------------------------

DOUBLE = Exercise(
    id="demo-double", function="double", starter="def double(x):\n    ...\n",
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
        Exercise(id="x", function="f", starter="", solution="", cases=DOUBLE.cases, wrong={})
    with pytest.raises(ValueError, match="names case 5"):
        Exercise(id="x", function="f", starter="", solution="", cases=DOUBLE.cases, wrong={"w": ("", 5)})
    with pytest.raises(ValueError, match="lang must be one of"):
        check(DOUBLE, "", "fr")
