"""Teaching with the book: learning objectives, the time each chapter takes, links for a syllabus.

``docs/course.yml`` holds each chapter's learning objectives (both languages side by side, each
naming the exercise or the folded question that checks it) and the *pace*: the assumptions that
turn a chapter's text and exercises into minutes. Nothing else here is typed by hand.

* **Time.** A chapter takes the time of its pages (the nav's pages under ``chN/``). A page's
  Markdown as the build renders it (its numbers, tables and listings as the reader sees them,
  :func:`page_load`) is counted (:func:`measure`): the words (English) or
  the Han characters and Latin-script words (Chinese) of its prose; the lines of its listings, code
  and printed output; its figures, display formulas, interactive widgets and lab notebooks; its
  folded questions and coding exercises. The pace turns each count into minutes
  (:func:`minutes`); the teacher's page states it. Print-only blocks (a widget's static form) are
  not counted: on screen the widget stands in their place.
* **Objectives.** ``{{ objectives("ch3") }}`` writes the box that opens a chapter's index page: its
  objectives, each with a link to what checks it, the chapter's time and a link to its slides.
* **Links** for the teacher's page and the slides: an exercise (the heading it sits under), a
  folded question (the heading of its page's questions), a chapter, a chapter's slides (a full page
  load: slides are not a Material page, so the link must not go through instant navigation).

The checks: tests/test_course.py.
"""

from __future__ import annotations

import functools
import html as htmllib
import math
import posixpath
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from mkdocs.exceptions import PluginError

from .bookcache import load_yaml, text_of

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
COURSE = DOCS / "course.yml"
LANGS = ("zh", "en")
CHAPTERS = tuple(f"ch{n}" for n in range(13))
TEACH_PAGE = "teach.md"
SLIDES = "slides.md"           # a chapter's deck: docs/<lang>/chN/slides.md (bookbuild/slides.py)

LABELS = load_yaml(DOCS / "labels.yml")["course"]   # the words, per language


# --------------------------------------------------------------------------
# docs/course.yml
# --------------------------------------------------------------------------


class CourseError(PluginError):
    """docs/course.yml cannot be used; the message names the chapter, the objective and the field."""


@functools.lru_cache(maxsize=4)
def _load(mtime: float) -> dict:
    data = load_yaml(COURSE)
    check_course(data)
    return data


def course() -> dict:
    """docs/course.yml, checked (:func:`check_course`)."""
    return _load(COURSE.stat().st_mtime)


def check_course(data) -> None:
    """Raise CourseError naming the place of the first problem: every chapter has 3 to 5
    objectives, each with both languages and a check that exists in its chapter."""
    from . import questions
    from .exercise_pages import load_all

    if not isinstance(data, dict) or not isinstance(data.get("pace"), dict) or not isinstance(data.get("objectives"), dict):
        raise CourseError("docs/course.yml needs a mapping with `pace:` and `objectives:`")
    pace = data["pace"]
    for name in ("words_per_minute", "han_per_minute", "code_lines_per_minute", "round_to"):
        if not isinstance(pace.get(name), (int, float)) or pace[name] <= 0:
            raise CourseError(f"docs/course.yml, pace.{name}: a positive number is needed")
    for name in ("figure", "formula", "widget", "lab", "question", "exercise"):
        if not isinstance((pace.get("minutes") or {}).get(name), (int, float)) or pace["minutes"][name] < 0:
            raise CourseError(f"docs/course.yml, pace.minutes.{name}: a number of minutes is needed")
    exercises = load_all()
    for chapter in CHAPTERS:
        items = data["objectives"].get(chapter)
        if not isinstance(items, list) or not 3 <= len(items) <= 5:
            raise CourseError(f"docs/course.yml, objectives.{chapter}: 3 to 5 objectives are needed, "
                              f"found {len(items) if isinstance(items, list) else 'none'}")
        for n, item in enumerate(items, 1):
            where = f"docs/course.yml, objectives.{chapter}, objective {n}"
            for lang in LANGS:
                if not isinstance(item.get(lang), str) or not item[lang].strip():
                    raise CourseError(f"{where}: `{lang}` is missing or empty")
            check = item.get("check") or {}
            if "exercise" in check:
                found = exercises.get(check["exercise"])
                if found is None:
                    raise CourseError(f"{where}: no exercise has the id {check['exercise']!r}")
                if found[0].split("/")[1] != chapter:
                    raise CourseError(f"{where}: the exercise {check['exercise']!r} belongs to another chapter ({found[0]})")
            elif "question" in check:
                page, number = check["question"], check.get("number")
                if not str(page).startswith(f"{chapter}/"):
                    raise CourseError(f"{where}: the question's page {page!r} is not in {chapter}/")
                for lang in LANGS:
                    path = DOCS / lang / page
                    if not path.is_file():
                        raise CourseError(f"{where}: docs/{lang}/{page} does not exist")
                    count = len(QUESTION.findall(path.read_text(encoding="utf-8")))
                    if not isinstance(number, int) or not 1 <= number <= count:
                        raise CourseError(f"{where}: docs/{lang}/{page} has {count} folded question{'' if count == 1 else 's'}, "
                                          f"so `number: {number}` names none of them")
            elif "checked" in check:
                for lang in LANGS:
                    page = questions.embedded_in(lang).get(check["checked"])
                    if page is None:
                        raise CourseError(f"{where}: no page of docs/{lang}/ embeds the checked question {check['checked']!r}")
                    if not page.startswith(f"{chapter}/"):
                        raise CourseError(f"{where}: the checked question {check['checked']!r} is on {page}, not in {chapter}/")
            else:
                raise CourseError(f"{where}: `check:` needs `exercise: <id>`, `checked: <question id>`, "
                                  "or `question: <page>` with `number: N`")


