"""The coding exercises in the pages: what the page shows, prints and sends to the browser.

Each exercise is one file, ``exercises/chN/<stem>.py`` (an ``attnkit.exercise.Exercise``). A page
embeds one with the macro ``{{ exercise("ch3-softmax") }}``, which writes

* the widget ``<div data-widget="exercise" data-exercise="ch3-softmax" data-python>``: an editor
  with the starter code, a Check button, the result, the hints and the reference solution, each
  folded (overrides/assets/widgets/exercise.js). The reader's code is checked in the browser by
  ``attnkit.exercise.check`` in the playground's Python worker, offline;
* its printed form: the starter code and the reference solution in a fold (printed open).

The widget's ``id`` is the exercise's anchor, ``exercise-ch3-softmax``, which a teacher pastes
into a syllabus (``…/ch3/softmax/#exercise-ch3-softmax``); each checked question has
``#question-<id>`` (bookbuild/questions.py, the macro ``{{ question("…") }}``).

A chapter's index page lists the chapter's exercises and checked questions with
``{{ exercise_progress("ch3") }}``: how many of them this browser has solved or answered right
(remembered in localStorage, never sent anywhere), a button that downloads all the reader's code
for hand-in, and one that forgets the chapter's progress (drafts included: a shared computer).

A graded course is built with ``COURSE=graded`` in the environment (``make build COURSE=graded``):
the exercises' hints and reference solutions then stay closed until the reader's first check
(the widget's data says ``"graded": true``), the printed pages leave the reference solutions
and the questions' answers out, and the caches key on it. Unset (or ``COURSE=open``) is the book
as published.

:func:`exercises_data` is the widgets' JSON (``data/widgets/exercises.json``, written by
bookbuild/widgets.py): for each exercise, as this language's book shows it, the starter code,
the solution, the hints, the page that embeds it and the file the browser checks against (the
exercise files travel in ``assets/playground/attnkit.zip``, bookbuild/playground.py); and every
checked question: how its answer is checked (bookbuild/questions.py, :func:`questions.questions_data`).
"""

from __future__ import annotations

import functools
import html
import os
import posixpath
import re
import runpy
from pathlib import Path

from mkdocs.exceptions import PluginError

from attnkit.exercise import PAGE_SEED

from . import questions
from .listings import for_language

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
DOCS = ROOT / "docs"
EMBED = re.compile(r"""\{\{\s*exercise\(\s*["'](?P<id>[a-z0-9-]+)["']\s*\)\s*\}\}""")

