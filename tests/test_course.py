"""Teaching with the book (bookbuild/course.py, docs/course.yml, docs/<lang>/teach.md).

Every chapter's index page opens with 3 to 5 learning objectives, in both languages, each naming
the exercise or the folded question that checks it, with a link that lands on it; then the
chapter's time and its slides. The times are computed from the chapters' text and exercises: the
counting is tested on its own, both languages come out close, and the times the built pages show
(each index page, the teacher's table, its plans) are what the sources compute now.
"""

from __future__ import annotations

import html
import os
import re

import pytest

from book import DOCS, LANGS, ROOT, built_page

CHAPTERS = [f"ch{n}" for n in range(13)]


# ---------------------------------------------------------------------- docs/course.yml


def test_every_chapter_has_three_to_five_objectives_in_both_languages():
    from bookbuild import course

    for chapter in CHAPTERS:
        items = course.objectives(chapter)
        assert 3 <= len(items) <= 5, chapter
        for item in items:
            assert item["zh"].strip() and item["en"].strip()
            assert not re.search(r"[A-Za-z]+(?:[ -][A-Za-z]+){2,}", item["zh"]), item["zh"]     # no English phrase
            assert not re.search(r"[\u3400-\u9fff]", item["en"]), item["en"]


@pytest.mark.parametrize("bad, says", [
    ({"ch3": [{"zh": "a", "en": "b", "check": {"exercise": "ch3-softmax"}}] * 2}, r"objectives\.ch3: 3 to 5 objectives are needed, found 2"),
    ({"ch3": [{"zh": "a", "en": "b", "check": {"exercise": "ch3-nothing"}}] * 3}, r"objective 1: no exercise has the id 'ch3-nothing'"),
    ({"ch3": [{"zh": "a", "en": "b", "check": {"exercise": "ch4-split-heads"}}] * 3}, r"belongs to another chapter"),
    ({"ch3": [{"zh": "a", "en": "", "check": {"exercise": "ch3-softmax"}}] * 3}, r"objective 1: `en` is missing or empty"),
    ({"ch3": [{"zh": "a", "en": "b", "check": {"question": "ch3/softmax.md", "number": 9}}] * 3},
     r"docs/zh/ch3/softmax.md has 1 folded question, so `number: 9` names none of them"),
    ({"ch3": [{"zh": "a", "en": "b", "check": {"checked": "ch3-nothing"}}] * 3},
     r"no page of docs/zh/ embeds the checked question 'ch3-nothing'"),
    ({"ch3": [{"zh": "a", "en": "b", "check": {"checked": "ch4-same-start"}}] * 3},
     r"the checked question 'ch4-same-start' is on ch4/together.md, not in ch3/"),
    ({"ch3": [{"zh": "a", "en": "b"}] * 3}, r"`check:` needs"),
])
def test_a_bad_course_file_names_the_problem(bad, says):
    from bookbuild import course

    data = {"pace": course.pace(), "objectives": {**{c: course.objectives(c) for c in CHAPTERS}, **bad}}
    with pytest.raises(course.CourseError, match=says):
        course.check_course(data)


def test_every_index_page_opens_with_the_objectives_box():
    """Right under the H1 of every chapter's index page, in both languages: the macro and nothing else."""
    for lang in LANGS:
        for chapter in CHAPTERS:
            lines = (DOCS / lang / chapter / "index.md").read_text(encoding="utf-8").splitlines()
            assert lines[0].startswith("# ") and lines[1] == "" and lines[2] == f'{{{{ objectives("{chapter}") }}}}', (lang, chapter)


# ---------------------------------------------------------------------- the time a page takes


