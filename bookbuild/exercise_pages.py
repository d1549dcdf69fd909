"""The coding exercises in the pages: what the page shows, prints and sends to the browser.

Each exercise is one file, ``exercises/chN/<stem>.py`` (an ``attnkit.exercise.Exercise``). A page
embeds one with the macro ``{{ exercise("ch3-softmax") }}``, which writes

* the widget ``<div data-widget="exercise" data-exercise="ch3-softmax" data-python>``: an editor
  with the starter code, a Check button, the result, the hints and the reference solution, each
  folded (overrides/assets/widgets/exercise.js). The reader's code is checked in the browser by
  ``attnkit.exercise.check`` in the playground's Python worker, offline;
* its printed form: the starter code and the reference solution in a fold (printed open).

A chapter's index page lists the chapter's exercises with ``{{ exercise_progress("ch3") }}``:
how many of them this browser has solved (remembered in localStorage, never sent anywhere).

:func:`exercises_data` is the widgets' JSON (``data/widgets/exercises.json``, written by
bookbuild/widgets.py): for each exercise, as this language's book shows it, the starter code,
the solution, the hints, the page that embeds it and the file the browser checks against (the
exercise files travel in ``assets/playground/attnkit.zip``, bookbuild/playground.py).
"""

from __future__ import annotations

import functools
import html
import posixpath
import re
import runpy
from pathlib import Path

from mkdocs.exceptions import PluginError

from attnkit.exercise import PAGE_SEED

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
        "clear": "清除本章的解题记录",
        "cleared": "已清除本章的解题记录。",
        "stored": "解题记录只保存在你的浏览器里。",
        "printStarter": "起始代码：",
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
        "clear": "Forget this chapter's solved exercises",
        "cleared": "This chapter's solved exercises are forgotten.",
        "stored": "Solved exercises are remembered in your browser only.",
        "printStarter": "Starting code:",
    },
}
TIMEOUT_SECONDS = 15   # a check still running after this long is stopped (the worker is replaced)


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


def embedded_in(lang: str) -> dict:
    """{exercise id: page (src_uri)} for every ``{{ exercise("…") }}`` in docs/<lang>/."""
    pages = {}
    base = DOCS / lang
    for path in sorted(base.rglob("*.md")):
        for match in EMBED.finditer(path.read_text(encoding="utf-8")):
            pages[match["id"]] = path.relative_to(base).as_posix()
    return pages


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
    return [sources(files), sorted(embedded_in(lang).items()), reading_order(lang)]


def _url(page: str | None) -> str | None:
    """A page's URL from its language's site root (directory URLs): ch3/softmax.md -> ch3/softmax/."""
    if page is None:
        return None
    stem = page[: -len(".md")]
    return (posixpath.dirname(stem) + "/") if posixpath.basename(stem) == "index" else stem + "/"


def exercises_data(lang: str) -> dict:
    """The widgets' data: labels, and every exercise as this language's book shows it."""
    pages = embedded_in(lang)
    data = {}
    exercises = load_all()
    for exercise_id in reading_order(lang):
        path, ex = exercises[exercise_id]
        data[exercise_id] = {
            "title": ex.title[lang], "function": ex.function, "file": path,
            "chapter": path.split("/")[1], "url": _url(pages.get(exercise_id)),
            "starter": _for_language(ex.starter, lang), "solution": _for_language(ex.solution, lang),
            "hints": [{"about": c.about[lang], "hint": c.hint[lang]} for c in ex.cases],
            "drawn": len(ex.draw(PAGE_SEED)),
        }
    return {"labels": LABELS[lang], "timeout": TIMEOUT_SECONDS, "exercises": data}


def _code(source: str) -> str:
    return f"```python\n{source.rstrip()}\n```"


def exercise_markdown(exercise_id: str, lang: str) -> str:
    """The widget and its printed form (starter code, and the solution in a fold)."""
    _, ex = _get(exercise_id)
    labels = LABELS[lang]
    solution = "\n".join("    " + line if line else "" for line in _code(_for_language(ex.solution, lang)).splitlines())
    return (
        f'<div class="attn-widget screen-only" data-widget="exercise" data-exercise="{exercise_id}" data-python></div>\n\n'
        f'<div class="print-only" markdown>\n\n'
        f"{labels['printStarter']}\n\n{_code(_for_language(ex.starter, lang))}\n\n"
        f'??? success "{labels["solution"]}"\n\n{solution}\n\n'
        f"</div>\n"
    )


def progress_markdown(chapter: str, lang: str, src_uri: str) -> str:
    """The chapter's exercises with links, and the widget that counts the solved ones."""
    pages = embedded_in(lang)
    exercises = load_all()
    items = [(i, exercises[i][1]) for i in reading_order(lang) if exercises[i][0].split("/")[1] == chapter]
    if not items:
        raise PluginError(f"exercises: exercise_progress({chapter!r}) on {src_uri}: the chapter has no exercise")
    lines = []
    for exercise_id, ex in items:
        page = pages.get(exercise_id)
        if page is None:
            raise PluginError(f"exercises: {exercise_id} is not embedded on any page of the {lang} book")
        link = posixpath.relpath(page, posixpath.dirname(src_uri) or ".")
        lines.append(f"- [{html.escape(ex.title[lang])}]({link})")
    return (
        f'<div class="attn-widget screen-only" data-widget="exercise-progress" data-chapter="{chapter}"></div>\n\n'
        f'<div class="print-only" markdown>\n\n' + "\n".join(lines) + "\n\n</div>\n"
    )


def register_macros(env) -> None:
    """Add ``exercise(id)`` and ``exercise_progress(chapter)`` to a mkdocs-macros environment."""

    @env.macro
    def exercise(exercise_id: str) -> str:
        """A coding exercise: the live widget and its printed form."""
        return exercise_markdown(exercise_id, env.conf["theme"]["language"])

    @env.macro
    def exercise_progress(chapter: str) -> str:
        """The chapter's coding exercises, and how many this browser has solved."""
        return progress_markdown(chapter, env.conf["theme"]["language"], env.page.file.src_uri)
