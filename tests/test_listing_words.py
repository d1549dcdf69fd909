"""A Chinese reader meets no English word in a listing that the page does not explain.

A listing of the Chinese book (``snippets/chN/x.py`` as ``[zh]`` lines leave it) may keep the
code's own names (``n_kv_heads``, ``repeat_kv``) in its comments, and its output may print what
the page talks about (RoPE, softmax, KV), but a comment or an output line that says ``each``,
``head g holds g`` or ``max`` speaks English to a reader of the Chinese book. A word counts as
explained when the page's own Chinese text uses it (its prose and inline code, read from the
built page; not its formulas, whose \text{heads} is a symbol); a comment may also use the names of
the listing's code (but an output line says ``max`` in English even when the code calls ``max``). Shapes in a
comment (``(n_kv, 1, 1)``, ``(batch=1, n=6)``) are code; single letters are math.
"""

from __future__ import annotations

import html
import io
import re
import tokenize
from html.parser import HTMLParser

import pytest

import yaml

from book import DOCS, INCLUDE, ROOT, built_page, fences, listing_source, pages

SITE = ROOT / "site"
# An English word: letters only (a name with a digit or an underscore, dh_t or bf16, is a symbol).
WORD = re.compile(r"(?<![\w.])[A-Za-z]{2,}(?:['’][a-z]+)?(?![\w])")
# A shape in a comment: a tuple of dimensions, each a name, a number, name=number or a small sum.
DIM = r"\s*(?:[A-Za-z_]\w*|\d+)(?:\s*[=+*/-]\s*(?:[A-Za-z_]\w*|\d+))*\s*"
SHAPE = re.compile(rf"\((?:{DIM},)+(?:{DIM})?\)|\({DIM}\)")
# Python prints these values itself, and these are the names of functions in a formula.
PYTHON_VALUES = {"true", "false", "none"}
MATH_FUNCTIONS = {"sin", "cos", "tan", "tanh", "exp", "ln", "log"}
OUTPUT_BLOCK = re.compile(r'<div class="highlight"><pre(?: [^>]*)?>(?P<body>.*?)</pre></div>', re.S)   # a deck's pre has tabindex


class PageText(HTMLParser):
    """The words a reader of the page reads: everything in <article> (a deck's <div class="deck">)
    but code blocks (listings and their output), scripts, buttons and formulas."""

    SKIP = {"pre", "script", "style", "svg", "button"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []
        self.skipping = 0
        self.article = 0
        self.chunks: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("br", "img", "hr", "input", "meta", "link", "wbr", "source"):
            return
        classes = set((attrs.get("class") or "").split())
        skip = tag in self.SKIP or bool(classes & {"katex", "arithmatex"})
        body = tag == "article" or (tag == "div" and "deck" in classes)
        self.article += body
        self.stack.append((tag, skip, body))
        self.skipping += skip

    def handle_endtag(self, tag):
        if tag not in (open_tag for open_tag, _, _ in self.stack):
            return  # a stray end tag closes nothing
        while self.stack:
            open_tag, skip, body = self.stack.pop()
            self.skipping -= skip
            self.article -= body
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.article and not self.skipping:
            self.chunks.append(data)


def page_words(page_html: str) -> set[str]:
    parser = PageText()
    parser.feed(page_html)
    # the page's prose curls its apostrophes (smarty: didn’t), a listing prints Python's (didn't)
    return {w.lower() for w in WORD.findall(" ".join(parser.chunks).replace("’", "'"))}


def glossary_words() -> set[str]:
    """The English-letter words of the Chinese names (and match words) of docs/glossary.yml."""
    words = set()
    for entry in yaml.safe_load((DOCS / "glossary.yml").read_text(encoding="utf-8")):
        for name in [entry["zh"], *entry.get("match", {}).get("zh", [])]:
            words |= {w.lower() for w in WORD.findall(re.sub(r"（[^）]*）", "", name))}
    return words


def english(words: list[str], known: set[str]) -> list[str]:
    return [w for w in words if w.lower() not in known | MATH_FUNCTIONS and not w.isupper()]


def code_names(code: str) -> set[str]:
    """Every name the listing's code uses (variables, functions, attributes, keywords)."""
    names = set()
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.NAME:
            names.add(token.string.lower())
    return names


def comments(code: str) -> list[tuple[int, str]]:
    return [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]


def shown_outputs(page_html: str, name: str) -> list[str]:
    """The output block under each listing ``name`` of a built page (see tests/test_listings.py)."""
    found = []
    for button in re.finditer(rf'<button type="button" class="listing-edit[^"]*" data-listing="{re.escape(name)}"', page_html):
        blocks = list(OUTPUT_BLOCK.finditer(page_html, 0, button.start()))
        assert blocks, f"no output block before the listing {name}"
        found.append(html.unescape(re.sub(r"<[^>]+>", "", blocks[-1]["body"])))
    return found


def unexplained(code: str, outputs: list[str], known: set[str]) -> list[str]:
    """The comment and output lines of a Chinese listing that hold an English word outside ``known``
    (the page's words); a comment may also use the code's names."""
    problems = []
    names = code_names(code)
    for line, comment in comments(code):
        text = SHAPE.sub(" ", comment)
        words = english(WORD.findall(text), known | names)
        if words:
            problems.append(f"comment line {line} says {', '.join(map(repr, words))}: {comment.strip()}")
    for output in outputs:
        for number, line in enumerate(output.splitlines(), 1):
            words = english(WORD.findall(line), known | PYTHON_VALUES)
            if words:
                problems.append(f"output line {number} says {', '.join(map(repr, words))}: {line.strip()}")
    return problems


def listed_pages() -> list:
    return [p for p in pages("zh") if any(INCLUDE.match(b) for f in fences((DOCS / "zh" / p).read_text(encoding="utf-8")) for b in f.body)]


@pytest.mark.parametrize("page", listed_pages(), ids=str)
def test_chinese_listings_explain_their_english_words(page):
    source = (DOCS / "zh" / page).read_text(encoding="utf-8")
    built = built_page(SITE, "zh", page).read_text(encoding="utf-8")
    known = page_words(built) | glossary_words()
    problems = []
    for name in dict.fromkeys(m["path"] for f in fences(source) for b in f.body if (m := INCLUDE.match(b))):
        problems += [f"snippets/{name}: {p}" for p in unexplained(listing_source(name, "zh"), shown_outputs(built, name), known)]
    assert not problems, (f"docs/zh/{page}: English a Chinese reader is not told about (say it in Chinese, "
                          "or explain the word on the page):\n" + "\n".join(problems))


def test_the_checker_itself():
    code = "k = repeat_kv(kv, 2)  # (n_kv, 1, 1): head g holds g\nx = k.max()  # (batch=1, n=6) 每个 max\n"
    assert unexplained(code, ["最大值 max 1.2  True", "RoPE 键： (7, 2)"], {"rope"}) == [
        "comment line 1 says 'head', 'holds': # (n_kv, 1, 1): head g holds g",
        "output line 1 says 'max': 最大值 max 1.2  True"]
    assert unexplained("y = 1  # 8 heads x (key 6 + value 4)\n", [], set()) == [
        "comment line 1 says 'heads', 'key', 'value': # 8 heads x (key 6 + value 4)"]
    assert unexplained("y = 1  # (16, 16) each\n", [], {"each"}) == []
    assert page_words('<article><p>用 <code>np.max</code> 和 softmax</p></p><pre>each</pre>'
                      '<span class="katex"><mtext>heads</mtext><annotation>\\text{heads}</annotation></span>'
                      '<p>logits</p></article><p>outside</p>') == {"np", "softmax", "logits"}