LABELS = {
    "zh": {
        "check": "检查我的代码", "reset": "恢复起始代码", "stop": "停止",
        "editor": "在这里写代码：{function}", "editorHelp": "Tab 键缩进四格；先按 Esc 再按 Tab，可以离开编辑框。",
        "idle": "写好以后按“检查我的代码”。第一次检查时浏览器要先装好 Python，需要几秒。",
        "loading": "正在浏览器里准备 Python 和 NumPy……",
        "checking": "正在检查……",
        "stopped": "已停止。下次检查会重新启动 Python。",
        "timeout": "你的代码运行了 {seconds} 秒还没有结束，已停止。是不是有一个停不下来的循环？",
        "failed": "Python 没能在浏览器里启动：{error}",
        "restarting": "之前运行的代码改动过浏览器里的 Python，正在换一个新的 Python 来检查……",
        "checkerFailed": "检查程序自己出了错（{error}）。浏览器里的 Python 已重新启动，请再检查一次。",
        "drawn": "检查时还会另外出 {drawn} 个这里没有列出的用例，编号从 {first} 开始。",
        "solved": "已解决",
        "passed": "通过了！", "notYet": "还没通过：下面说了是哪一组输入、差在哪。",
        "notRun": "还没通过：原因见下面。",
        "printed": "你的代码打印的内容：",
        "hints": "提示", "solution": "参考答案",
        "progress": "本章的编程练习：已解决 {solved} / {total}",
        "questionProgress": "本章的小测：答对 {right} / {total}",
        "qAnsweredRight": "答对了", "qAnsweredWrong": "答过，还没答对",
        "clear": "忘掉我在本章的进度",
        "confirmClear": "这会从这个浏览器里删掉本章的解题记录、你写的代码和小测的答案，删掉就找不回来了。"
                        "要留着代码，先按“下载我的全部代码”。确定要删掉吗？",
        "clearAll": "忘掉我在全书的进度",
        "confirmClearAll": "这会从这个浏览器里删掉全书每一章的解题记录、你写的代码和小测的答案，删掉就找不回来了。"
                           "要留着代码，先按“下载我的全部代码”。确定要删掉吗？",
        "confirmYes": "删掉", "confirmNo": "不删了",
        "cleared": "已删掉本章的解题记录、代码和小测答案。",
        "clearedAll": "已删掉全书的解题记录、代码和小测答案。",
        "stored": "解题记录、你写的代码和小测答案只保存在这个浏览器里，不会发到任何地方。",
        "printStarter": "起始代码：",
        "link": "这道练习的链接",
        "download": "下载我的代码", "downloadAll": "下载我的全部代码",
        "handinNote": "“下载我的代码”把编辑框里的代码存成 {file}；“下载我的全部代码”把你在这个浏览器里写过的所有练习存进一个 zip 文件，可以直接交给老师。",
        "downloaded": "已下载 {file}。",
        "downloadedAll": "已下载一个 zip 文件，里面有 {n} 个练习的代码。",
        "nothingSaved": "这个浏览器里还没有保存你写的代码：在练习的编辑框里改动代码，就会自动保存。",
        "gradedNote": "这门课要求先自己试一次：按过一次“检查我的代码”以后，提示和参考答案才会出现。",
        "qCheck": "检查答案", "qRight": "答对了。", "qWrong": "还不对。",
        "qWrongNumber": "这个数不对。再算一遍，或者打开下面的“答案”看看是怎么算的。",
        "qClose": "很接近了，但还不够准：请保留 {n} {places}。",
        "qFraction": "题目要的是百分数：把这个数乘以 100，再写成百分数。",
        "qInvalid": "请填一个数，比如 0.25、-3 或 12.5%。", "qPick": "请先选一个答案。",
        "qYourAnswer": "你的答案：", "qWhole": "填一个整数。", "qDecimals": "填一个数，保留 {n} {places}。",
        "qPercent": "填一个百分数，保留 {n} {places}，比如 12.5%。", "places": ["位小数", "位小数"],
    },
    "en": {
        "check": "Check my code", "reset": "Back to the starting code", "stop": "Stop",
        "editor": "Write your code here: {function}", "editorHelp": "Tab indents by four spaces; press Esc, then Tab, to leave the editor.",
        "idle": "When you are ready, press \u201cCheck my code\u201d. The first check sets up Python in your browser, which takes a few seconds.",
        "loading": "Setting up Python and NumPy in your browser\u2026",
        "checking": "Checking\u2026",
        "stopped": "Stopped. The next check starts Python again.",
        "timeout": "Your code was still running after {seconds} seconds, so it was stopped. Is there a loop that never ends?",
        "failed": "Python could not start in your browser: {error}",
        "restarting": "Code run earlier changed the Python in your browser; checking with a new one\u2026",
        "checkerFailed": "The checker itself failed ({error}). The Python in your browser has started afresh: please check again.",
        "drawn": "The check also makes up {drawn} cases of its own, not listed here, numbered from {first} on.",
        "solved": "Solved",
        "passed": "It passes!", "notYet": "Not yet: below is the input that failed and how.",
        "notRun": "Not yet: the reason is below.",
        "printed": "What your code printed:",
        "hints": "Hints", "solution": "A reference solution",
        "progress": "This chapter's coding exercises: {solved} of {total} solved",
        "questionProgress": "This chapter's questions: {right} of {total} answered right",
        "qAnsweredRight": "answered right", "qAnsweredWrong": "tried, not right yet",
        "clear": "Forget my progress in this chapter",
        "confirmClear": "This deletes, from this browser, this chapter's solved marks, the code you wrote and your "
                        "answers to its questions, for good. To keep your code, press \u201cDownload all my work\u201d first. "
                        "Delete them?",
        "clearAll": "Forget all my work in this book",
        "confirmClearAll": "This deletes, from this browser, the solved marks, the code you wrote and your answers "
                           "in every chapter of the book, for good. To keep your code, press \u201cDownload all my "
                           "work\u201d first. Delete them?",
        "confirmYes": "Delete", "confirmNo": "Keep them",
        "cleared": "This chapter's solved marks, code and answers are deleted.",
        "clearedAll": "The solved marks, code and answers of the whole book are deleted.",
        "stored": "Solved marks, the code you write and your answers are kept in this browser only, and sent nowhere.",
        "printStarter": "Starting code:",
        "link": "Link to this exercise",
        "download": "Download my code", "downloadAll": "Download all my work",
        "handinNote": "\u201cDownload my code\u201d saves the code in the editor as {file}; \u201cDownload all my work\u201d saves "
                      "every exercise you have written in this browser in one zip file, ready to hand in.",
        "downloaded": "Downloaded {file}.",
        "downloadedAll": "Downloaded a zip file with your code for {n} exercises.",
        "nothingSaved": "No code of yours is saved in this browser yet: change the code in an exercise's editor "
                        "and it is saved as you type.",
        "gradedNote": "In this course you try first: the hints and the reference solution appear once you have "
                      "pressed \u201cCheck my code\u201d.",
        "qCheck": "Check my answer", "qRight": "Right.", "qWrong": "Not quite.",
        "qWrongNumber": "That is not the number. Work it out again, or open \u201cAnswer\u201d below to see how it is found.",
        "qClose": "Close, but not close enough: give it to {n} {places}.",
        "qFraction": "The question asks for a percentage: multiply your number by 100 and write it as a percentage.",
        "qInvalid": "Type a number, such as 0.25, -3 or 12.5%.", "qPick": "Pick an answer first.",
        "qYourAnswer": "Your answer:", "qWhole": "A whole number.", "qDecimals": "A number to {n} {places}.",
        "qPercent": "A percentage to {n} {places}, such as 12.5%.", "places": ["decimal place", "decimal places"],
    },
}
TIMEOUT_SECONDS = 15   # a check still running after this long is stopped (the worker is replaced)
COURSES = ("open", "graded")


