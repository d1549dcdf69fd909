"""No sentence points the reader at something the book no longer is.

A book that grows goes stale in its pointers. Three kinds are checked on every page's Markdown,
in both languages:

* **a deferral that the book has since made good**: a line that puts a topic off ("that is another
  story", "a later chapter covers it", "we did not look for one", 「那是另一个故事了」,
  「后面的章节会细讲」) while naming a term that docs/glossary.yml says a section explains (its
  ``section``, on another page) must link to that section. Words a quarter of the pages use
  (token, attention, training) are the background of such a line, not what it puts off;
* **a part of the book**: "Part III", 「第三部分」 and the like name parts the book does not have
  (its home page would list them under headings such as ``## Part I`` / ``## 第一部分``);
* **a section number in plain text** ("section 9.3", 「5.3 节」) that no page's title carries.
  (Links whose text is a section number are checked by tests/test_glossary.py.)
"""

from __future__ import annotations

import re

import pytest
import yaml

from book import DOCS, LANGS, pages
from test_references import prose

DEFERRAL = {
    "en": re.compile(r"another story|a later chapter|later chapters (?:will )?(?:cover|explain)|we did not look for|"
                     r"this book does not (?:cover|teach|explain)|beyond (?:the scope of )?this book|not covered here", re.I),
    "zh": re.compile(r"另一个故事|后面的章节会|以后再讲|没有去找|本书不讲|不在本书|超出本书|本书没有讲"),
}
PARTS = {
    "en": re.compile(r"\bParts? (?:[IV]+|one|two|three|four)\b(?:(?:,| and) (?:[IV]+)\b)*"),
    "zh": re.compile(r"第[一二三四五六]部分|前[两二三四]部分"),
}
PART_HEADING = {"en": re.compile(r"^#+ Part [IV]+\b", re.M), "zh": re.compile(r"^#+ 第[一二三四五六]部分", re.M)}
SECTION_MENTION = {
    "en": re.compile(r"\b[Ss]ections? (?P<n>\d+\.\d+)(?:(?:,| and| or) (?P<m>\d+\.\d+))*"),
    "zh": re.compile(r"(?:第\s*)?(?P<n>\d+\.\d+)\s*节"),
}
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def glossary_sections(lang: str) -> list[tuple[list[str], str]]:
    """(the words that name a term in running text, the page that explains it) for every term."""
    found = []
    for entry in yaml.safe_load((DOCS / "glossary.yml").read_text(encoding="utf-8")):
        section = (entry.get("section") or {}).get(lang)
        words = [w for w in entry.get("match", {}).get(lang, []) if w]
        if section and words:
            found.append((words, section.split("#")[0]))
    return found


def mentions(word: str, text: str, lang: str) -> bool:
    if lang == "zh":
        return word in text
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I) is not None


def links_to(line: str, page, target: str) -> bool:
    """Does a Markdown link on ``line`` (of ``page``, relative to docs/<lang>) reach ``target``, or
    the introduction of its chapter (``ch11/index.md`` for ``ch11/task.md``)?"""
    base = page.parent
    chapter = target.rsplit("/", 1)[0] + "/index.md"
    for m in LINK.finditer(line):
        path = m["target"].split("#")[0]
        if path and _resolve(base, path) in (target, chapter):
            return True
    return False


def _resolve(base, path: str) -> str:
    parts = list(base.parts)
    for piece in path.split("/"):
        if piece == "..":
            parts = parts[:-1]
        elif piece not in ("", "."):
            parts.append(piece)
    return "/".join(parts)


def background(lang: str) -> set[str]:
    """The glossary's words that a quarter of the book's pages or more use (token, attention,
    Transformer): a line that mentions one is not putting it off."""
    texts = [prose((DOCS / lang / page).read_text(encoding="utf-8")) for page in pages(lang)]
    return {word for words, _ in glossary_sections(lang) for word in words
            if 4 * sum(mentions(word, text, lang) for text in texts) >= len(texts)}


