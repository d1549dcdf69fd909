"""Chinese typography, read from the built pages as a reader sees them.

Chinese running text quotes with “” (and ‘’ inside), never ASCII "…"; numbers follow Chinese
habit (1100 万, 约 2×10⁻⁹, 万/亿 right before the measure word: 275.8 万次), never Western digit
grouping (11,000,000) or e-notation (2e-09).
Code, listing output and math keep their own rules and are not read. Every Chinese page is
checked, including chapters added later, because the list comes from the built site.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from book import DOCS, ROOT

SITE = ROOT / "site"

# Elements whose text is not running prose: code, listing output, math, drawings, scripts.
SKIP_TAGS = {"pre", "code", "kbd", "samp", "script", "style", "svg", "math", "textarea", "template"}
SKIP_CLASSES = {"arithmatex", "katex", "headerlink", "jp-OutputArea", "jp-InputArea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

ASCII_QUOTE = re.compile(r'"')
GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
E_NOTATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+(?![\w])")
SPACED_WAN = re.compile(r"\d [万亿] +[\u4e00-\u9fff]")      # "275.8 万 次": 万/亿 touch the measure word


class ProseText(HTMLParser):
    """Collects the text of <article> (and the alt/title texts a reader meets), minus code and math."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: does it start a skipped region?
        self.skipping = 0
        self.in_article = 0
        self.chunks: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.in_article += 1
        if self.in_article and not self.skipping:
            for name in ("alt", "title", "aria-label"):
                if attrs.get(name):
                    self.chunks.append(attrs[name])
        if tag in VOID:
            return
        classes = set((attrs.get("class") or "").split())
        skip = tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
        self.stack.append((tag, skip))
        self.skipping += skip

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            open_tag, skip = self.stack.pop()
            self.skipping -= skip
            if open_tag == "article":
                self.in_article -= 1
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.in_article and not self.skipping:
            self.chunks.append(data)


def prose(html: str) -> list[str]:
    parser = ProseText()
    parser.feed(html)
    # math delimiters that KaTeX renders in the browser stay in the HTML as \( ... \)
    text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]|\$\$.*?\$\$", " ", " ".join(parser.chunks), flags=re.S)
    return [line.strip() for line in re.split(r"(?<=[。！？；\n])", text) if line.strip()]


def problems(lines: list[str]) -> list[str]:
    found = []
    for line in lines:
        for name, pattern in (("ASCII quote", ASCII_QUOTE), ("digit grouping", GROUPED), ("e-notation", E_NOTATION),
                              ("space after 万/亿", SPACED_WAN)):
            if pattern.search(line):
                found.append(f"{name}: {line[:160]}")
    return found


def unbalanced_quotes(lines: list[str]) -> list[str]:
    """“” must pair up: a ” with no “ before it (the seeds' ”看”), or a second “ before the ”."""
    text, found, opened = " ".join(lines), [], None
    for i, c in enumerate(text):
        if c == "“":
            if opened is not None:
                found.append(f"unbalanced quote: {text[max(0, opened - 30):i + 10]}")
            opened = i
        elif c == "”":
            if opened is None:
                found.append(f"unbalanced quote: {text[max(0, i - 30):i + 10]}")
            opened = None
    return found


def chinese_pages() -> list[Path]:
    pages = [p for p in SITE.rglob("index.html") if not p.relative_to(SITE).parts[0] in ("en", "print_page")]
    assert pages, "no built Chinese pages: run make build"
    return sorted(pages)


@pytest.mark.parametrize("page", chinese_pages() if SITE.is_dir() else [], ids=lambda p: str(p.relative_to(SITE).parent) or "home")
def test_chinese_page_uses_chinese_quotes_and_numbers(page):
    lines = prose(page.read_text(encoding="utf-8"))
    found = problems(lines) + unbalanced_quotes(lines)
    assert not found, f"{page.relative_to(SITE)}:\n" + "\n".join(found)


def test_every_chinese_page_was_checked():
    sources = [p for p in (DOCS / "zh").rglob("*") if p.suffix in (".md", ".py") and p.name[0] != "_"]
    assert len(chinese_pages()) >= len(sources), "some Chinese pages were not built: run make build"