def course_mode() -> str:
    """The kind of course the book is built for: "open" (the book as published) or "graded"
    (``COURSE=graded``: hints and solutions after a first attempt, no answers in print)."""
    value = os.environ.get("COURSE", "").strip().lower() or "open"
    if value not in COURSES:
        raise PluginError(f"exercises: COURSE={os.environ.get('COURSE')!r} is not a kind of course; "
                          f"use COURSE=graded (hints and solutions after a first attempt) or leave it unset")
    return value


@functools.lru_cache(maxsize=1)
def load_all() -> dict:
    """{exercise id: (path relative to the repository, Exercise)} for every exercises/ch*/*.py."""
    found = {}
    for path in sorted(EXERCISES.glob("ch*/*.py")):
        try:
            exercise = runpy.run_path(str(path))["EXERCISE"]
        except Exception as error:  # noqa: BLE001  (any error in an exercise file stops the build, named)
            raise PluginError(f"exercises: {path.relative_to(ROOT)} did not load: {type(error).__name__}: {error}") from None
        if exercise.id in found:
            raise PluginError(f"exercises: the id {exercise.id!r} is used by both {found[exercise.id][0]} and "
                              f"{path.relative_to(ROOT).as_posix()}")
        found[exercise.id] = (path.relative_to(ROOT).as_posix(), exercise)
    return found


def _get(exercise_id: str):
    exercises = load_all()
    if exercise_id not in exercises:
        raise PluginError(f"exercises: no exercise has the id {exercise_id!r}; there are {sorted(exercises)}")
    return exercises[exercise_id]


def _for_language(source: str, lang: str) -> str:
    """The exercise's code as the ``lang`` book shows it: the listings' [zh]/[en] filter."""
    return for_language(source, lang)


_EMBEDDED: dict = {}   # (lang, pattern) -> (the pages' sizes and times, what they embed): one read per edit


