"""Every work the book names has an entry on the references page, and every page that names it cites it.

The works are read from the references pages themselves: an entry lists the names the book uses
for it in its attribute list, ``{: #ref-bert-2019 data-names="BERT" }``. A page (either language)
that mentions one of those names in its prose must link to ``references.md#ref-<id>``.
"""

from __future__ import annotations

import re

import pytest

from book import DOCS, LANGS, fences, pages

ENTRY = re.compile(r'\{:\s*#ref-(?P<id>[\w-]+)(?:\s+data-names="(?P<names>[^"]*)")?\s*\}')
CITE = re.compile(r"references\.md#ref-(?P<id>[\w-]+)")
# The works issue 14 found named without an entry: they must stay listed.
MUST_BE_LISTED = ["BERT", "GPT", "ViT", "LSTM", "GRU", "Longformer", "BigBird", "Performer",
                  "FlashAttention", "RoPE", "Shaw", "T5"]


def entries(lang: str) -> dict[str, list[str]]:
    text = (DOCS / lang / "references.md").read_text(encoding="utf-8")
    return {m["id"]: [n for n in (m["names"] or "").split("|") if n] for m in ENTRY.finditer(text)}


def name_pattern(name: str) -> re.Pattern:
    """The name as a word: GPT matches "GPT" but not "GPT-2" or "ChatGPT"."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def prose(text: str) -> str:
    """A page's Markdown without code fences, inline code, math and Jinja."""
    lines = text.splitlines()
    for fence in fences(text):
        for i in range(fence.line - 1, fence.line + len(fence.body) + 1):
            if i < len(lines):
                lines[i] = ""
    text = "\n".join(lines)
    return re.sub(r"`[^`]*`|\\\(.*?\\\)|\\\[.*?\\\]|\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)


def uncited(lang: str, page, text: str) -> list[str]:
    cited = set(CITE.findall(text))
    body = prose(text)
    return [f"{lang}/{page}: names {name} without citing references.md#ref-{ref}"
            for ref, names in entries(lang).items() for name in names
            if name_pattern(name).search(body) and ref not in cited]


def test_both_languages_list_the_same_works():
    assert entries("zh") == entries("en")


def test_the_works_issue_14_found_uncited_are_listed():
    listed = {name for names in entries("en").values() for name in names}
    assert not [n for n in MUST_BE_LISTED if n not in listed]


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_that_names_a_work_cites_it(lang):
    problems = []
    for page in pages(lang):
        if page.name in ("references.md", "slides.md"):   # a chapter's deck: its chapter's pages cite what it names
            continue
        problems += uncited(lang, page, (DOCS / lang / page).read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_every_citation_has_an_entry(lang):
    known = set(entries(lang))
    problems = [f"{lang}/{page}: ref-{ref}" for page in pages(lang)
                for ref in CITE.findall((DOCS / lang / page).read_text(encoding="utf-8")) if ref not in known]
    assert not problems, "\n".join(problems)


def test_the_checker_itself():
    assert name_pattern("GPT").search("the first GPT (2018)")
    assert not name_pattern("GPT").search("GPT-2 and ChatGPT")
    assert uncited("en", "x.md", "BERT reads both ways.") == ["en/x.md: names BERT without citing references.md#ref-bert-2019"]
    assert uncited("en", "x.md", "BERT [[P7]](../references.md#ref-bert-2019).") == []
    assert uncited("en", "x.md", "```python\nBERT = 1\n```\n`BERT`") == []


LABELLED = re.compile(r"^\[(?P<label>[A-Z]?\d+)\] (?:.*\n)*?\{:\s*#ref-(?P<id>[\w-]+)", re.M)
CITED_AS = re.compile(r"\[\[(?P<label>[^\]]+)\]\]\((?:\.\./)*references\.md#ref-(?P<id>[\w-]+)\)")


@pytest.mark.parametrize("lang", LANGS)
def test_every_citation_shows_its_entry_label(lang):
    """[[P7]](…#ref-bert-2019) must say P7 because the entry is numbered [P7] on the references page."""
    labels = {m["id"]: m["label"] for m in LABELLED.finditer((DOCS / lang / "references.md").read_text(encoding="utf-8"))}
    problems = [f"{lang}/{page}: [[{m['label']}]] for ref-{m['id']}, whose entry is [{labels.get(m['id'])}]"
                for page in pages(lang) for m in CITED_AS.finditer((DOCS / lang / page).read_text(encoding="utf-8"))
                if labels.get(m["id"]) != m["label"]]
    assert not problems, "\n".join(problems)
