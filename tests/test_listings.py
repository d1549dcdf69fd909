"""Every code fence in the book is an executed listing, and every listing runs and shows its output."""

import html
import re
import subprocess
import sys

import pytest

from book import DOCS, INCLUDE, LANGS, ROOT, SNIPPETS, built_page, fences, pages

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


def run_listing(name: str) -> str:
    result = subprocess.run([sys.executable, str(SNIPPETS / name)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"snippets/{name} failed:\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize("name", LISTINGS)
def test_listing_runs_and_its_output_is_on_the_page(name):
    """Run the listing in a fresh interpreter; its output must be what the built pages show."""
    output = run_listing(name)
    assert output.strip(), f"snippets/{name} prints nothing: a reader would see an empty output block"
    for lang in LANGS:
        shown = []
        for page in pages(lang):
            if f'"{name}"' not in (DOCS / lang / page).read_text(encoding="utf-8"):
                continue
            built = built_page(SITE, lang, page)
            text = html.unescape(re.sub(r"<[^>]+>", "", built.read_text(encoding="utf-8")))
            shown.append(built)
            assert output.strip() in text, f"{built} does not show the current output of snippets/{name}:\n{output}"
        assert shown, f"no {lang} page shows snippets/{name}"