def pace() -> dict:
    return course()["pace"]


def objectives(chapter: str) -> list[dict]:
    return course()["objectives"][chapter]


# --------------------------------------------------------------------------
# the nav, pages and their headings
# --------------------------------------------------------------------------


def nav_pages() -> list[str]:
    """Every page of the nav, in its order (mkdocs.yml; both languages share it)."""
    from .exercise_pages import NAV_PAGE

    return NAV_PAGE.findall(text_of(ROOT / "mkdocs.yml"))


def chapter_pages(chapter: str) -> list[str]:
    """The chapter's pages (index, sections, lab notebooks), in the nav's order."""
    return [p for p in nav_pages() if p.startswith(f"{chapter}/")]


def source(lang: str, page: str) -> str:
    """A page's Markdown as written, without its front matter."""
    text = text_of(DOCS / lang / page)
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            text = text[end + 5:]
    return text


def title(lang: str, page: str) -> str:
    """The H1 of a page (its title, with its number: "3.3 Softmax: …")."""
    for line in source(lang, page).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise PluginError(f"course: docs/{lang}/{page} has no H1 title")


def number(lang: str, page: str) -> str:
    """A section's number from its H1 ("3.3"), or the chapter's title for an index page."""
    head = title(lang, page)
    found = re.match(r"(\d+\.\d+)\s", head)
    return found.group(1) if found else head


FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#(?P<id>[\w-]+)[^}]*\})?\s*#*\s*$")
QUESTION = re.compile(r'^[ \t]*\?\?\?\+?[ \t]+question\b', re.M)


def headings(text: str) -> list[tuple[int, int, str, str]]:
    """(offset, level, text, anchor) of every heading of a page's Markdown, outside code fences,
    with the anchors the toc extension gives them (mkdocs.yml: pymdownx's slugify, lower case,
    a repeated anchor numbered _1, _2, ...). A heading with a macro is slugged without it:
    only the anchors of plain headings are used."""
    from markdown.extensions.toc import unique
    from pymdownx.slugs import slugify

    slug = slugify(case="lower")
    found, ids, fence, offset = [], set(), None, 0
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\n")
        mark = FENCE_LINE.match(stripped)
        if fence is None and mark:
            fence = mark.group(1)[0] * 3
        elif fence is not None and stripped.strip().startswith(fence):
            fence = None
        elif fence is None and (m := HEADING.match(stripped)):
            plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", m.group(2))
            plain = re.sub(r"[*_`]", "", plain)
            anchor = m.group("id") or unique(slug(htmllib.unescape(plain), "-"), ids)
            if m.group("id"):
                ids.add(anchor)
            found.append((offset, len(m.group(1)), m.group(2), anchor))
        offset += len(line)
    return found


