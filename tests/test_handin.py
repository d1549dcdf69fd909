"""A course a teacher can run (issue 34): checked questions, deep links, hand-in, forgetting, graded courses.

* The checked questions (questions/chN.py, bookbuild/questions.py): at least three per chapter 0 to
  12, each embedded once per book in its own chapter, complete in both languages (Chinese in the
  Chinese book, none in the English one), one right answer, the usual wrong numbers not right, no
  answer with decimals typed into its file; the parsing and judging of a typed number and the zip
  writer of the page (run in Node, as the browser runs them).
* Deep links: every exercise (#exercise-<id>) and every question (#question-<id>) has its anchor on
  its page, once, the same in both languages, and every link of a chapter's list reaches one; no id
  is used twice on a page; a link opens the page at its exercise or question.
* In headless Chromium, both languages: "Download my code" saves <id>.py with the editor's code;
  "Download all my work" one zip of every draft, which attnkit.grade grades as it is; a question
  answered wrong then right (a choice and a number), remembered and counted on the chapter's index;
  "Forget my progress in this chapter" (after confirming) clears its drafts, answers and marks and
  leaves other chapters' alone.
* A graded course (COURSE=graded): the data and the printed forms without a build; then a built
  graded site where hints and the reference solution stay hidden until the first check.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from html.parser import HTMLParser
from importlib import import_module
from pathlib import Path

import pytest

from book import DOCS, LANGS, ROOT

SITE = ROOT / "site"
Q = import_module("bookbuild.questions")
PAGES = import_module("bookbuild.exercise_pages")
HAN = re.compile(r"[\u4e00-\u9fff]")
QUESTIONS = {i: q for i, (_, q) in Q.load_all().items()}


def site_path(lang: str, url: str) -> Path:
    return SITE / ("en" if lang == "en" else "") / url / "index.html"


# --- the questions, as written ----------------------------------------------------------------------

def test_every_chapter_has_at_least_three_checked_questions_on_its_own_pages():
    for lang in LANGS:
        where = Q.embedded_in(lang)
        assert sorted(where) == sorted(QUESTIONS), f"{lang}: embedded {sorted(where)}, defined {sorted(QUESTIONS)}"
        for question_id, page in where.items():
            assert page.split("/")[0] == QUESTIONS[question_id].chapter, (lang, question_id, page)
        seen = {}
        for path in sorted((DOCS / lang).rglob("*.md")):
            for match in Q.EMBED.finditer(path.read_text(encoding="utf-8")):
                seen.setdefault(match["id"], []).append(path)
        assert all(len(paths) == 1 for paths in seen.values()), {k: v for k, v in seen.items() if len(v) > 1}
    assert Q.embedded_in("zh") == Q.embedded_in("en"), "each question sits on the same page in both books"
    per_chapter = {f"ch{n}": 0 for n in range(13)}
    for q in QUESTIONS.values():
        per_chapter[q.chapter] += 1
    assert all(n >= 3 for n in per_chapter.values()), per_chapter


def _texts(q) -> list[dict]:
    texts = [q.title, q.prompt]
    for c in q.choices:
        texts += [c.text, c.why]
    if q.explain:
        texts.append(q.explain)
    texts += [m.why for m in q.mistakes]
    return texts


@pytest.mark.parametrize("question_id", sorted(QUESTIONS))
def test_a_question_speaks_each_language_and_has_one_right_answer(question_id):
    q = QUESTIONS[question_id]
    for text in _texts(q):
        assert HAN.search(text["zh"]), f"{question_id}: no Chinese in {text['zh']!r}"
        assert not HAN.search(text["en"]), f"{question_id}: Chinese in the English text {text['en']!r}"
        assert '"' not in re.sub(r"`[^`]*`|\\\(.*?\\\)", "", text["zh"]), f"{question_id}: ASCII quotes in Chinese: {text['zh']!r}"
    # the title reaches the chapter's list and the widgets' JSON without Markdown's smarty: typed curly
    assert not re.search("[\"']", q.title["en"]), f"{question_id}: straight quotes in the English title {q.title['en']!r}"
    if q.choices:
        assert sum(c.right for c in q.choices) == 1
        assert len({c.text["en"] for c in q.choices}) == len(q.choices)
    else:
        assert all(abs(m.value - q.typed) > q.tolerance for m in q.mistakes)
        for lang in LANGS:
            assert f"**{q.shown()}**" in Q.question_markdown(question_id, lang), "the answer fold states the number"


def test_no_answer_is_typed_into_its_question_file():
    """An answer with decimals is computed by attnkit in the file, never written there as a literal."""
    for question_id, q in QUESTIONS.items():
        if q.number is None or q.decimals == 0:
            continue
        source = (ROOT / "questions" / f"{q.chapter}.py").read_text(encoding="utf-8")
        shown = q.shown().rstrip("%")
        assert not re.search(rf"(?<![\d.]){re.escape(shown)}(?!\d)", source), f"{question_id}: {shown} is typed into its file"


def test_bad_questions_are_refused_with_a_clear_message():
    texts = {"zh": "中文", "en": "English"}
    right = Q.Choice(text=texts, why=texts, right=True)
    wrong = Q.Choice(text=texts, why=texts)
    with pytest.raises(ValueError, match="exactly one choice must be right"):
        Q.Question(id="ch1-x", title=texts, prompt=texts, choices=[right, right])
    with pytest.raises(ValueError, match="needs choices or a number"):
        Q.Question(id="ch1-x", title=texts, prompt=texts)
    with pytest.raises(ValueError, match="is the right answer"):
        Q.Question(id="ch1-x", title=texts, prompt=texts, number=0.5, decimals=1, explain=texts,
                   mistakes=[Q.Mistake(0.52, texts)])
    with pytest.raises(ValueError, match="its chapter first"):
        Q.Question(id="softmax", title=texts, prompt=texts, choices=[right, wrong])
    with pytest.raises(ValueError, match="'zh' and 'en'"):
        Q.Question(id="ch1-x", title={"en": "x"}, prompt=texts, choices=[right, wrong])


def node(script: str) -> str:
    """Run an ES module snippet in Node from the widgets' folder (the page's own code, no browser)."""
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT / "overrides" / "assets" / "widgets",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_questions_data_is_keyed_by_what_the_question_files_run(monkeypatch):
    """The exercises' widget data holds the questions' numbers, so its cache key follows the attnkit
    modules the question files import (bookcache.digest_for), as it does for the exercise files."""
    import shutil
    import tempfile

    widgets = import_module("bookbuild.widgets")
    (ROOT / ".cache").mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="test-questions-", dir=ROOT / ".cache"))   # keys name files in the repository

    def keys(source: str) -> tuple[str, str]:
        folder = scratch / str(len(list(scratch.iterdir())))
        folder.mkdir()
        (folder / "ch0.py").write_text(source, encoding="utf-8")
        monkeypatch.setattr(Q, "QUESTIONS", folder)
        return Q.inputs("en")[-1], str(widgets.cache_paths("en")["exercises.json"])

    try:
        basics = keys("from attnkit.basics import dot\n")
        measure = keys("from attnkit.measure import scaling_experiment\n")
        commented = keys("from attnkit.basics import dot   # the same imports\n")
    finally:
        shutil.rmtree(scratch)
    assert basics[0] != measure[0] and basics[1] != measure[1], "a question's attnkit imports must be in the key"
    assert basics[0] == commented[0], "the digest follows the imports, not the question file's text"
    assert basics[1] != commented[1], "the question file's own text is in the key too"


def test_a_typed_number_is_read_as_a_reader_means_it():
    cases = ["0.25", "−1", "-3", "1,024", "1 024", "94.6%", "94.6 %", "３.５", "０.２５％", "3/8", "1e3", ".5",
             "", "abc", "1,2", "0.2.5", "1/0", "12.5%%"]
    out = json.loads(node(f"import {{ parseNumber }} from './question.js';"
                          f"console.log(JSON.stringify({json.dumps(cases)}.map(parseNumber)))"))
    got = dict(zip(cases, out))
    assert got["0.25"] == {"value": 0.25, "percent": False}
    assert got["−1"]["value"] == -1 and got["-3"]["value"] == -3
    assert got["1,024"]["value"] == 1024 and got["1 024"]["value"] == 1024
    assert got["94.6%"] == {"value": 94.6, "percent": True} == got["94.6 %"]
    assert got["３.５"]["value"] == 3.5 and got["０.２５％"] == {"value": 0.25, "percent": True}
    assert got["3/8"]["value"] == 0.375 and got["1e3"]["value"] == 1000 and got[".5"]["value"] == 0.5
    assert all(got[bad] is None for bad in ("", "abc", "1,2", "0.2.5", "1/0", "12.5%%"))


def test_a_typed_number_is_judged_with_its_tolerance_its_mistakes_and_its_unit():
    q = json.loads(json.dumps(PAGES.exercises_data("en")["questions"]["ch3-softmax-double"]))
    answers = ["99.7", "99.75%", "99.8", "99.4", "0.997", "94.6", "71.4%", "50", "x"]
    out = json.loads(node(f"import {{ judgeNumber }} from './question.js';"
                          f"const q = {json.dumps(q)};"
                          f"console.log(JSON.stringify({json.dumps(answers)}.map((a) => judgeNumber(q, a))))"))
    got = dict(zip(answers, out))
    assert got["99.7"]["verdict"] == "right" and got["99.75%"]["verdict"] == "right"
    assert got["99.8"]["verdict"] == "close" and got["99.4"]["verdict"] == "close"
    assert got["0.997"]["verdict"] == "fraction"
    assert got["94.6"] == {"verdict": "mistake", "index": 0} and got["71.4%"] == {"verdict": "mistake", "index": 1}
    assert got["50"]["verdict"] == "wrong" and got["x"]["verdict"] == "invalid"
    whole = json.loads(json.dumps(PAGES.exercises_data("en")["questions"]["ch1-handoffs"]))
    out = json.loads(node(f"import {{ judgeNumber }} from './question.js';"
                          f"console.log(JSON.stringify(['29', '30', '28', '29.4'].map((a) => judgeNumber({json.dumps(whole)}, a))))"))
    assert [o["verdict"] for o in out] == ["right", "mistake", "wrong", "right"]


def test_the_pages_zip_is_a_zip_python_reads():
    files = [{"name": "ch3-softmax.py", "text": "def softmax(x):\n    return x  # 份额\n"},
             {"name": "ch4-split-heads.py", "text": ""}]
    out = node(f"import {{ zip }} from './work.js';"
               f"process.stdout.write(Buffer.from(zip({json.dumps(files)}, new Date(2026, 11, 6, 9, 30, 10))).toString('base64'))")
    import base64

    with zipfile.ZipFile(io.BytesIO(base64.b64decode(out))) as z:
        assert z.testzip() is None
        assert z.namelist() == ["ch3-softmax.py", "ch4-split-heads.py"]
        assert z.read("ch3-softmax.py").decode("utf-8") == files[0]["text"]
        assert z.read("ch4-split-heads.py") == b""
        assert z.getinfo("ch3-softmax.py").date_time == (2026, 12, 6, 9, 30, 10)


# --- a graded course: the data and the printed forms -------------------------------------------------

def test_a_graded_course_is_in_the_data_the_print_and_the_cache_key(monkeypatch):
    monkeypatch.delenv("COURSE", raising=False)
    open_key = PAGES.inputs("en")
    assert PAGES.exercises_data("en")["graded"] is False
    assert "??? success" in PAGES.exercise_markdown("ch3-softmax", "en")
    monkeypatch.setenv("COURSE", "graded")
    assert PAGES.exercises_data("en")["graded"] is True
    printed = PAGES.exercise_markdown("ch3-softmax", "en")
    assert "??? success" not in printed and "np.max(x)" not in printed and "def softmax(x):" in printed
    assert PAGES.inputs("en") != open_key, "a graded build must not reuse the open book's cached data"
    monkeypatch.setenv("COURSE", "exam")
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="COURSE='exam'"):
        PAGES.course_mode()


# --- deep links, in the built site -----------------------------------------------------------------

class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


OBJECTIVES = re.compile(r'<div class="admonition abstract">.*?</div>', re.S)   # bookbuild/course.py's box


def parse(path: Path, objectives: bool = True) -> Ids:
    """The ids and links of a built page (without the learning objectives' box, which links
    the exercises and questions that check it, if ``objectives`` is false)."""
    ids = Ids()
    text = path.read_text(encoding="utf-8")
    ids.feed(text if objectives else OBJECTIVES.sub("", text, count=1))
    return ids


@pytest.mark.parametrize("lang", LANGS)
def test_every_exercise_and_question_has_one_stable_anchor_on_its_page(lang):
    anchors = PAGES.anchors(lang)
    assert anchors == {k: v for k, v in PAGES.anchors("zh" if lang == "en" else "en").items()}, "the same anchors in both books"
    assert len(anchors) == len(PAGES.load_all()) + len(QUESTIONS)
    pages = {}
    for item, link in anchors.items():
        url, anchor = link.split("#")
        assert anchor == (f"question-{item}" if item in QUESTIONS else f"exercise-{item}")
        pages.setdefault(url, []).append(anchor)
    for url, wanted in pages.items():
        ids = parse(site_path(lang, url)).ids
        duplicated = sorted({i for i in ids if ids.count(i) > 1})
        assert not duplicated, f"{lang} {url}: ids used twice: {duplicated}"
        missing = [a for a in wanted if a not in ids]
        assert not missing, f"{lang} {url}: no element with the ids {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_of_a_chapters_list_reaches_its_anchor(lang):
    for n in range(13):
        index = site_path(lang, f"ch{n}")
        links = [h for h in parse(index, objectives=False).links if "#exercise-" in h or "#question-" in h]
        chapter_items = [i for i in PAGES.anchors(lang) if i.startswith(f"ch{n}-")]
        assert len(links) == len(chapter_items), (lang, n, links)
        for href in links:
            path, anchor = href.split("#")
            target = (index.parent / path / "index.html").resolve()
            assert anchor in parse(target).ids, f"{lang} ch{n}: {href} reaches no anchor"


# --- in the browser ------------------------------------------------------------------------------------

def squeeze(text: str) -> str:
    return " ".join(text.split())


IN_VIEW = "(id) => { const box = document.getElementById(id)?.getBoundingClientRect(); return box && box.top >= 0 && box.top < innerHeight; }"


def _mounted(page):
    page.wait_for_function("() => [...document.querySelectorAll('[data-widget]')].every((e) => e.dataset.mounted === 'yes')")


@pytest.mark.parametrize("lang", LANGS)
def test_download_my_code_and_all_my_work_then_grade_them(lang, tmp_path):
    """The files a reader downloads are named by the exercise, hold the editor's code, and the zip
    is graded by attnkit.grade as it is: right for the right answer, wrong for the wrong one."""
    from bookbuild.browser import launch, serve_site
    from bookbuild.listings import for_language

    import runpy

    softmax = for_language(runpy.run_path(str(ROOT / "exercises/ch3/softmax.py"))["EXERCISE"].solution, lang)
    attention = "import numpy as np\n\ndef attention(Q, K, V):\n    return V  # 还没写完 / not done yet\n"
    prefix = "/en/" if lang == "en" else "/"
    L = PAGES.LABELS[lang]
    with serve_site() as base, launch() as browser:
        page = browser.new_page(375 if lang == "zh" else 1280, csp=True)
        page.set_default_timeout(60_000)
        page.goto(base + prefix + "ch3/softmax/")
        _mounted(page)
        widget = page.locator('[data-exercise="ch3-softmax"]')
        widget.locator("textarea").fill(softmax)
        with page.expect_download() as got:
            widget.locator('[data-action="download"]').click()
        download = got.value
        assert download.suggested_filename == "ch3-softmax.py"
        assert Path(download.path()).read_text(encoding="utf-8") == softmax
        page.follow(base + prefix + "ch3/pipeline/")
        _mounted(page)
        other = page.locator('[data-exercise="ch3-attention"]')
        other.locator("textarea").fill(attention)
        with page.expect_download() as got:
            other.locator('[data-action="download-all"]').click()
        download = got.value
        assert download.suggested_filename == "seeing-attention-my-work.zip"
        note = other.locator(".ex-handin-note").inner_text()
        assert note == L["downloadedAll"].replace("{n}", "2"), note
        (tmp_path / "class").mkdir()
        zipped = tmp_path / "class" / "alice.zip"
        Path(download.path()).replace(zipped)
        with zipfile.ZipFile(zipped) as z:
            assert sorted(z.namelist()) == ["ch3-attention.py", "ch3-softmax.py"]
            assert z.read("ch3-softmax.py").decode("utf-8") == softmax
            assert z.read("ch3-attention.py").decode("utf-8") == attention
        assert not page.errors and not page.outside, (page.errors, page.outside)
    graded = subprocess.run([sys.executable, "-m", "attnkit.grade", str(tmp_path / "class"), "--seed", "99", "--jobs", "2",
                             "--lang", lang], capture_output=True, text=True, encoding="utf-8",
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    rows = {r["exercise"]: r for r in csv.DictReader(io.StringIO(graded.stdout))}
    assert rows["ch3-softmax"]["passed"] == "1" and rows["ch3-attention"]["passed"] == "0", graded.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_questions_answered_wrong_then_right_are_remembered_and_counted(lang):
    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    L = PAGES.LABELS[lang]
    with serve_site() as base, launch() as browser:
        page = browser.new_page(1280 if lang == "zh" else 375, csp=True)
        page.goto(base + prefix + "ch3/softmax/")
        _mounted(page)
        choice = page.locator("#question-ch3-softmax-shift")
        assert not choice.locator(".q-answer").is_visible(), "the answer shows before any attempt"
        assert not choice.locator(".q-choices").is_visible(), "the page's own list gives way to the radio buttons"
        choice.locator('[data-action="check"]').click()
        assert choice.locator(".q-verdict").inner_text() == L["qPick"]
        assert not choice.locator(".q-answer").is_visible(), "asking without an answer is no attempt"
        choice.locator(".q-option label").nth(0).click()
        choice.locator('[data-action="check"]').click()
        assert choice.locator(".q-verdict").inner_text() == L["qWrong"]
        whys = [squeeze(t) for t in choice.locator(".q-whys li").all_text_contents()]
        assert squeeze(choice.locator(".q-why").text_content()) == whys[0]
        assert choice.locator(".q-answer").is_visible() and choice.get_attribute("data-right") == "false"
        choice.locator(".q-option input").nth(0).focus()          # by keyboard: the radios are native
        page.keyboard.press("ArrowDown")
        assert choice.locator(".q-option input").nth(1).is_checked()
        choice.locator('[data-action="check"]').click()
        assert choice.locator(".q-verdict").inner_text() == L["qRight"]
        assert squeeze(choice.locator(".q-why").text_content()) == whys[1]
        number = page.locator("#question-ch3-softmax-double")
        box = number.locator("input")
        mistakes = [squeeze(t) for t in number.locator(".q-mistakes li").all_text_contents()]
        for typed, says, why in (("lots", L["qInvalid"], ""), ("71.4", L["qWrong"], mistakes[1]),
                                 ("50", L["qWrongNumber"], "")):
            box.fill(typed)
            box.press("Enter")
            assert number.locator(".q-verdict").inner_text() == says, typed
            assert squeeze(number.locator(".q-why").text_content()) == why, typed
        assert "10 / 14" in mistakes[1]
        box.fill(f"{QUESTIONS['ch3-softmax-double'].shown()}")
        number.locator('[data-action="check"]').click()
        assert number.locator(".q-verdict").inner_text() == L["qRight"]
        assert number.locator(".q-answer").get_attribute("open") is not None
        page.reload()
        _mounted(page)
        assert page.locator("#question-ch3-softmax-shift .q-verdict").inner_text() == L["qRight"]
        assert page.locator("#question-ch3-softmax-shift .q-option input").nth(1).is_checked()
        assert page.locator("#question-ch3-softmax-double input").input_value() == QUESTIONS["ch3-softmax-double"].shown()
        page.follow(base + prefix + "ch3/")
        _mounted(page)
        progress = page.locator('[data-widget="exercise-progress"]')
        assert progress.get_attribute("data-right") == "2"
        assert L["questionProgress"].replace("{right}", "2").replace("{total}", "4") in progress.inner_text()
        assert not page.errors and not page.outside, (page.errors, page.outside)


@pytest.mark.parametrize("lang", LANGS)
def test_forget_my_progress_clears_the_chapters_drafts_and_answers_then_the_books(lang):
    """On a shared computer: after confirming, the chapter's drafts, answers and marks are gone
    (the next reader sees the starting code and unanswered questions); another chapter's stay,
    until "Forget all my work in this book" takes those too."""
    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    with serve_site() as base, launch() as browser:
        page = browser.new_page(375, csp=True)
        page.goto(base + prefix + "ch3/softmax/")
        _mounted(page)
        starter = page.locator('[data-exercise="ch3-softmax"] textarea').input_value()
        page.locator('[data-exercise="ch3-softmax"] textarea').fill("def softmax(x):\n    return x  # the last student's\n")
        question = page.locator("#question-ch3-softmax-shift")
        question.locator(".q-option label").nth(1).click()
        question.locator('[data-action="check"]').click()
        page.follow(base + prefix + "ch4/multi-head/")
        _mounted(page)
        page.locator('[data-exercise="ch4-split-heads"] textarea').fill("def split_heads(x, h):\n    return x  # keep me\n")
        page.follow(base + prefix + "ch3/")
        _mounted(page)
        progress = page.locator('[data-widget="exercise-progress"]')
        assert progress.get_attribute("data-remembered") == "true"
        progress.locator('[data-action="clear"]').click()
        progress.locator('[data-action="cancel-clear"]').click()           # changed their mind: nothing goes
        assert progress.get_attribute("data-remembered") == "true"
        progress.locator('[data-action="clear"]').click()
        progress.locator('[data-action="confirm-clear"]').click()
        assert progress.get_attribute("data-remembered") == "false" and progress.get_attribute("data-right") == "0"
        keys = page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('attn-')).sort()")
        assert keys == ["attn-exercise-draft:ch4-split-heads"], keys
        page.follow(base + prefix + "ch3/softmax/")
        _mounted(page)
        assert page.locator('[data-exercise="ch3-softmax"] textarea').input_value() == starter
        assert page.locator("#question-ch3-softmax-shift .q-feedback").is_hidden()
        assert not page.locator("#question-ch3-softmax-shift .q-answer").is_visible()
        # leaving the lab: the whole book's work goes, from any chapter's index
        page.follow(base + prefix + "ch12/")
        _mounted(page)
        progress = page.locator('[data-widget="exercise-progress"]')
        assert progress.locator('[data-action="clear"]').is_disabled(), "chapter 12 has nothing remembered"
        progress.locator('[data-action="clear-all"]').click()
        assert progress.locator(".ex-progress__confirm-text").inner_text() == PAGES.LABELS[lang]["confirmClearAll"]
        progress.locator('[data-action="confirm-clear"]').click()
        keys = page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('attn-'))")
        assert keys == [], keys
        assert progress.locator('[data-action="clear-all"]').is_disabled()
        assert not page.errors and not page.outside, (page.errors, page.outside)


@pytest.mark.parametrize("lang", LANGS)
def test_a_deep_link_opens_the_page_at_its_exercise_or_question(lang):
    from bookbuild.browser import launch, serve_site

    prefix = "/en/" if lang == "en" else "/"
    with serve_site() as base, launch() as browser:
        for link in ("ch3/softmax/#question-ch3-softmax-double", "ch9/tiled/#exercise-ch9-online-softmax",
                     "ch7/self-test/#question-ch7-qkv-learned"):
            page = browser.new_page(1280, 800, csp=True)
            page.goto(base + prefix + link)
            _mounted(page)
            target = link.split("#")[1]
            try:   # the page scrolls there once the widgets have mounted: a condition, not a fixed wait
                page.wait_for_function(IN_VIEW, arg=target, timeout=5000)
            except Exception:  # noqa: BLE001  (Playwright's timeout: say where the target is)
                box = page.locator("#" + target).bounding_box()
                pytest.fail(f"{lang} {link}: the target is at y = {box and box['y']}, not in the 800 px window")
            assert not page.errors, page.errors


# --- a graded course, built --------------------------------------------------------------------------

@pytest.mark.build
def test_a_graded_build_hides_hints_and_solutions_until_the_first_check(tmp_path):
    """make build COURSE=graded (tools/build.py with COURSE=graded): on 3.3, in both books, the hints
    and the reference solution are hidden and the note says why; the printed page holds no reference
    solution and no answer; after one check of the reader's own (wrong) code, both appear."""
    from playwright.sync_api import expect

    from bookbuild.browser import launch, serve_site

    out = tmp_path / "graded"
    env = {**os.environ, "COURSE": "graded", "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    built = subprocess.run([sys.executable, "tools/build.py", "-d", str(out)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=3600)
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    for lang in LANGS:
        data = json.loads((out / ("en" if lang == "en" else "") / "data/widgets/exercises.json").read_text(encoding="utf-8"))
        assert data["graded"] is True
        html = (out / ("en" if lang == "en" else "") / "ch3/softmax/index.html").read_text(encoding="utf-8")
        assert '<details class="success">' not in html, "the exercise's printed form keeps its reference solution"
        assert html.count('<details class="success q-answer">') == 2 and "attn-question--graded" in html
    with serve_site(out) as base, launch() as browser:
        for lang in LANGS:
            prefix = "/en/" if lang == "en" else "/"
            L = PAGES.LABELS[lang]
            page = browser.new_page(1280, csp=True)
            page.set_default_timeout(180_000)
            page.goto(base + prefix + "ch3/softmax/")
            _mounted(page)
            widget = page.locator('[data-exercise="ch3-softmax"]')
            assert widget.get_attribute("data-gated") == "true"
            assert widget.locator(".ex-hints").is_hidden() and widget.locator(".ex-solution").is_hidden()
            # Off screen the widget is not laid out (content-visibility: auto, book.css): its innerText is ''
            # until the frame after it is scrolled to, as a reader would.
            widget.locator(".ex-graded").scroll_into_view_if_needed()
            expect(widget.locator(".ex-graded")).to_be_visible()
            expect(widget.locator(".ex-graded")).to_have_text(L["gradedNote"], use_inner_text=True)
            page.emulate_media(media="print")
            printed = page.locator("#exercise-ch3-softmax + .print-only")
            assert printed.is_visible() and "def softmax(x):" in printed.inner_text()
            assert "np.max" not in printed.inner_text()
            assert not page.locator("#question-ch3-softmax-shift .q-answer").is_visible()
            page.emulate_media(media="screen")
            widget.locator("textarea").fill("def softmax(x):\n    return x\n")
            widget.locator('[data-action="check"]').click()
            page.wait_for_function(
                "() => !['checking', 'idle'].includes(document.querySelector(`[data-exercise='ch3-softmax'] .ex-status`).dataset.state)")
            assert widget.get_attribute("data-gated") == "false"
            assert widget.locator(".ex-hints").is_visible() and widget.locator(".ex-solution").is_visible()
            assert widget.locator(".ex-graded").is_hidden()
            page.reload()
            _mounted(page)
            assert page.locator('[data-exercise="ch3-softmax"] .ex-solution').is_visible(), "the first check is remembered"
            assert not page.errors and not page.outside, (page.errors, page.outside)
