"""The coding exercises in the pages (CONTRIBUTING.md, "Add a coding exercise"): the macros
``exercise(id)`` (the widget, whose id is the anchor ``exercise-<id>``, and its printed form) and
``exercise_progress(chapter)`` (a chapter's exercises and checked questions, and the widget that
counts the solved ones), and :func:`exercises_data`, the widgets' JSON (data/widgets/exercises.json,
written by bookbuild/widgets.py). ``COURSE=graded`` builds a graded course: hints and solutions
after a first check, no answers in print.
"""

from __future__ import annotations

import functools
import html
import os
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

from attnkit.exercise import PAGE_SEED

from .bookcache import frozen, load_yaml, sources, text_of
from . import questions
from .listings import for_language

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
DOCS = ROOT / "docs"
EMBED = re.compile(r"""\{\{\s*exercise\(\s*["'](?P<id>[a-z0-9-]+)["']\s*\)\s*\}\}""")

# the words of the exercise, progress and question widgets (exercises.json) and of the printed exercises
LABELS = load_yaml(DOCS / "widget-labels.yml")["exercises"]
TIMEOUT_SECONDS = 15   # a check still running after this long is stopped (the worker is replaced)
COURSES = ("open", "graded")


def course_mode() -> str:
    """"open" (the book as published) or "graded" (``COURSE=graded``)."""
    value = os.environ.get("COURSE", "").strip().lower() or "open"
    if value not in COURSES:
        raise PluginError(f"exercises: COURSE={os.environ.get('COURSE')!r} is not a kind of course; "
                          f"use COURSE=graded (hints and solutions after a first attempt) or leave it unset")
    return value


@functools.lru_cache(maxsize=1)
def load_all() -> dict:
    """{exercise id: (path relative to the repository, Exercise)} for every exercises/ch*/*.py."""
    return questions.load(sorted(EXERCISES.glob("ch*/*.py")), "EXERCISE", "exercises")


_EMBEDDED: dict = {}   # (lang, pattern) -> (the pages' sizes and times, where each id is)


def _found(lang: str, pattern: re.Pattern) -> dict:
    """{id: (page (src_uri), offset)} for every match of ``pattern`` (its group ``id``) in
    docs/<lang>/ (the last one of an id), found again when a page's size or mtime changes, except in a
    build (bookcache.frozen: it asks ~235 times)."""
    key = (lang, pattern.pattern)
    if frozen() and key in _EMBEDDED:
        return _EMBEDDED[key][1]
    base = DOCS / lang
    paths = sorted(base.rglob("*.md"))
    stamp = tuple((path, path.stat().st_mtime_ns, path.stat().st_size) for path in paths)
    if _EMBEDDED.get(key, (None,))[0] != stamp:
        _EMBEDDED[key] = (stamp, {match["id"]: (path.relative_to(base).as_posix(), match.start())
                                  for path in paths for match in pattern.finditer(text_of(path))})
    return _EMBEDDED[key][1]


def embedded(lang: str, pattern: re.Pattern) -> dict:
    """{id: page (src_uri)} for every match of ``pattern`` (its group ``id``) in docs/<lang>/."""
    return {i: page for i, (page, _) in _found(lang, pattern).items()}


def embedded_in(lang: str) -> dict:
    """{exercise id: page (src_uri)} for every ``{{ exercise("…") }}`` in docs/<lang>/."""
    return embedded(lang, EMBED)


NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n#]+:\s+)?([\w./-]+\.(?:md|py))\s*(?:#.*)?$", re.M)


def _order(lang: str, pattern: re.Pattern, ids) -> list[str]:
    """``ids`` as a reader meets them (pages in the nav's order, then top down); those no page embeds last."""
    from .course import nav_pages

    rank = {page: i for i, page in enumerate(nav_pages())}
    where = {i: (rank.get(page, len(rank)), page, start) for i, (page, start) in _found(lang, pattern).items()}
    return sorted(ids, key=lambda i: where.get(i, (len(rank) + 1, "", 0)))


def reading_order(lang: str) -> list[str]:
    """Every exercise id as a reader meets them (the chapter's list on its index page follows it)."""
    return _order(lang, EMBED, sorted(load_all()))


def question_order(lang: str) -> list[str]:
    """Every checked question as a reader meets them, then those no page embeds, in their files' order."""
    return _order(lang, questions.EMBED, list(questions.load_all()))