def anchor_before(lang: str, page: str, offset: int) -> str:
    """The anchor of the last heading above ``offset`` in a page; a heading with a macro in it
    cannot be named here and stops the build, so that a link never points at a guessed anchor."""
    above = [h for h in headings(source(lang, page)) if h[0] < offset]
    if not above:
        raise PluginError(f"course: nothing in docs/{lang}/{page} heads the place a link points at")
    _, _, text, anchor = above[-1]
    if "{{" in text or "{%" in text:
        raise PluginError(f"course: the heading {text!r} of docs/{lang}/{page} holds a macro, so its anchor "
                          "cannot be known before the page is built; link a plain heading")
    return anchor


def rel(target: str, from_page: str) -> str:
    """A link from ``from_page`` to ``target`` ("ch3/softmax.md#x"), both relative to docs/<lang>/."""
    page, _, anchor = target.partition("#")
    link = posixpath.relpath(page, posixpath.dirname(from_page) or ".")
    return link + (f"#{anchor}" if anchor else "")


# --------------------------------------------------------------------------
# what checks an objective: exercises and questions
# --------------------------------------------------------------------------


def exercise_target(lang: str, exercise_id: str) -> str:
    """"ch3/softmax.md#write-it-yourself": the page that embeds the exercise, at the heading above it."""
    from .exercise_pages import EMBED, embedded_in

    page = embedded_in(lang).get(exercise_id)
    if page is None:
        raise PluginError(f"course: the exercise {exercise_id!r} is on no page of the {lang} book")
    text = source(lang, page)
    match = next(m for m in EMBED.finditer(text) if m["id"] == exercise_id)
    return f"{page}#{anchor_before(lang, page, match.start())}"


def question_target(lang: str, page: str, n: int) -> str:
    """The page of a folded question, at the heading its questions sit under."""
    text = source(lang, page)
    found = list(QUESTION.finditer(text))
    if not 1 <= n <= len(found):
        raise PluginError(f"course: docs/{lang}/{page} has no folded question {n}")
    return f"{page}#{anchor_before(lang, page, found[n - 1].start())}"


def quoted(lang: str, title_text: str) -> str:
    """An exercise's or a question's title as a link shows it: in “” in Chinese."""
    return f"“{title_text}”" if lang == "zh" else title_text


def exercise_text(lang: str, exercise_id: str) -> str:
    from .exercise_pages import load_all

    return quoted(lang, load_all()[exercise_id][1].title[lang])


def exercise_ref(lang: str, exercise_id: str, from_page: str) -> tuple[str, str]:
    """([the exercise's title](its page#the heading above it), the number of its section)."""
    target = exercise_target(lang, exercise_id)
    return f"[{exercise_text(lang, exercise_id)}]({rel(target, from_page)})", number(lang, target.split("#")[0])


def check_link(lang: str, check: dict, from_page: str) -> str:
    """What checks an objective, as words with a link: "the exercise [A softmax …](…) in 3.3",
    "[question 4 of 3.6](…)" (in Chinese: "3.3 节的练习[“…”](…)", "[3.6 节第 4 题](…)")."""
    lab = LABELS[lang]
    if "exercise" in check:
        link, where = exercise_ref(lang, check["exercise"], from_page)
        return f"{where} 节的{lab['exercise']}{link}" if lang == "zh" else f"{lab['exercise']} {link} in {where}"
    if "checked" in check:
        from .questions import anchor, embedded_in, get, load_all

        page = embedded_in(lang)[check["checked"]]
        title_text = quoted(lang, get(load_all(), check["checked"])[1].title[lang])
        link = f"[{title_text}]({rel(page + '#' + anchor(check['checked']), from_page)})"
        where = number(lang, page)
        return f"{where} 节的{lab['checked_question']}{link}" if lang == "zh" else f"{lab['checked_question']} {link} in {where}"
    page, n = check["question"], check["number"]
    text = lab["question"].format(n=n, section=number(lang, page))
    return f"[{text}]({rel(question_target(lang, page, n), from_page)})"


