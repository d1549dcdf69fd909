"""The two languages carry the same pages, headings, figures, listings and exercises."""

import re

import pytest

from book import DOCS, nav_files, not_in_nav, pages, structure
from importlib import import_module


def test_same_pages():
    zh, en = set(pages("zh")), set(pages("en"))
    problems = [f"docs/zh/{p} has no English page docs/en/{p}" for p in sorted(zh - en)]
    problems += [f"docs/en/{p} has no Chinese page docs/zh/{p}" for p in sorted(en - zh)]
    assert not problems, "\n".join(problems)


def test_same_navigation():
    """One nav for both languages, with every page in it but those kept out on purpose (the
    chapters' slides: mkdocs.yml's not_in_nav, the same in both languages)."""
    zh, en = nav_files("zh"), nav_files("en")
    assert zh == en, f"nav differs:\n  mkdocs.yml:    {zh}\n  mkdocs.en.yml: {en}"
    assert not_in_nav("zh") == not_in_nav("en") and all(p.endswith("/slides.md") for p in not_in_nav("zh")), not_in_nav("zh")
    on_disk = ({p.as_posix() for p in pages("zh")} - not_in_nav("zh")
               | {p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").glob("ch*/lab-*.py")})
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
    from bookbuild.browser import SITE
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
    from bookbuild.browser import SITE
    html = ((SITE / "en" if lang == "en" else SITE) / "404.html").read_text(encoding="utf-8")
    assert f"<h1>{heading}</h1>" in html and "Not found" not in html
    home = "/en/" if lang == "en" else "/"
    assert f'href="{home}."' in html and f'href="{home}tour/"' in html, "the 404 page should link the home page and the tour"


# A screen reader reads a passage in the voice of its language (WCAG 2.1 3.1.2, Language of
# Parts, level AA; axe-core cannot check it): bookbuild/a11y.py gives a run of the other
# language's text its own lang. This reads every built page as a browser would, so text that
# reaches a page some other way (a template, a plugin, a hook after a11y.py) is found too. The
# book's bilingual name, in the header, the navigation's title and the window title, is a name.
def unmarked_foreign_text(html: str, lang: str) -> list[str]:
    """Text of ``html`` in the other language, outside an element that says so with ``lang``.

    >>> unmarked_foreign_text('<p>见《The Illustrated Transformer》和 <span lang="en">The Annotated Transformer</span></p>', "zh")
    ['见《The Illustrated Transformer》和']
    >>> unmarked_foreign_text('<p>the <span lang="zh">简体中文</span> book, or 中文</p>', "en")
    ['book, or 中文']
    """
    from html.parser import HTMLParser

    a11y, html_tags = import_module("bookbuild.a11y"), import_module("bookbuild.html_tags")
    run = a11y.FOREIGN_RUN[lang][0]
    found: list[str] = []

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=False)
            self.stack: list[bool] = []   # per open element: is its text left alone?

        def handle_starttag(self, tag, attrs):
            if tag in html_tags.VOID:
                return
            a = dict(attrs)
            classes = (a.get("class") or "").split()
            alone = (tag in a11y.NOT_PROSE or tag == "title" or bool(a11y.NOT_PROSE_CLASS.search(f'class="{a.get("class") or ""}"'))
                     or {"md-header__topic", "md-nav__title", "md-ellipsis"} & set(classes) or a.get("lang") is not None)
            self.stack.append(bool(alone) or bool(self.stack and self.stack[-1]))

        def handle_endtag(self, tag):
            if tag not in html_tags.VOID and self.stack:
                self.stack.pop()

        def handle_data(self, data):
            text = " ".join(data.split())
            if not (self.stack and self.stack[-1]) and run.search(text):
                found.append(text[:80])

    Reader().feed(html)
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_text_in_the_other_language_says_so(lang):
    from bookbuild.browser import SITE
    root = SITE / "en" if lang == "en" else SITE
    found: dict[str, list[str]] = {}
    for page in sorted(root.rglob("*.html")):
        relative = page.relative_to(SITE).parts
        if "assets" in relative or "print_page" in relative or (lang == "zh" and relative[0] == "en"):
            continue
        for text in unmarked_foreign_text(page.read_text(encoding="utf-8"), lang):
            found.setdefault(page.relative_to(SITE).as_posix(), []).append(text)
    assert not found, "text in the other language without lang= (wrap it in <span lang=\"...\">):\n" + "\n".join(
        f"{where}: {texts[:3]}" for where, texts in found.items())