def test_the_time_is_counted_from_the_text_and_the_exercises():
    from bookbuild import course

    page = "# T\n\nOne two three four five six seven eight nine ten.\n"
    base = course.measure(page)
    assert (base.words, base.han, base.figures, base.questions, base.exercises) == (11, 0, 0, 0, 0)
    longer = course.measure(page + "\nEleven more words of plain prose, to be read slowly by a student.\n")
    assert longer.words == base.words + 13
    assert course.minutes(longer, "en")[0] > course.minutes(base, "en")[0]
    pace = course.pace()
    with_exercise = course.measure(page + '\n<div class="attn-widget" data-widget="exercise" data-exercise="x"></div>\n')
    assert course.minutes(with_exercise, "en")[1] == pace["minutes"]["exercise"]
    with_question = course.measure(page + '\n??? question "1. Why?"\n    Because the answer is long and folded.\n')
    assert with_question.questions == 1 and with_question.words == base.words     # the answer is practice, not reading
    printed = course.measure(page + '\n<div class="print-only" markdown>\n\n![a](f.svg)\n\nMany printed words here.\n\n</div>\n')
    assert (printed.figures, printed.words) == (0, base.words)     # what only paper shows is not counted
    listing = course.measure(page + "\n```python\nx = 1\nprint(x)\n```\n\n```text\n1\n```\n")
    assert listing.code_lines == 3 and listing.words == base.words
    chinese = course.measure("# 标题\n\n小猫追着球跑，因为它饿了。attnkit 算出 0.95。\n")
    assert chinese.han == 15 and chinese.words == 2
    assert course.minutes(chinese, "zh")[0] == pytest.approx(15 / pace["han_per_minute"] + 2 / pace["words_per_minute"])


def test_durations_are_rounded_and_written_in_each_language():
    from bookbuild import course

    step = course.pace()["round_to"]
    assert course.rounded(0.1) == step and course.rounded(step * 2.5) == step * 3
    assert course.duration(85, "en") == "1 h 25 min" and course.duration(85, "zh") == "1 小时 25 分钟"
    assert course.duration(120, "en") == "2 h" and course.duration(45, "zh") == "45 分钟"