# --------------------------------------------------------------------------
# the time a page takes
# --------------------------------------------------------------------------


@dataclass
class Load:
    """What one page (or several) asks of a reader."""
    words: int = 0          # Latin-script words and numbers of its prose
    han: int = 0            # Han characters of its prose
    code_lines: int = 0     # lines of its listings: code and printed output
    figures: int = 0
    formulas: int = 0       # display formulas
    widgets: int = 0        # interactive widgets (not the exercises)
    labs: int = 0           # lab notebooks
    questions: int = 0      # folded questions
    exercises: int = 0      # coding exercises
    pages: list = field(default_factory=list)

    def __add__(self, other: "Load") -> "Load":
        return Load(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(Load)))


PRINT_ONLY = re.compile(r'<div class="print-only" markdown>.*?\n</div>', re.S)
FENCED = re.compile(r"^([ \t]*)(`{3,}|~{3,})[^\n]*\n(.*?)^\1\2[ \t]*$", re.S | re.M)
FOLD = re.compile(r"^([ \t]*)\?\?\?\+?[ \t]+question\b[^\n]*\n(?:(?:\1[ \t]{4}[^\n]*|[ \t]*)\n)*", re.M)
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
DISPLAY_MATH = re.compile(r"\\\[.*?\\\]", re.S)
INLINE_MATH = re.compile(r"\\\(.*?\\\)", re.S)
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
WIDGET = re.compile(r'data-widget="([\w-]+)"')
CHECKED_ANSWER = re.compile(r'<details class="success q-answer".*?</details>', re.S)   # a checked question's answer
TAG = re.compile(r"<[^>]+>")
MARKUP = re.compile(r"^[ \t]*(?:///[^\n]*|[!?]{3}\+?[ \t]+\w+|\{:[^}]*\}|[-*][ \t]|\d+\.[ \t]|#+[ \t]|>[ \t]?|\|[-: |]+\|)", re.M)
HAN = re.compile(r"[\u3400-\u9fff]")
WORD = re.compile(r"[A-Za-z0-9]+(?:['’.,-][A-Za-z0-9]+)*")


def measure(markdown: str) -> Load:
    """Count what a page's rendered Markdown asks of a reader (see the module docstring).

    >>> load = measure('# T\\n\\nTwo words.\\n\\n![a](f.svg)\\n\\n??? question "1. Q?"\\n    Yes.\\n\\n'
    ...                '```python\\nx = 1\\n```\\n\\n\\\\[ a \\\\]\\n\\n<div data-widget="exercise"></div>')
    >>> (load.words, load.figures, load.questions, load.code_lines, load.formulas, load.exercises)
    (3, 1, 1, 1, 1, 1)
    """
    load = Load()
    text = PRINT_ONLY.sub("", markdown)
    load.questions = len(QUESTION.findall(text))
    text = CHECKED_ANSWER.sub("", FOLD.sub("", text))

    def code(match):
        load.code_lines += len(match.group(3).rstrip("\n").splitlines())
        return ""

    text = FENCED.sub(code, text)
    for kind in WIDGET.findall(text):
        if kind == "exercise":
            load.exercises += 1
        elif kind == "question":                 # a checked question (bookbuild/questions.py)
            load.questions += 1
        elif kind != "exercise-progress":
            load.widgets += 1
    load.figures = len(IMAGE.findall(text))
    text = IMAGE.sub("", text)
    load.formulas = len(DISPLAY_MATH.findall(text))
    text = DISPLAY_MATH.sub("", text)
    text = INLINE_MATH.sub(" x ", text)             # a symbol or a short formula reads like a word
    text = LINK.sub(r"\1", text)
    text = MARKUP.sub("", TAG.sub(" ", text))
    load.han = len(HAN.findall(text))
    load.words = len(WORD.findall(HAN.sub(" ", text)))
    return load


def minutes(load: Load, lang: str) -> tuple[float, float]:
    """(reading, practice) minutes of a load, by the pace of docs/course.yml."""
    p = pace()
    each = p["minutes"]
    prose = load.words / p["words_per_minute"] + (load.han / p["han_per_minute"] if lang == "zh" else 0)
    reading = (prose + load.code_lines / p["code_lines_per_minute"] + load.figures * each["figure"]
               + load.formulas * each["formula"] + load.widgets * each["widget"] + load.labs * each["lab"])
    practice = load.questions * each["question"] + load.exercises * each["exercise"]
    return reading, practice


