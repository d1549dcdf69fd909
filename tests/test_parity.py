"""The two languages carry the same pages, headings, figures, listings and exercises."""

import re

import pytest

from book import DOCS, nav_files, pages, structure


def test_same_pages():
    zh, en = set(pages("zh")), set(pages("en"))
    problems = [f"docs/zh/{p} has no English page docs/en/{p}" for p in sorted(zh - en)]
    problems += [f"docs/en/{p} has no Chinese page docs/zh/{p}" for p in sorted(en - zh)]
    assert not problems, "\n".join(problems)


def test_same_navigation():
    zh, en = nav_files("zh"), nav_files("en")
    assert zh == en, f"nav differs:\n  mkdocs.yml:    {zh}\n  mkdocs.en.yml: {en}"
    on_disk = {p.as_posix() for p in pages("zh")} | {p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").glob("ch*/lab-*.py")}
    assert set(zh) == on_disk, f"pages not in the nav: {sorted(on_disk - set(zh))}; nav entries without a page: {sorted(set(zh) - on_disk)}"


@pytest.mark.parametrize("page", [p.as_posix() for p in pages("zh") if (DOCS / "en" / p).exists()])
def test_same_structure(page):
    zh = structure((DOCS / "zh" / page).read_text(encoding="utf-8"))
    en = structure((DOCS / "en" / page).read_text(encoding="utf-8"))
    problems = []
    for part in ("headings", "figures", "listings", "exercises"):
        if zh[part] != en[part]:
            problems.append(f"{part} of {page} differ:\n    zh: {zh[part]}\n    en: {en[part]}")
    assert not problems, "\n".join(problems)


def test_parity_check_can_fail():
    """The structure check sees a missing heading, figure and listing."""
    full = '# T\n## A\n![x](../figures/ch3-a.svg)\n```python exec="on"\n--8<-- "ch3/a.py"\n```\n'
    short = "# T\n"
    a, b = structure(full), structure(short)
    assert a["headings"] == [1, 2] and b["headings"] == [1]
    assert a["figures"] == ["ch3-a"] and a["listings"] == ["ch3/a.py"] and b["listings"] == []


# What a screen reader says or a tooltip shows is part of the page: in its language. An attribute
# with a Latin word and no Han character in the Chinese book, or a Han character in the English
# book (but the language menu's 简体中文, which names the other book in its own language, and the
# title both books share), is a string some tool wrote in the other language.
SPOKEN = re.compile(r'\b(title|aria-label|placeholder|alt)="([^"]*)"')
HAN = re.compile(r"[\u3400-\u9fff]")
BOTH_BOOKS = {"简体中文", "看见注意力 · Seeing Attention", "Seeing Attention · 看见注意力"}


def foreign_attributes(html: str, lang: str) -> list[str]:
    """The title/aria-label/placeholder/alt values of ``html`` that are not in ``lang``.

    >>> foreign_attributes('<a title="Permanent link"></a><a title="本节的链接"></a>', "zh")
    ['title="Permanent link"']
    >>> foreign_attributes('<a aria-label="复制"></a><a lang="zh" title="简体中文"></a>', "en")
    ['aria-label="复制"']
    """
    out = []
    for name, value in SPOKEN.findall(html):
        if value in BOTH_BOOKS:
            continue
        if (lang == "zh" and re.search(r"[A-Za-z]{3,}", value) and not HAN.search(value)) or (lang == "en" and HAN.search(value)):
            out.append(f'{name}="{value}"')
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_and_tooltips_speak_the_page_language(lang):
    from browser import SITE
    root = SITE / "en" if lang == "en" else SITE
    found, read = {}, 0
    for page in sorted(root.rglob("*.html")):
        relative = page.relative_to(SITE).parts
        if "assets" in relative or (lang == "zh" and relative[0] == "en"):
            continue
        read += 1
        for value in foreign_attributes(page.read_text(encoding="utf-8"), lang):
            found.setdefault(value, []).append(page.relative_to(SITE).as_posix())
    assert read > 40, f"only {read} built pages of {lang}: run make build first"
    assert not found, "\n".join(f"{value} on {len(set(where))} pages, e.g. {where[0]}" for value, where in found.items())


@pytest.mark.parametrize("lang, heading", [("zh", "找不到这一页"), ("en", "This page isn't here")])
def test_not_found_page_speaks_its_book_language(lang, heading):
    """A mistyped address lands on a page in the reader's language that leads back into the book
    (Material's own 404 says "404 - Not found" in every language)."""
    from browser import SITE
    html = ((SITE / "en" if lang == "en" else SITE) / "404.html").read_text(encoding="utf-8")
    assert f"<h1>{heading}</h1>" in html and "Not found" not in html
    home = "/en/" if lang == "en" else "/"
    assert f'href="{home}."' in html and f'href="{home}tour/"' in html, "the 404 page should link the home page and the tour"