def inputs(lang: str) -> list:
    """What the exercises shown in ``lang`` depend on besides attnkit and their words, for the caches'
    keys: the exercise files, the [zh]/[en] filter and this file, the pages that embed them and their order."""
    files = sorted(EXERCISES.glob("ch*/*.py")) + [ROOT / "bookbuild" / "exercise_pages.py", ROOT / "bookbuild" / "listings.py"]
    return [sources(files), sorted(embedded_in(lang).items()), reading_order(lang), course_mode(), questions.inputs(lang)]


def _url(page: str | None) -> str | None:
    """A page's URL from its language's site root: ch3/softmax.md -> ch3/softmax/."""
    if page is None:
        return None
    stem = page[: -len(".md")]
    return (posixpath.dirname(stem) + "/") if posixpath.basename(stem) == "index" else stem + "/"


def anchor(exercise_id: str) -> str:
    return f"exercise-{exercise_id}"


def anchors(lang: str) -> dict:
    """{exercise or question id: its URL, with its anchor} in ``lang``'s book (what a syllabus links to)."""
    found = {i: f"{_url(p)}#{anchor(i)}" for i, p in embedded_in(lang).items()}
    found.update({i: f"{_url(p)}#{questions.anchor(i)}" for i, p in questions.embedded_in(lang).items()})
    return found


def exercises_data(lang: str) -> dict:
    """The widgets' data: labels, the kind of course, every exercise and every checked question."""
    pages = embedded_in(lang)
    data = {}
    exercises = load_all()
    for exercise_id in reading_order(lang):
        path, ex = exercises[exercise_id]
        data[exercise_id] = {
            "title": ex.title[lang], "function": ex.function, "file": path,
            "chapter": path.split("/")[1], "url": _url(pages.get(exercise_id)), "anchor": anchor(exercise_id),
            "starter": for_language(ex.starter, lang), "solution": for_language(ex.solution, lang),
            "hints": [{"about": c.about[lang], "hint": c.hint[lang]} for c in ex.cases],
            "drawn": len(ex.draw(PAGE_SEED)),
        }
    asked = questions.questions_data(lang, url=_url)
    return {"labels": LABELS[lang], "timeout": TIMEOUT_SECONDS, "graded": course_mode() == "graded", "exercises": data,
            "questions": {q: asked[q] for q in question_order(lang)}}


def _code(source: str) -> str:
    return f"```python\n{source.rstrip()}\n```"


def exercise_markdown(exercise_id: str, lang: str) -> str:
    """The widget and its printed form (starter code, and the solution in a fold unless graded)."""
    _, ex = questions.get(load_all(), exercise_id, "exercises")
    labels = LABELS[lang]
    solution = "\n".join("    " + line if line else "" for line in _code(for_language(ex.solution, lang)).splitlines())
    fold = "" if course_mode() == "graded" else f'??? success "{labels["solution"]}"\n\n{solution}\n\n'
    return (f'<div class="attn-widget screen-only" id="{anchor(exercise_id)}" data-widget="exercise" '
            f'data-exercise="{exercise_id}" data-python></div>\n\n<div class="print-only" markdown>\n\n'
            f"{labels['printStarter']}\n\n{_code(for_language(ex.starter, lang))}\n\n{fold}</div>\n")


def progress_markdown(chapter: str, lang: str, src_uri: str) -> str:
    """The chapter's exercises and checked questions, linked, and the widget that counts them."""
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
            title = questions.load_all()[question_id][1].title[lang]
            lines.append(f"- [{html.escape(title)}]({posixpath.relpath(asked[question_id], here)}#{questions.anchor(question_id)})")
    return (f'<div class="attn-widget screen-only" data-widget="exercise-progress" data-chapter="{chapter}"></div>\n\n'
            f'<div class="print-only" markdown>\n\n' + "\n".join(lines) + "\n\n</div>\n")


def register_macros(env) -> None:
    """Add ``exercise(id)``, ``exercise_progress(chapter)`` and ``question(id)`` to a mkdocs-macros environment."""

    @env.macro
    def question(question_id: str, n: int | None = None) -> str:
        """A checked question (bookbuild/questions.py); ``n`` numbers it among the page's folded questions."""
        return questions.question_markdown(question_id, env.conf["theme"]["language"], graded=course_mode() == "graded", n=n)

    @env.macro
    def exercise(exercise_id: str) -> str:
        """A coding exercise: the live widget and its printed form."""
        return exercise_markdown(exercise_id, env.conf["theme"]["language"])

    @env.macro
    def exercise_progress(chapter: str) -> str:
        """The chapter's coding exercises, and how many this browser has solved."""
        return progress_markdown(chapter, env.conf["theme"]["language"], env.page.file.src_uri)