def rounded(value: float) -> int:
    """``value`` minutes to the nearest multiple of pace.round_to (a tie goes up), at least one step."""
    step = pace()["round_to"]
    return max(step, int(math.floor(value / step + 0.5)) * step)


def duration(total: int, lang: str) -> str:
    """85 -> "1 h 25 min" / "1 小时 25 分钟"."""
    lab = LABELS[lang]
    h, m = divmod(int(total), 60)
    if not h:
        return lab["minutes"].format(m=m)
    return lab["hours"].format(h=h) if not m else lab["hm"].format(h=h, m=m)


# --------------------------------------------------------------------------
# a page as its reader sees it, and the times written in once every page is rendered
# --------------------------------------------------------------------------
# A chapter's time is counted on its pages as the build renders them (their macros run, their
# listings expanded), each rendered once. The page that shows a time (a chapter's index page, the
# teacher's page, a deck) is rendered before pages it counts, so it holds a placeholder, :func:`later`,
# and :func:`fill` writes the time in once every page is rendered: into each page's HTML
# (on_post_page, registered in bookbuild/hooks.py), the print page (bookbuild/offline_pdf.py) and the
# search index (bookbuild/search.py). The placeholders are private-use characters around a number:
# no Markdown, HTML or hook of the book reads them as anything.

_MARKDOWN: dict[tuple[str, str], str] = {}   # (lang, page) -> its Markdown after its macros ran
_OWN: dict[tuple[str, str], list[str]] = {}  # the boxes this module wrote on that page (not counted)
_STANDALONE: dict[tuple[str, str], str] = {}  # a page a deck rendered before the build reached it
_LOADS: dict[tuple[str, str], "Load"] = {}
_LATER: list = []                             # what placeholder n becomes: a function of no argument
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")


def start_build() -> None:
    """Forget the last build's pages (on_config: once per build)."""
    for memory in (_MARKDOWN, _STANDALONE, _OWN, _LOADS, _LATER):
        memory.clear()


def rendered_page(env) -> None:
    """Remember the page mkdocs-macros just rendered (``env.markdown``; macros.on_post_page_macros)."""
    _MARKDOWN[(env.conf["theme"]["language"], env.page.file.src_uri)] = env.markdown


OWN_MACROS = re.compile(r"\{\{\s*objectives\([^)]*\)\s*\}\}")


def rendered(env, lang: str, page: str) -> str:
    """A page's Markdown after its macros ran: as this build rendered it, or, for a page it has not
    rendered yet, rendered now through ``env`` (a deck's mkdocs-macros environment), once per build."""
    k = (lang, page)
    if k in _MARKDOWN:
        return _MARKDOWN[k]
    if k not in _STANDALONE:
        try:
            text = OWN_MACROS.sub("", source(lang, page))     # the box would be counted on the deck
            _STANDALONE[k] = env.env.from_string(text).render(**env.variables)
        except Exception as error:  # noqa: BLE001  (a page whose macros fail is reported by its own build too)
            raise PluginError(f"course: rendering docs/{lang}/{page} failed: {type(error).__name__}: {error}") from None
    return _STANDALONE[k]


def later(text) -> str:
    """A placeholder that :func:`fill` replaces with ``text()``, once every page is rendered."""
    _LATER.append(text)
    return f"\ue000{len(_LATER) - 1}\ue001"


def fill(html: str) -> str:
    """``html`` with each placeholder of :func:`later` replaced by its text."""
    return PLACEHOLDER.sub(lambda m: _LATER[int(m[1])](), html) if "\ue000" in html else html


