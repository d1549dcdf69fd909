"""Every code fence in the book is an executed listing, and every listing runs and shows its output."""

import html
import re
import subprocess
import sys

import pytest

from book import DOCS, INCLUDE, LANGS, ROOT, SNIPPETS, built_page, fences, listing_source, listings, pages

EXEC_INFO = re.compile(r'^python\s+exec="on"(\s+\w+="[^"]*")*$')
SITE = ROOT / "site"


def fence_problems(text: str, where: str) -> list[str]:
    problems = []
    for fence in fences(text):
        at = f"{where}:{fence.line}"
        if not EXEC_INFO.match(fence.info):
            problems.append(f'{at}: fence "{fence.info}" is not executed by the build; use ```python exec="on" source="above" result="text"')
            continue
        body = [line for line in fence.body if line.strip()]
        if len(body) != 1 or not INCLUDE.match(body[0]):
            problems.append(f'{at}: an executed fence must contain exactly one line --8<-- "chN/name.py" (the listing lives in snippets/)')
        elif not (SNIPPETS / INCLUDE.match(body[0])["path"]).is_file():
            problems.append(f"{at}: listing {INCLUDE.match(body[0])['path']} does not exist in snippets/")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_fence_is_an_executed_listing(lang):
    problems = []
    for page in pages(lang):
        problems += fence_problems((DOCS / lang / page).read_text(encoding="utf-8"), f"docs/{lang}/{page}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "text",
    [
        "```py\nprint(1)\n```\n",
        '```python title="x.py"\nprint(1)\n```\n',
        '=== "Tab"\n\n    ```python\n    print(1)\n    ```\n',
        '```python exec="on"\nprint(1)\n```\n',
        "~~~\nprint(1)\n~~~\n",
    ],
)
def test_fence_check_rejects_unexecuted_or_inline_code(text):
    assert fence_problems(text, "example.md")


def included_listings() -> set[str]:
    used = set()
    for lang in LANGS:
        for page in pages(lang):
            for fence in fences((DOCS / lang / page).read_text(encoding="utf-8")):
                used |= {m["path"] for line in fence.body if (m := INCLUDE.match(line))}
    return used


LISTINGS = sorted(p.relative_to(SNIPPETS).as_posix() for p in SNIPPETS.rglob("*.py"))


def test_every_listing_is_used():
    unused = sorted(set(LISTINGS) - included_listings())
    assert not unused, f"listings in snippets/ that no page shows: {unused}"


def run_listing(name: str, lang: str) -> str:
    """Run the listing as the ``lang`` book shows it, in a fresh interpreter; its output."""
    result = subprocess.run([sys.executable, "-c", listing_source(name, lang)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"snippets/{name} ({lang}) failed:\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize("name", LISTINGS)
def test_listing_runs_and_its_output_is_on_the_page(name):
    """Run the listing for each language; its output must be what that language's built pages show."""
    for lang in LANGS:
        output = run_listing(name, lang)
        assert output.strip(), f"snippets/{name} ({lang}) prints nothing: a reader would see an empty output block"
        shown = []
        for page in pages(lang):
            if f'"{name}"' not in (DOCS / lang / page).read_text(encoding="utf-8"):
                continue
            built = built_page(SITE, lang, page)
            text = html.unescape(re.sub(r"<[^>]+>", "", built.read_text(encoding="utf-8")))
            shown.append(built)
            assert output.strip() in text, f"{built} does not show the current output of snippets/{name}:\n{output}"
        assert shown, f"no {lang} page shows snippets/{name}"


# ---------------------------------------------------------------- the [zh] / [en] line convention

MARKED = (
    'sentence = "小猫 追 球"          # [zh]\n'
    'sentence = "the cat chased"     # [en]\n'
    "# 每个词一个分数 [zh]\n"
    "# one score per word [en]\n"
    "scores = len(sentence)          # (n,)\n"
    "for word in sentence.split():\n"
    '    print("词", word)            # [zh]\n'
    '    print("word", word)          # [en]\n'
    'label = "not a marker [en]"\n'
)


def test_the_filter_keeps_each_languages_lines_and_removes_the_markers():
    assert listings.for_language(MARKED, "zh") == (
        'sentence = "小猫 追 球"\n'
        "# 每个词一个分数\n"
        "scores = len(sentence)          # (n,)\n"
        "for word in sentence.split():\n"
        '    print("词", word)\n'
        'label = "not a marker [en]"\n'
    )
    assert listings.for_language(MARKED, "en") == (
        'sentence = "the cat chased"\n'
        "# one score per word\n"
        "scores = len(sentence)          # (n,)\n"
        "for word in sentence.split():\n"
        '    print("word", word)\n'
        'label = "not a marker [en]"\n'
    )


def test_a_listing_without_markers_is_unchanged_and_a_bad_language_is_refused():
    plain = "x = 1  # (1,)\nprint(x)\n"
    assert listings.for_language(plain, "zh") == listings.for_language(plain, "en") == plain
    with pytest.raises(ValueError, match="lang must be one of"):
        listings.for_language(plain, "fr")


def test_the_build_hook_fills_in_each_listing_for_the_page_language():
    import importlib.util

    spec = importlib.util.spec_from_file_location("listings_hook", ROOT / "docs" / "hooks" / "listings.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    name = LISTINGS[0]
    page = f'!!! note\n\n    ```python exec="on" source="above" result="text"\n    --8<-- "{name}"\n    ```\n'
    for lang in LANGS:
        body = "".join(f"    {line}".rstrip() + "\n" for line in listing_source(name, lang).splitlines())
        assert hook.expand(page, lang) == (
            f'!!! note\n\n    ```python exec="on" source="above" result="text"\n{body}    ```\n')


@pytest.mark.parametrize("lang", LANGS)
def test_no_marker_reaches_a_built_page(lang):
    """The markers are build instructions: a reader never sees "# [zh]" or "[en]" at a line's end."""
    marker = re.compile(r"\[(zh|en)\]\s*$", re.M)
    leaks = []
    for page in pages(lang):
        text = html.unescape(re.sub(r"<[^>]+>", "", built_page(SITE, lang, page).read_text(encoding="utf-8")))
        leaks += [f"{lang}/{page}" for _ in marker.findall(text)]
    assert not leaks, f"pages that show a [zh]/[en] marker: {sorted(set(leaks))}"
