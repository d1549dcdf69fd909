"""The checked questions: a question with one right answer (a choice, or a number), checked in the page.

``questions/chN.py`` holds ``QUESTIONS``, a list of :class:`Question` written natively in both languages;
their numbers are computed by attnkit in f-strings with the pages' own formatters (``num`` ... ``sci``
below), never typed. ``{{ question("ch3-softmax-shift") }}`` (bookbuild/exercise_pages.py) writes
:func:`question_markdown`: the prompt, the choices, a line to answer on in print, the answer in a fold,
and the widget (overrides/assets/widgets/question.js) that checks an answer in the page against
:func:`questions_data` and remembers it. Every question has the anchor ``#question-<id>``.
"""

from __future__ import annotations

import functools
import html
import math
import re
import runpy
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from mkdocs.exceptions import PluginError

from .bookcache import ATTNKIT, digest_for, load_yaml, sources
from .course import DOCS, LANGS, ROOT

QUESTIONS = ROOT / "questions"
EMBED = re.compile(r"""\{\{\s*question\(\s*["'](?P<id>[a-z0-9-]+)["']\s*(?:,\s*(?:n\s*=\s*)?\d+\s*)?\)\s*\}\}""")
LETTERS = "ABCDEFGH"
ID = re.compile(r"^ch\d+-[a-z0-9]+(?:-[a-z0-9]+)*$")

LABELS = load_yaml(DOCS / "labels.yml")["questions"]


@functools.lru_cache(maxsize=1)
def _page_macros() -> dict:
    """The macros bookbuild/macros.py's define_env registers, collected with a stand-in environment."""
    from . import macros

    found = {}
    macros.define_env(SimpleNamespace(variables={}, macro=lambda f, name="": found.setdefault(name or f.__name__, f)))
    return found


def _formatter(name: str):
    return lambda *args, **kwargs: _page_macros()[name](*args, **kwargs)


# The pages' formatters: num(0.94649, 3) -> 0.946, pct(0.94649) -> 94.6%, vec([0.5, 0.25]) -> [0.500, 0.250],
# zhnum(11_000_000) -> 1100 万 (Chinese number habits), sci(2.1e-9) -> 2.1×10⁻⁹.
num, pct, vec, zhnum, sci = map(_formatter, ("num", "pct", "vec", "zhnum", "sci"))


def _texts(what: str, value) -> None:
    if not isinstance(value, dict) or set(value) != set(LANGS) or not all(isinstance(v, str) and v.strip() for v in value.values()):
        raise ValueError(f"{what} must be a dict with non-empty 'zh' and 'en' texts, got {value!r}")


@dataclass(frozen=True)
class Choice:
    """One answer to pick: its ``text`` and ``why`` it is right or wrong (Markdown, both languages)."""
    text: dict
    why: dict
    right: bool = False

    def __post_init__(self):
        _texts("Choice.text", self.text)
        _texts("Choice.why", self.why)


@dataclass(frozen=True)
class Mistake:
    """A wrong number readers give (in the units they type) and why it is wrong."""
    value: float
    why: dict

    def __post_init__(self):
        _texts("Mistake.why", self.why)