@pytest.fixture(scope="module")
def envs():
    """Each language's mkdocs-macros environment, set up as a build sets it up (no page built):
    what bookbuild/course.py renders the pages with."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import File
    from mkdocs.structure.pages import Page

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    out = {}
    for lang, name in (("zh", "mkdocs.yml"), ("en", "mkdocs.en.yml")):
        config = load_config(config_file=str(ROOT / name))
        macros = config.plugins["macros"]
        macros.on_config(config)
        page = Page(None, File("teach.md", config.docs_dir, config.site_dir, True), config)
        page.read_source(config)   # its title and meta, as a build reads them
        macros.on_page_markdown("", page=page, config=config, files=None)   # the event that tells it the page
        out[lang] = macros
    return out


OWN_BOX = re.compile(r"\{\{\s*objectives\([^)]*\)\s*\}\}")


def source_times(env, lang: str, *what: str) -> tuple[int, int, int]:
    """(reading, practice, total) minutes counted here from the sources, apart from the build: each
    page of ``what`` (chapters or pages) rendered through ``env``'s macros, its listings expanded,
    without the objectives box."""
    from bookbuild import course
    from bookbuild.listings import expand

    load = course.Load()
    for item in what:
        for page in course.chapter_pages(item) if item in CHAPTERS else [item]:
            if page.endswith(".py"):
                load = load + course.Load(labs=1)
                continue
            text = env.env.from_string(OWN_BOX.sub("", course.source(lang, page))).render(**env.variables)
            load = load + course.measure(expand(text, lang, page))
    reading, practice = course.minutes(load, lang)
    return (course.rounded(reading), course.rounded(practice) if practice else 0,
            course.rounded(reading + practice))


def test_both_languages_take_about_the_same_time(envs):
    """The same chapter, read in either language at the stated paces, takes about as long."""
    for chapter in CHAPTERS:
        zh, en = (source_times(envs[lang], lang, chapter)[2] for lang in LANGS)
        assert 0.75 <= zh / en <= 1.33, f"{chapter}: zh {zh} min, en {en} min"


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_show_the_times_the_sources_give(lang, envs):
    """Each index page's box, the teacher's table and the teacher's plans show what bookbuild.course
    computes from the sources now: no time on a page is typed, and none is stale."""
    from bookbuild import course
    from bookbuild.browser import SITE

    env = envs[lang]
    about = lambda t: course.LABELS[lang]["about"].format(t=course.duration(t, lang))   # noqa: E731
    teach = built_page(SITE, lang, "teach.md").read_text(encoding="utf-8")
    rows = {re.search(r'href="\.\./(ch\d+)/"', row).group(1): _text(row)
            for row in re.findall(r"<tr>\s*<td><a href=\"\.\./ch\d+/\".*?</tr>", teach, re.S)}
    assert sorted(rows) == sorted(CHAPTERS), sorted(rows)
    for chapter in CHAPTERS:
        reading, practice, total = source_times(env, lang, chapter)
        box = built_page(SITE, lang, f"{chapter}/index.md").read_text(encoding="utf-8")
        box = _text(re.search(r'<div class="admonition abstract">.*?</div>', box, re.S).group(0))
        for t in (about(total), about(reading), about(practice)):
            assert t in box, f"{lang} {chapter}: the index page does not say {t!r}: {box[-200:]}"
        for t in (course.duration(reading, lang), course.duration(practice, lang), course.duration(total, lang)):
            assert t in rows[chapter], f"{lang} {chapter}: the teacher's table does not say {t!r}: {rows[chapter]}"
    source = (DOCS / lang / "teach.md").read_text(encoding="utf-8")
    page_text = _text(teach)
    for call in re.findall(r"\{\{\s*chapter_time\(([^)]*)\)\s*\}\}", source):
        what = [w.strip().strip('"') for w in call.split(",")]
        assert about(source_times(env, lang, *what)[2]) in page_text, f"{lang}: the plans do not say the time of {what}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_objective_links_what_checks_it(lang):
    """Each objective of each index page: its check (an exercise or a question) as a link that lands
    on an existing anchor, above that exercise or question, on a page of the chapter."""
    from bookbuild import course
    from bookbuild.browser import SITE

    problems = []
    for chapter in CHAPTERS:
        page = built_page(SITE, lang, f"{chapter}/index.md")
        box = re.search(r'<div class="admonition abstract">.*?</div>', page.read_text(encoding="utf-8"), re.S).group(0)
        items = re.findall(r"<li>(.*?)</li>", box, re.S)
        if len(items) != len(course.objectives(chapter)):
            problems.append(f"{chapter}: {len(items)} objectives shown")
        for item, objective in zip(items, course.objectives(chapter)):
            links = re.findall(r'<a href="([^"#]+)#([^"]+)"', item)
            if not links:
                problems.append(f"{chapter}: no link in {_text(item)[:80]}")
                continue
            target, anchor = links[-1]
            file = (page.parent / target / "index.html").resolve()
            landed = file.read_text(encoding="utf-8") if file.is_file() else ""
            start = landed.find(f'id="{anchor}"')
            if start < 0:
                problems.append(f"{chapter}: {target}#{anchor} does not land")
                continue
            end = start + len(re.split(r"<h2 ", landed[start:], maxsplit=1)[0])     # the heading's own section
            check = objective["check"]
            if "exercise" in check:
                if f'data-exercise="{check["exercise"]}"' not in landed[start:end]:
                    problems.append(f"{chapter}: {target}#{anchor} is not the section of {check['exercise']}")
                continue
            if "checked" in check:                  # a checked question's own anchor
                tag = re.search(rf'<[^<>]*\bid="{anchor}"[^<>]*>', landed).group(0)
                if anchor != f"question-{check['checked']}" or f'data-question="{check["checked"]}"' not in tag:
                    problems.append(f"{chapter}: {target}#{anchor} is not the checked question {check['checked']}")
                continue
            questions = [m.start() for m in re.finditer(r'<details class="question">', landed)]
            if not (len(questions) >= check["number"] and start < questions[check["number"] - 1] < end):
                problems.append(f"{chapter}: question {check['number']} of {target} is not under #{anchor}")
    assert not problems, "\n".join(problems)


def test_the_teachers_page_is_linked_from_both_home_pages_and_the_nav():
    from bookbuild.browser import SITE

    for lang in LANGS:
        home = built_page(SITE, lang, "index.md").read_text(encoding="utf-8")
        assert home.count('href="teach/"') >= 2, lang    # "who it is for" and the chapter list (the nav too)
        assert re.search(r'<a href="[^"]*teach/"[^>]*class="md-nav__link', home) or 'teach/" class="md-nav__link' in home, lang


def test_no_time_is_left_a_placeholder():
    """Every time a page shows is written in (bookbuild/course.py ``later``/``fill``): no page, deck,
    print page or search index of the built site holds a placeholder."""
    from bookbuild.browser import SITE

    left = [path.relative_to(SITE).as_posix() for path in sorted(SITE.rglob("*"))
            if path.suffix in (".html", ".json", ".js", ".xml") and "\ue000" in path.read_text(encoding="utf-8", errors="replace")]
    assert not left, f"placeholders left in {left[:10]}"