def page_load(lang: str, page: str) -> Load:
    """What a page of this build asks of a reader (counted on its rendered Markdown, once)."""
    from .listings import expand

    k = (lang, page)
    if k not in _LOADS:
        if page.endswith(".py"):                      # a lab notebook: counted as one lab
            _LOADS[k] = Load(labs=1)
        elif k not in _MARKDOWN:
            raise PluginError(f"course: docs/{lang}/{page} is in the nav but was not rendered by this build")
        else:
            text = _MARKDOWN[k]
            for box in _OWN.get(k, []):       # the box this module wrote is not counted
                if box not in text:
                    raise PluginError(f"course: docs/{lang}/{page}: the objectives box changed after the macros ran")
                text = text.replace(box, "", 1)
            _LOADS[k] = measure(expand(text, lang, f"docs/{lang}/{page}"))
        _LOADS[k].pages = [page]
    return _LOADS[k]


def load_of(lang: str, what: str) -> Load:
    """The load of a chapter ("ch3") or of one page ("ch3/softmax.md")."""
    pages = chapter_pages(what) if what in CHAPTERS else [what]
    if not pages:
        raise PluginError(f"course: {what!r} is neither a chapter nor a page of the nav")
    return sum((page_load(lang, page) for page in pages), Load())


def times(lang: str, *what: str) -> tuple[int, int, int]:
    """(reading, practice, total) minutes of chapters or pages, each rounded. Only once every page
    is rendered: a page writes a time with :func:`later`."""
    reading, practice = minutes(sum((load_of(lang, item) for item in what), Load()), lang)
    return rounded(reading), rounded(practice) if practice else 0, rounded(reading + practice)


def about_time(lang: str, *what: str, part: int = 2) -> str:
    """A placeholder for "about 2 h 10 min": the total time of ``what`` (part 0: reading, 1: practice)."""
    return later(lambda: LABELS[lang]["about"].format(t=duration(times(lang, *what)[part], lang)))


# --------------------------------------------------------------------------
# what the pages write
# --------------------------------------------------------------------------


def time_line(lang: str, chapter: str, from_page: str) -> str:
    """"**Time:** about 2 h 10 min (reading about 1 h 25 min, practice about 45 min; how …)"."""
    lab = LABELS[lang]
    reading, practice, total = (about_time(lang, chapter, part=part) for part in range(3))
    how = f"[{lab['how']}]({rel(TEACH_PAGE + '#' + TEACH_ANCHOR[lang], from_page)})"
    if lang == "zh":
        return f"**{lab['time']}**：{total}（{lab['reading']}{reading}，{lab['practice']}{practice}；{how}）"
    return f"**{lab['time']}:** {total} ({lab['reading']} {reading}, {lab['practice']} {practice}; {how})"


TEACH_ANCHOR = {"zh": "每章要多长时间", "en": "how-long-each-chapter-takes"}


def slides_link(lang: str, chapter: str, from_page: str, text: str | None = None) -> str:
    """A link to a chapter's deck that leaves Material's instant navigation (a full page load)."""
    return f'[{text or LABELS[lang]["slides_link"]}]({rel(f"{chapter}/{SLIDES}", from_page)}){{ target="_self" }}'


def objectives_markdown(lang: str, chapter: str, from_page: str) -> str:
    """The box that opens a chapter's index page."""
    lab = LABELS[lang]
    lines = [f'!!! abstract "{lab["objectives"]}"', ""]
    for n, item in enumerate(objectives(chapter), 1):
        check = check_link(lang, item["check"], from_page)
        if lang == "zh":
            lines.append(f"    {n}. {item[lang].rstrip()}*{lab['checked']}*：{check}。")
        else:
            lines.append(f"    {n}. {item[lang].rstrip()} *{lab['checked']}* {check}.")
    slides = f"**{lab['slides']}**：" if lang == "zh" else f"**{lab['slides']}:** "
    lines += ["", f"    {time_line(lang, chapter, from_page)}", "",
              f"    {slides}{slides_link(lang, chapter, from_page)}", ""]
    return "\n".join(lines) + "\n"


