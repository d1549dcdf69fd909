"""docs/glossary.yml is the single source of the glossary pages, the concept table of 7.1 and the
hover/tap definitions on every page: check the file, and check what the build made of it."""

import html
import importlib
import re
from pathlib import Path

import pytest
import yaml

from book import DOCS, LANGS, ROOT, built_page
from importlib import import_module

SITE = ROOT / "site"
GLOSSARY = yaml.safe_load((DOCS / "glossary.yml").read_text(encoding="utf-8"))
hook = import_module("bookbuild.glossary")
MINE = ["ch6/index.md", "ch6/videos.md", "ch6/reading-and-playing.md", "ch6/courses.md",
        "ch7/index.md", "ch7/concepts.md", "ch7/self-test.md", "ch7/story.md",
        "glossary.md", "references.md"]


def built(lang: str, page: str) -> Path:
    return built_page(SITE, lang, page)


def ids_of(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


def test_ids_are_unique_and_names_kept():
    ids = [e["id"] for e in GLOSSARY]
    assert len(ids) == len(set(ids)), "duplicate glossary ids"
    for e in GLOSSARY:
        assert e.get("zh") and e.get("en"), f"{e['id']}: a name in both languages"


@pytest.mark.parametrize("entry", GLOSSARY, ids=lambda e: e["id"])
def test_every_entry_is_complete_in_both_languages(entry):
    for lang in LANGS:
        assert (entry.get("short") or {}).get(lang, "").strip(), f"{entry['id']}: short.{lang} missing"
        assert (entry.get("section") or {}).get(lang), f"{entry['id']}: section.{lang} missing"
        if entry.get("metaphor"):
            assert entry["metaphor"].get(lang, "").strip(), f"{entry['id']}: metaphor.{lang} missing"
    if entry.get("table"):
        for field in ("metaphor", "formula", "attnkit"):
            assert entry.get(field), f"{entry['id']} is a concept-table row and needs {field}"
    if entry.get("attnkit"):
        module, _, name = entry["attnkit"].rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), entry["attnkit"]
    if entry.get("formula"):
        assert "{{" not in entry["formula"] and "{#" not in entry["formula"], "Jinja would eat it"


@pytest.mark.parametrize("entry", GLOSSARY, ids=lambda e: e["id"])
@pytest.mark.parametrize("lang", LANGS)
def test_section_link_resolves_to_an_existing_heading(entry, lang):
    page, _, anchor = entry["section"][lang].partition("#")
    assert (DOCS / lang / page).is_file(), f"{entry['id']}: docs/{lang}/{page} does not exist"
    target = built(lang, page)
    assert target.is_file(), f"{target} not built: run make build"
    if anchor:
        text = target.read_text(encoding="utf-8")
        assert re.search(rf'<h[1-6][^>]*\bid="{re.escape(anchor)}"', text), \
            f"{entry['id']}: no heading #{anchor} on {page} ({lang})"


