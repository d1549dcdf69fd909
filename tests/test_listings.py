"""Every code fence in the book is an executed listing, and every listing runs and shows its output."""

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from book import DOCS, INCLUDE, LANGS, ROOT, SNIPPETS, built_page, fences, listing_source, listings, pages
from listing_output import output_problems
from importlib import import_module

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


def test_every_repository_file_is_valid_python_with_both_languages_lines():
    """A developer opens snippets/chN/x.py as it is: both languages' lines together must parse
    (a statement's first line in a [zh] and an [en] version does not)."""
    broken = []
    for name in LISTINGS:
        try:
            compile((SNIPPETS / name).read_text(encoding="utf-8"), name, "exec")
        except SyntaxError as error:
            broken.append(f"snippets/{name}:{error.lineno}: {error.msg}")
    assert not broken, "\n".join(broken)


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTINGS)
def test_python_runs_each_repository_file_as_it_is(name):
    """`python snippets/chN/x.py` runs (it prints both languages' lines; tools/listings.py and the
    site's downloads give one language's)."""
    result = subprocess.run([sys.executable, str(SNIPPETS / name)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"python snippets/{name} failed:\n{result.stderr}"


def test_every_listing_is_used():
    unused = sorted(set(LISTINGS) - included_listings())
    assert not unused, f"listings in snippets/ that no page shows: {unused}"


def downloaded(name: str, lang: str) -> Path:
    """The listing as the ``lang`` site serves it for download: site/[en/]listings/chN/x.py."""
    return (SITE / "en" if lang == "en" else SITE) / listings.download_path(name)


# `python x.py`, with the build's memo of attnkit's training runs (bookcache.MEMOIZED, keyed by
# attnkit's sources and the arguments): a listing that trains the induction model takes a minute
# of CPU in plain Python, and each listing runs here twice (zh, en). The build's listings use the
# same memo, and test_python_runs_each_repository_file_as_it_is runs every file with plain Python.
MEMOIZED_RUN = (f"import runpy, sys; sys.path.insert(0, {str(ROOT)!r}); from bookbuild import bookcache; sys.path.pop(0); "
                "bookcache.memoize(bookcache.MEMOIZED); "
                "path = sys.argv.pop(1); sys.argv[0] = path; runpy.run_path(path, run_name='__main__')")


def run_listing(name: str, lang: str) -> str:
    """Run the file a ``lang`` reader downloads, as they would (``python x.py``, in its own folder,
    attnkit installed; MEMOIZED_RUN), after checking it is the listing as that book shows it; its output."""
    path = downloaded(name, lang)
    assert path.is_file(), f"the {lang} site does not serve {name} for download at {path}"
    assert path.read_text(encoding="utf-8") == listing_source(name, lang), f"{path} is not snippets/{name} as the {lang} book shows it"
    result = subprocess.run([sys.executable, "-c", MEMOIZED_RUN, path.name], cwd=path.parent,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{path} ({lang}) failed:\n{result.stderr}"
    return result.stdout


OUTPUT_BLOCK = re.compile(r'<div class="highlight"><pre(?: [^>]*)?>(?P<body>.*?)</pre></div>', re.S)   # a deck's pre has tabindex


def shown_outputs(page_html: str, name: str) -> list[str]:
    """The output block shown under each listing ``name`` of a built page: the last one before
    the listing's "edit and run" button."""
    outputs = []
    for button in re.finditer(rf'<button type="button" class="listing-edit[^"]*" data-listing="{re.escape(name)}"', page_html):
        blocks = list(OUTPUT_BLOCK.finditer(page_html, 0, button.start()))
        assert blocks, f"no output block before the listing {name}"
        outputs.append(html.unescape(re.sub(r"<[^>]+>", "", blocks[-1]["body"])))
    return outputs


@pytest.mark.parametrize("name", LISTINGS)
def test_listing_runs_and_its_output_is_on_the_page(name):
    """Run the downloadable file of the listing for each language; its output must be the output
    block under the listing on each page of that language that shows it, and both its code and
    its output must speak that language (see language_problems)."""
    for lang in LANGS:
        output = run_listing(name, lang)
        assert output.strip(), f"snippets/{name} ({lang}) prints nothing: a reader would see an empty output block"
        problems = output_problems(name, output, lang)
        assert not problems, f"snippets/{name} ({lang}) prints:\n" + "\n".join(problems)
        shown = []
        for page in pages(lang):
            source = (DOCS / lang / page).read_text(encoding="utf-8")
            if f'"{name}"' not in source:
                continue
            built = built_page(SITE, lang, page)
            blocks = shown_outputs(built.read_text(encoding="utf-8"), name)
            shown.append(built)
            assert blocks, f"{built} shows no output block for {name}"
            for block in blocks:
                assert block.strip("\n") == output.strip("\n"), f"{built} does not show what {downloaded(name, lang)} prints:\n{output}"
            problems = language_problems(listing_source(name, lang), output, lang, chinese_allowed(source))
            assert not problems, f"docs/{lang}/{page} shows snippets/{name} in the wrong language:\n" + "\n".join(problems)
        assert shown, f"no {lang} page shows snippets/{name}"


# ---------------------------------------------------------------- each book's listings speak its language

# Han characters and the Chinese punctuation that goes with them.
HAN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")
# An English page that deliberately shows a Chinese example in a listing says so, with its reason:
#   <!-- listings-show-chinese: this page compares the Chinese sentence with the English one -->
CHINESE_ALLOWED = re.compile(r"<!--\s*listings-show-chinese:\s*(?P<reason>\S[^>]*?)\s*-->")


def chinese_allowed(page_source: str) -> bool:
    return bool(CHINESE_ALLOWED.search(page_source))


def english_labels() -> dict[str, str]:
    """English names of things the book names in Chinese: {lower-case English word: its Chinese name}.

    From the glossary (each term's English name and match words, unless the Chinese name or match
    words use the same word, as in "RNN") and from attnkit's zh/en label lists (the toy's feature
    and slot names, the story's features and heads, the order heads)."""
    from attnkit import position, story, toy, toy_heads

    labels = {}
    for entry in yaml.safe_load((DOCS / "glossary.yml").read_text(encoding="utf-8")):
        zh_words = " ".join([entry["zh"], *entry.get("match", {}).get("zh", [])]).lower()
        for word in [re.sub(r"\s*\(.*?\)", "", entry["en"]), *entry.get("match", {}).get("en", [])]:
            if word.lower() not in zh_words and HAN.search(entry["zh"]):
                labels[word.lower()] = entry["zh"]
    pairs = [(toy.FEATURE_NAMES["zh"], toy.FEATURE_NAMES["en"]), (story.FEATURE_NAMES["zh"], story.FEATURE_NAMES["en"]),
             (toy_heads.HEAD_NAMES["zh"], toy_heads.HEAD_NAMES["en"]), (story.HEAD_NAMES["zh"], story.HEAD_NAMES["en"]),
             (position.ORDER_HEAD_NAMES["zh"], position.ORDER_HEAD_NAMES["en"])]
    pairs += [(toy.SLOT_NAMES["zh"][step], toy.SLOT_NAMES["en"][step]) for step in toy.SLOT_NAMES["zh"]]
    for zh_names, en_names in pairs:
        for zh, en in zip(zh_names, en_names):
            if zh != en:
                labels[en.lower()] = zh
    return labels


def language_problems(code: str, output: str, lang: str, chinese_allowed: bool = False) -> list[str]:
    """What a reader of ``lang`` would meet in the other language in a listing's code or output."""
    problems = []
    if lang == "en" and not chinese_allowed:
        for where, text in (("code", code), ("output", output)):
            for number, line in enumerate(text.splitlines(), 1):
                if HAN.search(line):
                    problems.append(f"{where} line {number} has Chinese: {line.strip()}")
    if lang == "zh":
        labels = english_labels()
        pattern = re.compile(r"(?<![\w'])(" + "|".join(sorted(map(re.escape, labels), key=len, reverse=True)) + r")(?![\w'])", re.I)
        for number, line in enumerate(output.splitlines(), 1):
            for match in pattern.finditer(line):
                problems.append(f"output line {number} says {match[0]!r}, which the book calls {labels[match[0].lower()]}: {line.strip()}")
    return problems


def test_the_language_check_sees_chinese_in_english_and_english_labels_in_chinese():
    assert language_problems('print("它")\n', "它\n", "en") == [
        "code line 1 has Chinese: print(\"它\")", "output line 1 has Chinese: 它"]
    assert language_problems('print("它")\n', "它\n", "en", chinese_allowed=True) == []
    assert language_problems("", "hidden state: [0.5 0.5]\n特征： needs alive\n", "zh") == [
        "output line 1 says 'hidden state', which the book calls 隐藏状态: hidden state: [0.5 0.5]",
        "output line 2 says 'needs alive', which the book calls 要活物: 特征： needs alive"]
    assert language_problems("x = 1  # (n,)\n", "权重： [0.5 0.5]\nThe animal didn't cross\n", "zh") == []
    assert chinese_allowed("text\n<!-- listings-show-chinese: the page compares both sentences -->\n")
    assert not chinese_allowed("<!-- listings-show-chinese: -->")


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


def test_the_first_line_of_a_bracketed_statement_can_have_two_versions():
    source = ('w = np.array([[1.0, 0.0],   # (2, 2) 每行一个词 [zh]\n'
              'w = np.array([[1.0, 0.0],   # (2, 2) one row a word [en]\n'
              '              [0.0, 1.0]])\n')
    assert listings.for_language(source, "en") == 'w = np.array([[1.0, 0.0],   # (2, 2) one row a word\n              [0.0, 1.0]])\n'
    with pytest.raises(ValueError, match="cannot be tokenized"):
        listings.for_language("if x:\n  a = 1  # [zh]\n b = 2\n", "zh")


def test_a_listing_without_markers_is_unchanged_and_a_bad_language_is_refused():
    plain = "x = 1  # (1,)\nprint(x)\n"
    assert listings.for_language(plain, "zh") == listings.for_language(plain, "en") == plain
    with pytest.raises(ValueError, match="lang must be one of"):
        listings.for_language(plain, "fr")


def test_the_build_hook_fills_in_each_listing_for_the_page_language(monkeypatch):
    hook = import_module("bookbuild.listings")
    monkeypatch.setattr(hook, "output", lambda code, where: "printed\n")
    name = LISTINGS[0]
    page = f'!!! note\n\n    ```python exec="on" source="above" result="text"\n    --8<-- "{name}"\n    ```\n'
    for lang in LANGS:
        body = "".join(f"    {line}".rstrip() + "\n" for line in listing_source(name, lang).rstrip().splitlines())
        assert hook.expand(page, lang) == f'!!! note\n\n    ```python\n{body}    ```\n\n    ```text\n    printed\n    ```\n'


@pytest.mark.parametrize("lang", LANGS)
def test_no_marker_reaches_a_built_page(lang):
    """The markers are build instructions: a reader never sees "# [zh]" or "[en]" at a line's end."""
    marker = re.compile(r"\[(zh|en)\]\s*$", re.M)
    leaks = []
    for page in pages(lang):
        text = html.unescape(re.sub(r"<[^>]+>", "", built_page(SITE, lang, page).read_text(encoding="utf-8")))
        leaks += [f"{lang}/{page}" for _ in marker.findall(text)]
    assert not leaks, f"pages that show a [zh]/[en] marker: {sorted(set(leaks))}"
