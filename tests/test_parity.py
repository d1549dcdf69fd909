"""The two languages carry the same pages, headings, figures, listings and exercises."""

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
