"""The built site: both languages, same-page language links, Chinese search, nothing from outside."""

import json
import re
from pathlib import Path

import pytest

from book import LANGS, ROOT, built_page, pages

SITE = ROOT / "site"
OUTSIDE = re.compile(r"""(?:src|href)=["'](?:https?:)?//(?!127\.0\.0\.1|localhost)[^"']+["']""")
LOADS = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*>""")


def built(lang, page: Path) -> Path:
    return built_page(SITE, lang, page)


def all_html():
    return sorted(SITE.rglob("*.html"))


def test_both_languages_are_built():
    for lang in LANGS:
        for page in pages(lang):
            assert built(lang, page).is_file(), f"{built(lang, page)} missing: run make build"
    assert 'lang="zh"' in (SITE / "index.html").read_text(encoding="utf-8")
    assert 'lang="en"' in (SITE / "en" / "index.html").read_text(encoding="utf-8")


def test_no_page_loads_anything_from_outside():
    problems = []
    for path in all_html():
        for tag in LOADS.findall(path.read_text(encoding="utf-8")):
            if tag.startswith("<link") and "stylesheet" not in tag and "icon" not in tag and "preload" not in tag:
                continue  # canonical/alternate links are not loads
            if OUTSIDE.search(tag):
                problems.append(f"{path.relative_to(SITE)}: {tag}")
    for path in SITE.rglob("*.css"):
        for url in re.findall(r"url\(([^)]+)\)", path.read_text(encoding="utf-8", errors="replace")):
            if re.match(r"""["']?(https?:)?//""", url):
                problems.append(f"{path.relative_to(SITE)}: url({url})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_language_switcher_lands_on_the_same_page(lang):
    other = "en" if lang == "zh" else "zh"
    for page in pages(lang):
        path = built(lang, page)
        text = path.read_text(encoding="utf-8")
        link = re.search(rf'<a href="([^"]+)" hreflang="{other}"', text)
        assert link, f"{path}: no link to the {other} version"
        target = (path.parent / link[1]).resolve() / "index.html"
        assert target == built(other, page).resolve(), f"{path}: switcher goes to {target}, expected {built(other, page)}"


def test_chinese_search_index_is_segmented():
    index = json.loads((SITE / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "\u200b" in text, "no word boundaries in the Chinese search index: is jieba installed?"
    words = set(re.split(index["config"]["separator"], text))
    assert {"注意力", "份额"} <= words, "jieba did not segment 注意力 / 份额 as words"


def test_math_is_styled_by_the_sites_own_katex():
    page = (SITE / "ch3" / "softmax" / "index.html").read_text(encoding="utf-8")
    assert 'class="arithmatex"' in page and "assets/vendor/katex/katex.min.css" in page
    assert list((SITE / "assets" / "vendor" / "katex" / "fonts").glob("*.woff2"))


def test_chinese_sentences_are_not_separated_by_spaces():
    page = (SITE / "ch3" / "softmax" / "index.html").read_text(encoding="utf-8")
    assert "凑成 1。要拿" in page, "line breaks between Chinese sentences become visible spaces"