@dataclass(frozen=True)
class Question:
    """A question with one right answer.

    Either ``choices`` (two to six :class:`Choice`, exactly one ``right``), or ``number``: the
    answer, computed by attnkit, which the reader types to ``decimals`` decimal places (an answer
    within half a unit of the last place is right), as a percentage if ``percent`` (``number`` is
    then the share, 0.946 for 94.6%); ``explain`` says how it is found and ``mistakes`` the usual
    wrong numbers. ``title`` names it in the chapter's list; ``prompt`` is the question (Markdown).
    """
    id: str
    title: dict
    prompt: dict
    choices: tuple = ()
    number: float | None = None
    decimals: int = 0
    percent: bool = False
    explain: dict | None = None
    mistakes: tuple = ()

    def __post_init__(self):
        if not ID.match(self.id):
            raise ValueError(f"question id {self.id!r} must look like ch3-softmax-shift (its chapter first)")
        _texts(f"question {self.id!r}: title", self.title)
        _texts(f"question {self.id!r}: prompt", self.prompt)
        object.__setattr__(self, "choices", tuple(self.choices))
        object.__setattr__(self, "mistakes", tuple(self.mistakes))
        if self.choices and self.number is not None:
            raise ValueError(f"question {self.id!r} has both choices and a number: one right answer only")
        if self.choices:
            if not 2 <= len(self.choices) <= 6:
                raise ValueError(f"question {self.id!r} has {len(self.choices)} choices; give 2 to 6")
            if sum(c.right for c in self.choices) != 1:
                raise ValueError(f"question {self.id!r}: exactly one choice must be right, "
                                 f"{sum(c.right for c in self.choices)} are")
            if self.explain is not None or self.mistakes:
                raise ValueError(f"question {self.id!r}: a choice question says why in each choice (no explain, no mistakes)")
        elif self.number is not None:
            value = float(self.number)
            if not math.isfinite(value):
                raise ValueError(f"question {self.id!r}: its number is {self.number!r}, not a finite number")
            object.__setattr__(self, "number", value)
            if not isinstance(self.decimals, int) or not 0 <= self.decimals <= 6:
                raise ValueError(f"question {self.id!r}: decimals must be 0 to 6")
            _texts(f"question {self.id!r}: explain", self.explain)
            for mistake in self.mistakes:
                if abs(float(mistake.value) - self.typed) <= self.tolerance:
                    raise ValueError(f"question {self.id!r}: the mistake {mistake.value!r} is the right answer")
        else:
            raise ValueError(f"question {self.id!r} needs choices or a number")

    @property
    def chapter(self) -> str:
        return self.id.split("-")[0]

    @property
    def typed(self) -> float:
        """The right number as the reader types it (a percentage when ``percent``)."""
        return 100 * self.number if self.percent else self.number

    @property
    def tolerance(self) -> float:
        """How far a typed number may be from :attr:`typed`: half a unit of the last decimal asked for."""
        return 0.5 * 10.0 ** -self.decimals * (1 + 1e-9) + 1e-12

    def shown(self, typed: float | None = None) -> str:
        """The right number (or a ``typed`` one) as the answer shows it."""
        text = f"{self.typed if typed is None else float(typed):.{self.decimals}f}"
        return text + "%" if self.percent else text

    def right_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.right)


def load(files: list, variable: str, kind: str) -> dict:
    """{id: (path relative to the repository, item)} for each item of ``variable`` (one, or a list)
    of each file; an error in a file, or an id used twice, stops the build, named."""
    found = {}
    for path in files:
        where = path.relative_to(ROOT).as_posix()
        try:
            items = runpy.run_path(str(path))[variable]
        except Exception as error:  # noqa: BLE001
            raise PluginError(f"{kind}: {where} did not load: {type(error).__name__}: {error}") from None
        for item in items if isinstance(items, list) else [items]:
            if item.id in found:
                raise PluginError(f"{kind}: the id {item.id!r} is used twice ({found[item.id][0]} and {where})")
            found[item.id] = (where, item)
    return found


def get(items: dict, item_id: str, kind: str = "questions"):
    """The entry of ``item_id`` in ``items`` (:func:`load`), or a message that names the ids there are."""
    if item_id not in items:
        raise PluginError(f"{kind}: no {kind[:-1]} has the id {item_id!r}; there are {sorted(items)}")
    return items[item_id]


@functools.lru_cache(maxsize=1)
def load_all() -> dict:
    """{question id: (path relative to the repository, Question)} for every questions/ch*.py."""
    found = load(sorted(QUESTIONS.glob("ch*.py")), "QUESTIONS", "questions")
    for where, q in found.values():
        if q.chapter != Path(where).stem:
            raise PluginError(f"questions: {q.id!r} is in {where}, not in its chapter's file questions/{q.chapter}.py")
    return found


def embedded_in(lang: str) -> dict:
    """{question id: page (src_uri)} for every ``{{ question("…") }}`` in docs/<lang>/."""
    from .exercise_pages import embedded

    return embedded(lang, EMBED)


