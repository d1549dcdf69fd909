"""Teaching with the book: learning objectives, the time each chapter takes, links for a syllabus.

docs/course.yml holds each chapter's objectives (both languages, each naming the exercise or question
that checks it) and the pace: the minutes a word, a listing line, a figure, a formula, a widget, a lab,
a question or an exercise takes. A chapter's time is counted (:func:`measure`) on its nav pages as the
build renders them, print-only blocks left out. The macros (:func:`register_macros`) write the box that
opens a chapter, the teacher's table and the links of plans and slides. Checks: tests/test_course.py.
"""

from __future__ import annotations

import functools
import html as htmllib
import math
import re
from dataclasses import dataclass, fields
from pathlib import Path

from markdown.extensions.toc import unique
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url
from mkdocs.utils.meta import get_data
from pymdownx.slugs import slugify

from .bookcache import load_yaml, text_of
from .listings import expand

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
COURSE = DOCS / "course.yml"
LANGS = ("zh", "en")
CHAPTERS = tuple(f"ch{n}" for n in range(13))
TEACH_HOW = {"zh": "teach.md#每章要多长时间", "en": "teach.md#how-long-each-chapter-takes"}

LABELS = load_yaml(DOCS / "labels.yml")["course"]   # the words, per language


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
                    if not (DOCS / lang / page).is_file():
                        raise CourseError(f"{where}: docs/{lang}/{page} does not exist")
                    count = len(QUESTION.findall(text_of(DOCS / lang / page)))
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


def nav_pages() -> list[str]:
    """Every page of the nav, in its order (mkdocs.yml; both languages share it)."""
    from .exercise_pages import NAV_PAGE

    return NAV_PAGE.findall(text_of(ROOT / "mkdocs.yml"))


def chapter_pages(chapter: str) -> list[str]:
    """The chapter's pages (index, sections, lab notebooks), in the nav's order."""
    return [p for p in nav_pages() if p.startswith(f"{chapter}/")]


def source(lang: str, page: str) -> str:
    """A page's Markdown as written, without its front matter."""
    return get_data(text_of(DOCS / lang / page))[0]


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


def sec(lang: str, what: str) -> str:
    """A chapter's number ("ch3" -> "3") or a section's ("ch3/softmax.md" -> "3.3") from its H1."""
    if what in CHAPTERS:
        found = re.search(r"\d+", title(lang, what + "/index.md"))
        if not found:
            raise PluginError(f"course: the title of {what}/index.md ({lang}) has no number")
        return found.group(0)
    if not re.fullmatch(r"\d+\.\d+", found := number(lang, what)):
        raise PluginError(f"course: docs/{lang}/{what} has no section number in its H1")
    return found


FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*(?:\{\s*#(?P<id>[\w-]+)[^}]*\})?\s*#*\s*$")
QUESTION = re.compile(r'^[ \t]*\?\?\?\+?[ \t]+question\b', re.M)


def headings(text: str) -> list[tuple[str, str]]:
    """(text, anchor) of every heading outside code fences, anchored as the toc extension does
    (mkdocs.yml: pymdownx's slugify, lower case, a repeated anchor numbered _1, _2, ...)."""
    slug = slugify(case="lower")
    found, ids, fence = [], set(), None
    for line in text.splitlines():
        if fence is None and (mark := FENCE_LINE.match(line)):
            fence = mark.group(1)[0] * 3
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None and (m := HEADING.match(line)):
            plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|[*_`]", "", m.group(1))    # macros and emphasis out
            anchor = m.group("id") or unique(slug(htmllib.unescape(plain), "-"), ids)
            if m.group("id"):
                ids.add(anchor)
            found.append((m.group(1), anchor))
    return found


def anchor_before(lang: str, page: str, offset: int) -> str:
    """"page#anchor" of the last heading above ``offset`` in a page, which must be a plain heading."""
    above = headings(source(lang, page)[:offset])
    if not above:
        raise PluginError(f"course: nothing in docs/{lang}/{page} heads the place a link points at")
    text, anchor = above[-1]
    if "{{" in text or "{%" in text:
        raise PluginError(f"course: the heading {text!r} of docs/{lang}/{page} holds a macro, so its anchor "
                          "cannot be known before the page is built; link a plain heading")
    return f"{page}#{anchor}"


def link(lang: str, from_page: str, target: str, text: str | None = None) -> str:
    """[text, or the H1 of the target's page](target, "ch3/softmax.md#x", relative to from_page)."""
    return f"[{text or title(lang, target.split('#')[0])}]({get_relative_url(target, from_page)})"


def slides_link(lang: str, from_page: str, chapter: str, text: str | None = None) -> str:
    """A link to a chapter's deck that leaves Material's instant navigation (a full page load)."""
    return link(lang, from_page, f"{chapter}/slides.md", text or LABELS[lang]["slides_link"]) + '{ target="_self" }'


def exercise_ref(lang: str, from_page: str, exercise_id: str) -> dict:
    """{"link": [the exercise's title](its page#the heading above it), "where": its section's number}."""
    from .exercise_pages import EMBED, embedded_in, load_all

    page = embedded_in(lang).get(exercise_id)
    if page is None:
        raise PluginError(f"course: the exercise {exercise_id!r} is on no page of the {lang} book")
    start = next(m.start() for m in EMBED.finditer(source(lang, page)) if m["id"] == exercise_id)
    text = LABELS[lang]["quoted"].format(t=load_all()[exercise_id][1].title[lang])
    return {"link": link(lang, from_page, anchor_before(lang, page, start), text), "where": number(lang, page)}


def check_link(lang: str, from_page: str, check: dict) -> str:
    """What checks an objective, as words with a link: "the exercise [A softmax …](…) in 3.3",
    "[question 4 of 3.6](…)" (in Chinese: "3.3 节的练习[“…”](…)", "[3.6 节第 4 题](…)")."""
    lab = LABELS[lang]
    if "exercise" in check:
        return lab["in_section"].format(what=lab["exercise"], **exercise_ref(lang, from_page, check["exercise"]))
    if "checked" in check:
        from .questions import anchor, embedded_in, get, load_all

        page = embedded_in(lang)[check["checked"]]
        text = lab["quoted"].format(t=get(load_all(), check["checked"])[1].title[lang])
        return lab["in_section"].format(what=lab["checked_question"], where=number(lang, page),
                                        link=link(lang, from_page, f"{page}#{anchor(check['checked'])}", text))
    page, n = check["question"], check["number"]
    found = list(QUESTION.finditer(source(lang, page)))
    if not 1 <= n <= len(found):
        raise PluginError(f"course: docs/{lang}/{page} has no folded question {n}")
    text = lab["question"].format(n=n, section=number(lang, page))
    return link(lang, from_page, anchor_before(lang, page, found[n - 1].start()), text)


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
    """Count what a page's rendered Markdown asks of a reader: its prose (Han characters, words), the
    lines of its listings, its figures, display formulas, widgets, questions and exercises.

    >>> load = measure('# T\\n\\nTwo words.\\n\\n![a](f.svg)\\n\\n??? question "1. Q?"\\n    Yes.\\n\\n'
    ...                '```python\\nx = 1\\n```\\n\\n\\\\[ a \\\\]\\n\\n<div data-widget="exercise"></div>')
    >>> (load.words, load.figures, load.questions, load.code_lines, load.formulas, load.exercises)
    (3, 1, 1, 1, 1, 1)
    """
    load = Load()
    text = PRINT_ONLY.sub("", markdown)
    load.questions = len(QUESTION.findall(text))
    text = CHECKED_ANSWER.sub("", FOLD.sub("", text))
    load.code_lines = sum(len(m.group(3).rstrip("\n").splitlines()) for m in FENCED.finditer(text))
    text = FENCED.sub("", text)
    kinds = WIDGET.findall(text)
    load.exercises = kinds.count("exercise")
    load.questions += kinds.count("question")                # the checked questions (bookbuild/questions.py)
    load.widgets = sum(kind not in ("exercise", "question", "exercise-progress") for kind in kinds)
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
    h, m = divmod(int(total), 60)
    return LABELS[lang]["hm" if h and m else "hours" if h else "minutes"].format(h=h, m=m)


# A page that shows a time (a chapter's index, the teacher's page, a deck) is rendered before the pages
# it counts, so it holds a placeholder (:func:`later`, private-use characters around a number) that
# :func:`fill` replaces once every page is rendered: in each page's HTML (on_post_page), the print page
# (bookbuild/offline_pdf.py) and the search index (bookbuild/search.py).
_MARKDOWN: dict[tuple[str, str], str] = {}   # (lang, page) -> its Markdown after its macros ran
_OWN: dict[tuple[str, str], list[str]] = {}  # the boxes this module wrote on that page (not counted)
_STANDALONE: dict[tuple[str, str], str] = {}  # a page a deck rendered before the build reached it
_LOADS: dict[tuple[str, str], "Load"] = {}
_LATER: list = []                             # what placeholder n becomes: a function of no argument
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")


def rendered_page(env) -> None:
    """Remember the page mkdocs-macros just rendered (``env.markdown``; macros.on_post_page_macros)."""
    _MARKDOWN[(env.conf["theme"]["language"], env.page.file.src_uri)] = env.markdown


OWN_MACROS = re.compile(r"\{\{\s*objectives\([^)]*\)\s*\}\}")


def rendered(env, lang: str, page: str) -> str:
    """A page's Markdown after its macros ran: as this build rendered it, or, for a page it has not
    rendered yet, rendered now through ``env`` (a deck's mkdocs-macros environment), once per build."""
    k = (lang, page)
    if k not in _MARKDOWN and k not in _STANDALONE:
        try:
            text = OWN_MACROS.sub("", source(lang, page))     # the box would be counted on the deck
            _STANDALONE[k] = env.env.from_string(text).render(**env.variables)
        except Exception as error:  # noqa: BLE001  (a page whose macros fail is reported by its own build too)
            raise PluginError(f"course: rendering docs/{lang}/{page} failed: {type(error).__name__}: {error}") from None
    return _MARKDOWN[k] if k in _MARKDOWN else _STANDALONE[k]


def later(text) -> str:
    """A placeholder that :func:`fill` replaces with ``text()``, once every page is rendered."""
    _LATER.append(text)
    return f"\ue000{len(_LATER) - 1}\ue001"


def fill(html: str) -> str:
    """``html`` with each placeholder of :func:`later` replaced by its text."""
    return PLACEHOLDER.sub(lambda m: _LATER[int(m[1])](), html) if "\ue000" in html else html


def page_load(lang: str, page: str) -> Load:
    """What a page of this build asks of a reader (counted on its rendered Markdown, once)."""
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
    return _LOADS[k]


def load_of(lang: str, what: str) -> Load:
    """The load of a chapter ("ch3") or of one page ("ch3/softmax.md")."""
    pages = chapter_pages(what) if what in CHAPTERS else [what]
    if not pages:
        raise PluginError(f"course: {what!r} is neither a chapter nor a page of the nav")
    return sum((page_load(lang, page) for page in pages), Load())


def times(lang: str, *what: str) -> tuple[int, int, int]:
    """(reading, practice, total) minutes of chapters or pages, each rounded; only once every page is rendered."""
    reading, practice = minutes(sum((load_of(lang, item) for item in what), Load()), lang)
    return rounded(reading), rounded(practice) if practice else 0, rounded(reading + practice)


def about_time(lang: str, *what: str, part: int = 2) -> str:
    """A placeholder for "about 2 h 10 min": the total time of ``what`` (part 0: reading, 1: practice)."""
    return later(lambda: LABELS[lang]["about"].format(t=duration(times(lang, *what)[part], lang)))


def objectives_box(lang: str, from_page: str, chapter: str) -> str:
    """The box that opens a chapter's index page: objectives, time, slides (not counted in the time)."""
    lab = LABELS[lang]
    body = [lab["objective"].format(n=n, text=item[lang].rstrip(), check=check_link(lang, from_page, item["check"]))
            for n, item in enumerate(objectives(chapter), 1)]
    reading, practice, total = (about_time(lang, chapter, part=part) for part in range(3))
    body += ["", lab["time_line"].format(total=total, reading=reading, practice=practice,
                                         how=get_relative_url(TEACH_HOW[lang], from_page)),
             "", lab["slides_line"].format(link=slides_link(lang, from_page, chapter))]
    box = f'!!! abstract "{lab["objectives"]}"\n\n' + "\n".join(f"    {line}" if line else "" for line in body) + "\n\n"
    _OWN.setdefault((lang, from_page), []).append(box)
    return box


def time_table(lang: str, from_page: str) -> str:
    """The teacher's page: one row per chapter with its reading, practice and total time."""
    lab = LABELS[lang]
    rows = [lab["table"], ["---", "---:", "---", "---:", "---"]]

    def practice_cell(chapter):
        load, practice = load_of(lang, chapter), times(lang, chapter)[1]
        form = lab["practice_cell_one" if load.exercises == 1 else "practice_cell"]
        return form.format(exercises=load.exercises, questions=load.questions, t=duration(practice, lang))

    for chapter in CHAPTERS:
        reading, total = (later(lambda c=chapter, p=part: duration(times(lang, c)[p], lang)) for part in (0, 2))
        rows.append([link(lang, from_page, chapter + "/index.md"), reading, later(lambda c=chapter: practice_cell(c)),
                     total, slides_link(lang, from_page, chapter, lab["open"])])
    return "".join(f"| {' | '.join(row)} |\n" for row in rows)


def pace_list(lang: str) -> str:
    """The assumptions of the time estimate, as a list (the numbers are docs/course.yml's)."""
    values = {k: f"{v:g}" for k, v in {**pace(), **pace()["minutes"]}.items() if k != "minutes"}
    return "".join(f"- {line.format(**values)}\n" for line in LABELS[lang]["pace"].values())


def page_macros(env, macros: dict) -> None:
    """Register each of ``macros`` under its name, called with the page's language and src_uri first."""
    for name, function in macros.items():
        env.macro(functools.partial(_call, env, function), name)


def _call(env, function, *args, **kwargs):
    return function(env.conf["theme"]["language"], env.page.file.src_uri, *args, **kwargs)


def register_macros(env) -> None:
    """The course's macros (bookbuild/macros.py registers them): the objectives box, times, links."""
    page_macros(env, {
        "objectives": objectives_box,
        "chapter_time": lambda lang, _, *what: about_time(lang, *what),   # "about 2 h 10 min": chapters or pages
        "time_table": time_table,
        "pace_list": lambda lang, _: pace_list(lang),
        "exercise_link": lambda lang, page, ex: LABELS[lang]["exercise_link"].format(**exercise_ref(lang, page, ex)),
        "question_link": lambda lang, page, q_page, n: check_link(lang, page, {"question": q_page, "number": n}),
        "checked_link": lambda lang, page, q_id: check_link(lang, page, {"checked": q_id}),
        "chapter_link": lambda lang, page, chapter: link(lang, page, chapter + "/index.md"),
        "sec": lambda lang, _, what: sec(lang, what),       # instead of typing a section's number
        "page_link": link,
        "slides": slides_link,
    })


def on_config(config):
    """Forget the last build's pages (the hook of bookbuild/hooks.py, as on_post_page)."""
    for memory in (_MARKDOWN, _STANDALONE, _OWN, _LOADS, _LATER):
        memory.clear()
    return config


def on_post_page(output, page, config):
    return fill(output)