def time_table_markdown(lang: str, from_page: str) -> str:
    """The teacher's page: one row per chapter with its reading, practice and total time."""
    lab = LABELS[lang]
    rows = ["| " + " | ".join(lab["table"]) + " |", "| --- | ---: | --- | ---: | --- |"]

    def practice_cell(chapter):
        load, practice = load_of(lang, chapter), times(lang, chapter)[1]
        form = lab["practice_cell_one" if load.exercises == 1 else "practice_cell"]
        return form.format(exercises=load.exercises, questions=load.questions, t=duration(practice, lang))

    for chapter in CHAPTERS:
        reading, total = (later(lambda c=chapter, p=part: duration(times(lang, c)[p], lang)) for part in (0, 2))
        link = f"[{title(lang, chapter + '/index.md')}]({rel(chapter + '/index.md', from_page)})"
        rows.append(f"| {link} | {reading} | {later(lambda c=chapter: practice_cell(c))} | {total} | "
                    f"{slides_link(lang, chapter, from_page, lab['open'])} |")
    return "\n".join(rows) + "\n"


def pace_markdown(lang: str) -> str:
    """The assumptions of the time estimate, as a list (the numbers are docs/course.yml's)."""
    p, text = pace(), LABELS[lang]["pace"]
    fmt = lambda x: f"{x:g}"   # noqa: E731
    each = {k: fmt(v) for k, v in p["minutes"].items()}
    lines = [text["words"].format(n=fmt(p["han_per_minute"]), w=fmt(p["words_per_minute"])),
             text["code"].format(n=fmt(p["code_lines_per_minute"])),
             text["each"].format(**each), text["practice"].format(**each),
             text["round"].format(n=fmt(p["round_to"]))]
    return "\n".join(f"- {line}" for line in lines) + "\n"


def register_macros(env) -> None:
    """The course's macros (see the module docstring); bookbuild/macros.py registers them."""

    def here():
        return env.conf["theme"]["language"], env.page.file.src_uri

    @env.macro
    def objectives(chapter: str) -> str:
        """The box that opens a chapter's index page: objectives, time, slides."""
        lang, page = here()
        box = objectives_markdown(lang, chapter, page)
        _OWN.setdefault((lang, page), []).append(box)
        return box

    @env.macro
    def chapter_time(*what: str) -> str:
        """"about 2 h 10 min": the total time of chapters or pages ("ch3", "ch3/softmax.md")."""
        return about_time(here()[0], *what)

    @env.macro
    def time_table() -> str:
        lang, page = here()
        return time_table_markdown(lang, page)

    @env.macro
    def pace_list() -> str:
        return pace_markdown(here()[0])

    @env.macro
    def exercise_link(exercise_id: str) -> str:
        """[the exercise's title](its page#the heading above it) (its section's number)."""
        lang, page = here()
        link, where = exercise_ref(lang, exercise_id, page)
        return link + (f"（{where}）" if lang == "zh" else f" ({where})")

    @env.macro
    def question_link(question_page: str, n: int) -> str:
        lang, page = here()
        return check_link(lang, {"question": question_page, "number": n}, page)

    @env.macro
    def checked_link(question_id: str) -> str:
        lang, page = here()
        return check_link(lang, {"checked": question_id}, page)

    @env.macro
    def chapter_link(chapter: str) -> str:
        lang, page = here()
        return f"[{title(lang, chapter + '/index.md')}]({rel(chapter + '/index.md', page)})"

    @env.macro
    def sec(what: str) -> str:
        """A section's number from its H1 ("ch3/softmax.md" -> "3.3") or a chapter's ("ch3" -> "3"):
        what a deck or a plan says instead of typing the number."""
        lang, _ = here()
        if what in CHAPTERS:
            found = re.search(r"\d+", title(lang, what + "/index.md"))
            if not found:
                raise PluginError(f"course: the title of {what}/index.md ({lang}) has no number")
            return found.group(0)
        found = number(lang, what)
        if not re.fullmatch(r"\d+\.\d+", found):
            raise PluginError(f"course: docs/{lang}/{what} has no section number in its H1")
        return found

    @env.macro
    def page_link(target: str) -> str:
        lang, page = here()
        return f"[{title(lang, target.split('#')[0])}]({rel(target, page)})"

    @env.macro
    def slides(chapter: str, text: str | None = None) -> str:
        lang, page = here()
        return slides_link(lang, chapter, page, text)


# --------------------------------------------------------------------------
# the hook (bookbuild/hooks.py)
# --------------------------------------------------------------------------


def on_config(config):
    start_build()
    return config


def on_post_page(output, page, config):
    return fill(output)