def test_glossary_chinese_text_uses_chinese_quotes():
    entries = yaml.safe_load((DOCS / "glossary.yml").read_text(encoding="utf-8"))
    found = []
    for entry in entries:
        texts = {"zh": entry.get("zh")} | {key: value.get("zh") for key, value in entry.items() if isinstance(value, dict)}
        for key, text in texts.items():
            if isinstance(text, str):
                found += [f"{entry.get('zh')}.{key}: {p}" for p in problems([text])]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "html, expected",
    [
        ('<article><p>读"今天"时</p></article>', ["ASCII quote"]),
        ('<article><p>读“今天”时，<code>x = "a"</code></p></article>', []),
        ('<article><p>一共 11,000,000 倍</p></article>', ["digit grouping"]),
        ('<article><p>只剩 2e-09 倍</p></article>', ["e-notation"]),
        ('<article><p>约 275.8 万 次乘加</p></article>', ["space after 万/亿"]),
        ('<article><p>约 275.8 万次乘加，1100 万，10 亿。</p></article>', []),
        ('<article><p>约 2×10⁻⁹，1100 万倍，[5, 2, 0]，3.14</p></article>', []),
        ('<article><pre>1,000 2e-09 "x"</pre><span class="arithmatex">\\("a"\\)</span></article>', []),
        ('<article><img alt="图里的&quot;它&quot;"></article>', ["ASCII quote"]),
        ('<article><details><summary>\\"forget\\"</summary></details></article>', ["ASCII quote"]),
        ('<p>"outside the article"</p>', []),
    ],
)
def test_the_checker_itself(html, expected):
    assert [p.split(":")[0] for p in problems(prose(html))] == expected


def all_pages() -> list[Path]:
    """Every built page of both languages, the print pages (the PDF's source) included."""
    return sorted(SITE.rglob("index.html"))


@pytest.mark.parametrize("page", all_pages() if SITE.is_dir() else [], ids=lambda p: str(p.relative_to(SITE).parent) or "home")
def test_no_escaped_quote_shows_literally(page):
    """A backslash-escaped quote in an admonition title (??? note "say \\"hi\\"") renders as \\" in the page."""
    leaks = [line[:160] for line in prose(page.read_text(encoding="utf-8")) if '\\"' in line or "\\'" in line]
    assert not leaks, f"{page.relative_to(SITE)}:\n" + "\n".join(leaks)


RAW_LINK = re.compile(r"\]\((?:\.\./|\./|[\w-]+/|#)[^)\s]*\)")
NO_ALT = "No description has been provided for this image"


@pytest.mark.parametrize("page", all_pages() if SITE.is_dir() else [], ids=lambda p: str(p.relative_to(SITE).parent) or "home")
def test_no_raw_markdown_link_shows(page):
    """A Markdown link that was not converted ([5.1 节](../parallel/)) shows its brackets to the reader."""
    leaks = [line[:160] for line in prose(page.read_text(encoding="utf-8")) if RAW_LINK.search(line)]
    assert not leaks, f"{page.relative_to(SITE)}:\n" + "\n".join(leaks)


@pytest.mark.parametrize("page", all_pages() if SITE.is_dir() else [], ids=lambda p: str(p.relative_to(SITE).parent) or "home")
def test_every_image_has_a_real_alt_text(page):
    html = page.read_text(encoding="utf-8")
    article = html[html.find("<article"):html.rfind("</article>")]
    imgs = re.findall(r"<img\b[^>]*>", article)
    bad = [tag[:120] for tag in imgs if NO_ALT in tag or not re.search(r'\balt="[^"]+"', tag)]
    assert not bad, f"{page.relative_to(SITE)}:\n" + "\n".join(bad)


def test_quote_pairing_check_itself():
    assert unbalanced_quotes(["自注意力到底在”看”什么"])
    assert unbalanced_quotes(["他说“你好，“再见”"])
    assert not unbalanced_quotes(["他说：“你好。", "再见。”然后走了，“它”指小猫。"])


def test_leak_checks_themselves():
    assert RAW_LINK.search("背景见 [5.1 节](../parallel/) 和")
    assert not RAW_LINK.search("分数 [5, 2, 0] (softmax)")
    assert problems(prose('<article><p>见<a href="../parallel/">5.1 节</a></p></article>')) == []


class EnglishProse(ProseText):
    """The prose a sighted reader of the English book sees (attributes left out: alt texts are heard)."""

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, [(k, v) for k, v in attrs if k not in ("alt", "title", "aria-label")])


def english_pages() -> list[Path]:
    return sorted(p for p in (SITE / "en").rglob("index.html") if "print_page" not in p.parts)


@pytest.mark.parametrize("page", english_pages() if SITE.is_dir() else [], ids=lambda p: str(p.relative_to(SITE).parent))
def test_english_prose_quotes_one_way(page):
    """Prose, headings, fold and exercise titles all use “” and ’ (the smarty extension curls what the
    source types straight), never a straight " in one place and a curly one in the next."""
    parser = EnglishProse()
    parser.feed(page.read_text(encoding="utf-8"))
    text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", " ", " ".join(parser.chunks), flags=re.S)
    straight = [text[max(0, m.start() - 40):m.end() + 40] for m in re.finditer(r"[\"']", text)]
    assert not straight, f"{page.relative_to(SITE)}: straight quotes in prose:\n" + "\n".join(straight[:10])