def inputs(lang: str) -> list:
    """What the questions' data depends on, for the caches' keys: the question files, this file and the
    formatters (bookbuild/macros.py), the pages that embed them, and the attnkit they run (with attnkit/text.py)."""
    files = sorted(QUESTIONS.glob("ch*.py"))
    return [sources(files + [Path(__file__), Path(__file__).with_name("macros.py")]),
            sorted(embedded_in(lang).items()),
            digest_for(files + [ATTNKIT / "text.py"])]


def _indented(text: str, spaces: int) -> str:
    """Continuation lines of a list item, indented under its first line."""
    lines = text.strip().splitlines()
    return "\n".join([lines[0]] + [" " * spaces + line if line.strip() else "" for line in lines[1:]])


def anchor(question_id: str) -> str:
    return f"question-{question_id}"


def question_markdown(question_id: str, lang: str, graded: bool = False, n: int | None = None) -> str:
    """The question as the page shows and prints it (see the module's docstring); ``n`` numbers it
    among the page's other questions (7.2's eight questions), as their folds are numbered."""
    _, q = get(load_all(), question_id)
    labels = LABELS[lang]
    a = anchor(question_id)
    number = "" if n is None else str(int(n)) + "\\. "       # "2\. ": a number, not the start of a Markdown list
    parts = [
        f'<div class="attn-question{" attn-question--graded" if graded else ""}" id="{a}" data-question="{question_id}" markdown>\n',
        (f'<p class="q-head"><span class="q-label">{labels["question"]}</span> '
         f'<a class="q-link" href="#{a}" title="{labels["link"]}" aria-label="{labels["link"]}">#</a></p>\n'),
        f'<div class="q-prompt" id="{a}-prompt" markdown>\n\n{number}{q.prompt[lang].strip()}\n\n</div>\n',
    ]
    if q.choices:
        items = "\n".join(f"{i + 1}. {_indented(c.text[lang], 3)}" for i, c in enumerate(q.choices))
        parts.append(f'<div class="q-choices" markdown>\n\n{items}\n\n</div>\n')
        write = labels["circle"].format(letters="\u2003".join(LETTERS[: len(q.choices)]))
        whys = "\n".join(f"{i + 1}. {_indented(c.why[lang], 3)}" for i, c in enumerate(q.choices))
        answer = labels["answerIs"].format(answer=LETTERS[q.right_index()])
        body = f"{answer}\n\n<div class=\"q-whys\" markdown>\n\n{whys}\n\n</div>\n"
    else:
        write = labels["write"] + "\u2003" + "_" * 16
        body = labels["answerIs"].format(answer=q.shown()) + f"\n\n{q.explain[lang].strip()}\n"
        if q.mistakes:
            mistakes = "\n".join(labels["mistake"].format(value=q.shown(m.value), why=_indented(m.why[lang], 2))
                                 for m in q.mistakes)
            body += f"\n<div class=\"q-mistakes\" markdown>\n\n{labels['mistakes']}\n\n{mistakes}\n\n</div>\n"
    parts += [f'<div class="attn-widget screen-only" data-widget="question" data-question="{question_id}"></div>\n',
              f'<div class="print-only q-write" markdown>\n\n{html.escape(write, quote=False)}\n\n</div>\n',
              f'<details class="success q-answer" markdown>\n<summary>{labels["answer"]}</summary>\n\n{body}\n</details>\n',
              "</div>\n"]
    return "\n".join(parts)


def questions_data(lang: str, url) -> dict:
    """What the question widget needs, for every question, in the order of the question files: its
    chapter, title, ``url(page that embeds it, or None)``, anchor and how an answer is checked."""
    pages = embedded_in(lang)
    data = {}
    for question_id, (_, q) in load_all().items():
        item = {"chapter": q.chapter, "title": q.title[lang], "url": url(pages.get(question_id)), "anchor": anchor(question_id)}
        if q.choices:
            item.update(kind="choice", choices=len(q.choices), right=q.right_index())
        else:
            item.update(kind="number", value=q.typed, tolerance=q.tolerance, decimals=q.decimals, percent=q.percent,
                        mistakes=[float(m.value) for m in q.mistakes])
        data[question_id] = item
    return data