def embedded(lang: str, pattern: re.Pattern) -> dict:
    """{id: page (src_uri)} for every match of ``pattern`` (its group ``id``) in docs/<lang>/, read
    again when a page's size or modification time changes (a build asks about a hundred times)."""
    base = DOCS / lang
    paths = sorted(base.rglob("*.md"))
    stamp = tuple((path, path.stat().st_mtime_ns, path.stat().st_size) for path in paths)
    key = (lang, pattern.pattern)
    if _EMBEDDED.get(key, (None,))[0] != stamp:
        pages = {}
        for path in paths:
            for match in pattern.finditer(path.read_text(encoding="utf-8")):
                pages[match["id"]] = path.relative_to(base).as_posix()
        _EMBEDDED[key] = (stamp, pages)
    return dict(_EMBEDDED[key][1])


def embedded_in(lang: str) -> dict:
    """{exercise id: page (src_uri)} for every ``{{ exercise("…") }}`` in docs/<lang>/."""
    return embedded(lang, EMBED)


NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n#]+:\s+)?([\w./-]+\.(?:md|py))\s*(?:#.*)?$", re.M)


def reading_order(lang: str) -> list[str]:
    """Every exercise id as a reader meets them: pages in the nav's order (mkdocs.yml), then from
    the top of a page down. The chapter's list on its index page follows this order."""
    rank = {page: i for i, page in enumerate(NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text(encoding="utf-8")))}
    base = DOCS / lang
    where = {}
    for path in sorted(base.rglob("*.md")):
        page = path.relative_to(base).as_posix()
        for match in EMBED.finditer(path.read_text(encoding="utf-8")):
            where[match["id"]] = (rank.get(page, len(rank)), page, match.start())
    unplaced = (len(rank) + 1, "", 0)
    return sorted(load_all(), key=lambda exercise_id: (*where.get(exercise_id, unplaced), exercise_id))


def inputs(lang: str) -> list:
    """What the exercises shown in ``lang`` depend on besides attnkit, for the caches' keys (the
    widgets' data, and the converted pages that name ``exercise``): the exercise files, the
    [zh]/[en] filter (bookbuild/listings.py) and this file (labels), which page embeds each
    exercise, and the order a reader meets them in (mkdocs.yml's nav, the pages' embeds)."""
    from .bookcache import sources

    files = sorted(EXERCISES.glob("ch*/*.py")) + [ROOT / "bookbuild" / "exercise_pages.py", ROOT / "bookbuild" / "listings.py"]
    return [sources(files), sorted(embedded_in(lang).items()), reading_order(lang), course_mode(), questions.inputs(lang)]


def _url(page: str | None) -> str | None:
    """A page's URL from its language's site root (directory URLs): ch3/softmax.md -> ch3/softmax/."""
    if page is None:
        return None
    stem = page[: -len(".md")]
    return (posixpath.dirname(stem) + "/") if posixpath.basename(stem) == "index" else stem + "/"


def question_order(lang: str) -> list[str]:
    """Every checked question embedded in ``lang``'s book, as a reader meets them (like
    :func:`reading_order`), then those no page embeds, in their files' order."""
    rank = {page: i for i, page in enumerate(NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text(encoding="utf-8")))}
    base = DOCS / lang
    where = {}
    for path in sorted(base.rglob("*.md")):
        page = path.relative_to(base).as_posix()
        for match in questions.EMBED.finditer(path.read_text(encoding="utf-8")):
            where[match["id"]] = (rank.get(page, len(rank)), page, match.start())
    order = list(questions.load_all())
    return sorted(order, key=lambda q: (where.get(q, (len(rank) + 1, "", 0)), order.index(q)))


def anchor(exercise_id: str) -> str:
    return f"exercise-{exercise_id}"


def anchors(lang: str) -> dict:
    """{exercise or question id: its URL from the language's site root, with its anchor}, for
    every exercise and question embedded in ``lang``'s book (what a syllabus links to)."""
    found = {i: f"{_url(p)}#{anchor(i)}" for i, p in embedded_in(lang).items()}
    found.update({i: f"{_url(p)}#{questions.anchor(i)}" for i, p in questions.embedded_in(lang).items()})
    return found