@pytest.mark.parametrize("lang", LANGS)
def test_every_concept_table_row_is_rendered(lang):
    text = built(lang, "ch7/concepts.md").read_text(encoding="utf-8")
    table = re.search(r"<table>.*?</table>", text, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    expected = [e for e in GLOSSARY if e.get("table")]
    assert len(rows) == len(expected)
    for row, e in zip(rows, expected):
        assert f'glossary/#{e["id"]}"' in row and html.escape(e[lang], quote=False) in row
        assert 'class="arithmatex"' in row, f"{e['id']}: formula not rendered as math"
        assert e["attnkit"].removeprefix("attnkit.") in row
    must = {"rnn", "self-attention", "query", "key", "value", "dot-product", "scaling", "softmax",
            "weighted-sum", "multi-head", "positional-encoding", "ffn", "residual", "layer-norm"}
    assert must <= {e["id"] for e in expected}


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_page_lists_every_term_with_its_definition(lang):
    text = built(lang, "glossary.md").read_text(encoding="utf-8")
    for e in GLOSSARY:
        assert f'id="{e["id"]}"' in text, f"{e['id']} missing from the {lang} glossary"
        assert html.escape(e["short"][lang], quote=False) in text
    assert "<abbr" not in text.split('class="md-content"')[1], "no tooltips on the glossary itself"


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_on_a_page_gets_its_tooltip(lang):
    text = built(lang, "ch3/softmax.md").read_text(encoding="utf-8")
    softmax = next(e for e in GLOSSARY if e["id"] == "softmax")
    title = html.escape(softmax["short"][lang], quote=True)
    assert re.search(rf'<abbr class="gloss" data-term="softmax" tabindex="0" title="{re.escape(title)}">', text)
    assert text.count('data-term="softmax"') == 1, "only the first occurrence"


def test_tooltips_never_land_in_headings_code_math_or_links():
    bad = re.compile(r"<(h[1-6]|code|pre|a|summary)\b[^>]*>(?:(?!</\1>).)*<abbr class=\"gloss\"", re.S)
    for path in SITE.rglob("*.html"):
        if "print_page" in str(path):
            continue
        text = path.read_text(encoding="utf-8")
        assert not bad.search(text), f"a tooltip inside a heading/code/link on {path}"
        assert not re.search(r'<(span|div) class="arithmatex">(?:(?!</\1>).)*<abbr', text, re.S), path


def test_tooltip_matching_rules():
    zh = hook.add_tooltips("<p>每个词的注意力；自注意力。</p><h2>注意力</h2>", "zh")
    assert zh.count('data-term="attention"') == 1 and zh.count('data-term="self-attention"') == 1
    assert "<h2>注意力</h2>" in zh                                       # headings untouched
    en = hook.add_tooltips("<p>RNNs and an RNN; <code>softmax</code> then Softmax.</p>", "en")
    assert 'data-term="rnn"' in en and ">RNN</abbr>" in en                # not inside "RNNs"
    assert "<code>softmax</code>" in en and ">Softmax</abbr>" in en       # case-insensitive, not in code
    math = hook.add_tooltips('<p><span class="arithmatex">\\(\\operatorname{softmax}\\)</span></p>', "en")
    assert "<abbr" not in math


@pytest.mark.parametrize(
    "text, terms",
    [
        ("Tab to it and move with the arrow keys.", []),
        ("Read the sine and cosine values of two positions.", []),
        ("The Jacobian and its singular values.", ["jacobian"]),
        ("The first few values of w are 0, 1.9, 2.9.", []),
        ("Compare the query with the keys of all words.", ["query", "key"]),
        ("Mix everyone's values by their shares.", ["value"]),
        ("Hover over it, tap it, or reach it with the Tab key.", []),          # 7's introduction
        ("If the last line is a bare expression whose value is an array", []),  # the playground
    ],
)
def test_ordinary_words_do_not_get_a_tooltip(text, terms):
    """"key" and "value" are glossary terms, but not in "arrow keys" or "sine and cosine values"."""
    html_out = hook.add_tooltips(f"<p>{text}</p>", "en")
    found = re.findall(r'data-term="([\w-]+)"', html_out)
    assert found == terms


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", MINE)
def test_links_on_my_pages_resolve(lang, page):
    """Every internal link with an anchor on chapters 6-7, the glossary and the references."""
    path = built(lang, page)
    text = path.read_text(encoding="utf-8")
    content = text.split('class="md-content"')[1]
    for href in re.findall(r'href="([^"#:]*)#([^"]+)"', content):
        target = (path.parent / href[0]).resolve() if href[0] else path
        if target.is_dir():
            target = target / "index.html"
        assert target.is_file(), f"{page} ({lang}): link to missing {href[0]}"
        assert html.unescape(href[1]) in ids_of(target), f"{page} ({lang}): no #{href[1]} in {href[0] or page}"


NUMBERED_LINK = re.compile(r"(?:(\d+\.\d+) 节|[Ss]ection (\d+\.\d+))[^\]]*\]\(([^)#]+\.md)")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", MINE)
def test_section_numbers_in_link_texts_match_their_pages(lang, page):
    """'[3.3 节](../ch3/softmax.md)': the number must be the one in that page's H1 today."""
    source = DOCS / lang / page
    for m in NUMBERED_LINK.finditer(source.read_text(encoding="utf-8")):
        number = m.group(1) or m.group(2)
        target = (source.parent / m.group(3)).resolve()
        title = next(l for l in target.read_text(encoding="utf-8").splitlines() if l.startswith("# "))
        assert title[2:].startswith(number + " "), f"{page} ({lang}): '{number}' links to '{title}'"
