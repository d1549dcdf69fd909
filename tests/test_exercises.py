"""The exercises (exercises/chN/*.py) and the checker that marks a reader's code (attnkit.exercise).

Every exercise, in both languages: the reference solution passes; each plausible wrong solution
fails, first at the case it names, with that case's hint; the starter code fails without an
error from inside the checker. Each message is in its own language only. Then the checker
itself on what a reader can type: code that does not parse, raises, calls input(), prints
without end, returns None, the wrong shape or a NaN.
"""

from __future__ import annotations

import html
import json
import re
import runpy
from pathlib import Path

import numpy as np
import pytest

from attnkit.exercise import LANGS, Case, Exercise, check
from bookbuild.listings import for_language

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "exercises").glob("ch*/*.py"))
HAN = re.compile(r"[\u4e00-\u9fff]")


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
    assert listed == ["telephone-game.md", "telephone-game.md"]


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
        wrong_source, index = next(iter(EXERCISES_BY_ID[exercise_id].wrong.values()))
        state, message = check(exercise_id, for_language(wrong_source, lang))
        assert state == "failed-case" and EXERCISES_BY_ID[exercise_id].cases[index].hint[lang] in message, message
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
        assert progress.get_attribute("data-solved") == "0"
        assert 1 <= len(workers) <= 3, f"{lang}: Python started {len(workers)} times"   # first, spare, maybe a spare's spare
        assert not page.errors and not page.outside, (page.errors, page.outside)