def exercises_data(lang: str) -> dict:
    """The widgets' data: labels, the kind of course, every exercise as this language's book shows
    it, and every checked question (how its answer is checked)."""
    pages = embedded_in(lang)
    data = {}
    exercises = load_all()
    for exercise_id in reading_order(lang):
        path, ex = exercises[exercise_id]
        data[exercise_id] = {
            "title": ex.title[lang], "function": ex.function, "file": path,
            "chapter": path.split("/")[1], "url": _url(pages.get(exercise_id)), "anchor": anchor(exercise_id),
            "starter": _for_language(ex.starter, lang), "solution": _for_language(ex.solution, lang),
            "hints": [{"about": c.about[lang], "hint": c.hint[lang]} for c in ex.cases],
            "drawn": len(ex.draw(PAGE_SEED)),
        }
    asked = questions.questions_data(lang, url=_url)
    return {"labels": LABELS[lang], "timeout": TIMEOUT_SECONDS, "graded": course_mode() == "graded", "exercises": data,
            "questions": {q: asked[q] for q in question_order(lang)}}


def _code(source: str) -> str:
    return f"```python\n{source.rstrip()}\n```"


def exercise_markdown(exercise_id: str, lang: str) -> str:
    """The widget, whose id is the exercise's anchor, and its printed form (starter code, and the
    solution in a fold, except in a graded course)."""
    _, ex = _get(exercise_id)
    labels = LABELS[lang]
    solution = "\n".join("    " + line if line else "" for line in _code(_for_language(ex.solution, lang)).splitlines())
    fold = "" if course_mode() == "graded" else f'??? success "{labels["solution"]}"\n\n{solution}\n\n'
    return (
        f'<div class="attn-widget screen-only" id="{anchor(exercise_id)}" data-widget="exercise" data-exercise="{exercise_id}" '
        f'data-python></div>\n\n'
        f'<div class="print-only" markdown>\n\n'
        f"{labels['printStarter']}\n\n{_code(_for_language(ex.starter, lang))}\n\n"
        f"{fold}"
        f"</div>\n"
    )


def progress_markdown(chapter: str, lang: str, src_uri: str) -> str:
    """The chapter's exercises and checked questions with links to their anchors, and the widget
    that counts the solved and the answered ones."""
    pages = embedded_in(lang)
    exercises = load_all()
    items = [(i, exercises[i][1]) for i in reading_order(lang) if exercises[i][0].split("/")[1] == chapter]
    if not items:
        raise PluginError(f"exercises: exercise_progress({chapter!r}) on {src_uri}: the chapter has no exercise")
    here = posixpath.dirname(src_uri) or "."
    lines = []
    for exercise_id, ex in items:
        page = pages.get(exercise_id)
        if page is None:
            raise PluginError(f"exercises: {exercise_id} is not embedded on any page of the {lang} book")
        lines.append(f"- [{html.escape(ex.title[lang])}]({posixpath.relpath(page, here)}#{anchor(exercise_id)})")
    asked = questions.embedded_in(lang)
    listed = [q for q in question_order(lang) if q.startswith(chapter + "-") and q in asked]
    if listed:
        lines.append("")
        for question_id in listed:
            title = questions.get(question_id).title[lang]
            lines.append(f"- [{html.escape(title)}]({posixpath.relpath(asked[question_id], here)}#{questions.anchor(question_id)})")
    return (
        f'<div class="attn-widget screen-only" data-widget="exercise-progress" data-chapter="{chapter}"></div>\n\n'
        f'<div class="print-only" markdown>\n\n' + "\n".join(lines) + "\n\n</div>\n"
    )


def register_macros(env) -> None:
    """Add ``exercise(id)``, ``exercise_progress(chapter)`` and ``question(id)`` to a mkdocs-macros environment."""

    @env.macro
    def question(question_id: str, n: int | None = None) -> str:
        """A checked question (bookbuild/questions.py): the question, the widget, the answer in a fold;
        ``n`` numbers it among the page's folded questions."""
        return questions.question_markdown(question_id, env.conf["theme"]["language"], graded=course_mode() == "graded", n=n)

    @env.macro
    def exercise(exercise_id: str) -> str:
        """A coding exercise: the live widget and its printed form."""
        return exercise_markdown(exercise_id, env.conf["theme"]["language"])

    @env.macro
    def exercise_progress(chapter: str) -> str:
        """The chapter's coding exercises, and how many this browser has solved."""
        return progress_markdown(chapter, env.conf["theme"]["language"], env.page.file.src_uri)