def stale_deferrals(lang: str, page, text: str, common: frozenset = frozenset()) -> list[str]:
    """Lines that put off a term (not one of ``common``) which the glossary says another page
    explains, without linking to that page."""
    problems = []
    for number, line in enumerate(prose(text).splitlines(), 1):
        if not DEFERRAL[lang].search(line):
            continue
        for words, section in glossary_sections(lang):
            named = [w for w in words if w not in common and mentions(w, line, lang)]
            if section == page.as_posix() or not named:
                continue
            if not links_to(line, page, section):
                problems.append(f"{lang}/{page}:{number}: puts off {named[0]!r}, which {section} now explains "
                                f"(link to it, or say it plainly): {line.strip()[:200]}")
    return problems


def named_parts(lang: str, page, text: str) -> list[str]:
    if PART_HEADING[lang].search((DOCS / lang / "index.md").read_text(encoding="utf-8")):
        return []
    return [f"{lang}/{page}:{number}: names {m[0]!r}, but the book has no parts: {line.strip()[:160]}"
            for number, line in enumerate(prose(text).splitlines(), 1) for m in PARTS[lang].finditer(line)]


def section_numbers(lang: str) -> set[str]:
    numbers = set()
    for page in pages(lang):
        if m := re.search(r"^#\s+(\d+\.\d+)\s", (DOCS / lang / page).read_text(encoding="utf-8"), re.M):
            numbers.add(m[1])
    return numbers


def unknown_sections(lang: str, page, text: str, known: set[str]) -> list[str]:
    problems = []
    for number, line in enumerate(prose(text).splitlines(), 1):
        for m in SECTION_MENTION[lang].finditer(line):
            for n in re.findall(r"\d+\.\d+", m[0]):
                if n not in known:
                    problems.append(f"{lang}/{page}:{number}: section {n} does not exist: {line.strip()[:160]}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_points_at_what_the_book_no_longer_is(lang):
    known, common = section_numbers(lang), frozenset(background(lang))
    problems = []
    for page in pages(lang):
        text = (DOCS / lang / page).read_text(encoding="utf-8")
        problems += stale_deferrals(lang, page, text, common) + named_parts(lang, page, text) + unknown_sections(lang, page, text, known)
    assert not problems, "\n".join(problems)


def test_the_checker_itself():
    from pathlib import PurePosixPath as P
    page = P("ch9/kv-cache.md")
    stale = "Some heads share keys (multi-query and grouped-query attention), but that is another story.\n"
    assert stale_deferrals("en", page, stale)
    assert not stale_deferrals("en", page, "That is another story of attention and training.\n", frozenset({"attention", "training"}))
    assert not stale_deferrals("en", page, stale.replace("another story", "[section 10.2](../ch10/sharing-kv.md) tells it"))
    assert not stale_deferrals("en", page, "GQA: see [10.2](../ch10/sharing-kv.md#gqa); that is another story.\n")
    assert not stale_deferrals("en", page, "GQA is [chapter 10](../ch10/index.md)'s; another story.\n")
    assert stale_deferrals("zh", P("ch3/weighted-sum.md"), "这叫**残差连接**（后面的章节会细讲）：\n")
    assert not stale_deferrals("zh", P("ch3/weighted-sum.md"), "这叫**残差连接**（[7.4 节](../ch7/story.md#x)会细讲）：\n")
    assert named_parts("en", page, "This chapter opens Part III. Parts I and II taught the paper.\n") == [
        "en/ch9/kv-cache.md:1: names 'Part III', but the book has no parts: This chapter opens Part III. Parts I and II taught the paper.",
        "en/ch9/kv-cache.md:1: names 'Parts I and II', but the book has no parts: This chapter opens Part III. Parts I and II taught the paper."]
    assert named_parts("zh", page, "从这一章起，本书进入第三部分。\n")
    assert unknown_sections("zh", page, "5.3 节说过，第 13.2 节还没有。\n", {"5.3"}) == [
        "zh/ch9/kv-cache.md:1: section 13.2 does not exist: 5.3 节说过，第 13.2 节还没有。"]
    assert unknown_sections("en", page, "as sections 5.3 and 9.9 say\n", {"5.3"}) == [
        "en/ch9/kv-cache.md:1: section 9.9 does not exist: as sections 5.3 and 9.9 say"]
