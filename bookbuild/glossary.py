"""The glossary, docs/glossary.yml, as the single source of three things:

1. definitions on every page: the first occurrence of each term in a page's running text is wrapped
   in ``<abbr class="gloss" title="..." tabindex="0">`` (Material's ``content.tooltips``); Markdown's
   ``abbr`` needs word boundaries, which Chinese lacks, and wraps every occurrence. Headings, links,
   code, math, summaries, figures and the glossary page itself are left alone;
2. the glossary pages, ``{{ glossary() }}``; 3. chapter 7's concept table, ``{{ concept_table() }}``.
"""

from __future__ import annotations

import html as htmllib
import posixpath
import re
from functools import lru_cache
from pathlib import Path

import yaml
from .bookcache import load_yaml
from .html_tags import cached, regions
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.yml"
LANGS = ("zh", "en")
GLOSSARY_PAGE = "glossary.md"

REQUIRED = ("id", "zh", "en", "short.zh", "short.en", "section.zh", "section.en")


class GlossaryError(PluginError):
    """A glossary entry that cannot be used; the message names the entry and the field."""


def _entry_name(n: int, e) -> str:
    if isinstance(e, dict) and e.get("id"):
        return f"entry id {e['id']!r}"
    name = isinstance(e, dict) and (e.get("zh") or e.get("en"))
    return f"entry #{n + 1}" + (f" ({name})" if name else "")


def check_entries(data) -> list[dict]:
    """Each entry has the fields every use needs; raise GlossaryError naming the entry otherwise,
    e.g. "docs/glossary.yml, entry id 'softmax': short.en is missing or empty"."""
    if not isinstance(data, list):
        raise GlossaryError(f"docs/glossary.yml must be a list of entries, got {type(data).__name__}")
    seen = {}
    for n, e in enumerate(data):
        where = f"docs/glossary.yml, {_entry_name(n, e)}"
        if not isinstance(e, dict):
            raise GlossaryError(f"{where}: an entry is a mapping (id, zh, en, short, section...), got {e!r}")
        row = [f"metaphor.{lang}" for lang in LANGS if e.get("metaphor") or e.get("table")]
        row += ["formula", "attnkit"] if e.get("table") else []
        for field in [*REQUIRED, *row]:
            value = e
            for part in field.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if not (isinstance(value, str) and value.strip()):
                raise GlossaryError(f"{where}: {field} is missing or empty"
                                    + (" (a concept-table row, table: true, needs it)" if e.get("table") and field in row else ""))
        if e["id"] in seen:
            raise GlossaryError(f"{where}: the id is used twice (also by entry #{seen[e['id']] + 1})")
        seen[e["id"]] = n
    return data


@lru_cache(maxsize=4)
def _load(mtime: float) -> list[dict]:
    try:
        data = load_yaml(GLOSSARY)
    except yaml.YAMLError as error:
        raise GlossaryError(f"docs/glossary.yml is not valid YAML: {error}") from None
    return check_entries(data)


def entries() -> list[dict]:
    """The glossary entries, in file order (re-read when the file changes)."""
    return _load(GLOSSARY.stat().st_mtime)


_SKIP = {"a", "abbr", "code", "pre", "kbd", "samp", "script", "style", "svg", "math", "button",
         "textarea", "select", "summary", "figure", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6",
         "label", "title"}
_SKIP_CLASS = re.compile(r'class="[^"]*\b(arithmatex|katex|md-typeset__scrollwrap-skip|gloss|headerlink)\b')


def _pattern(word: str) -> str:
    """A regex for ``word`` in running text: Latin words need a boundary on their Latin sides
    (so 'RNN' does not match inside 'RNNs' and 'mask' not inside 'masked'); Chinese needs none."""
    body = re.escape(word).replace(r"\ ", r"\s+")
    if re.match(r"[A-Za-z0-9]", word):
        body = r"(?<![A-Za-z0-9_-])" + body
    if re.search(r"[A-Za-z0-9]$", word):
        body = body + r"(?![A-Za-z0-9_-])"
    return body


@lru_cache(maxsize=8)
def _matcher(lang: str, mtime: float):
    """(compiled regex with one named group per term, {group: (id, definition)})."""
    words, info = [], {}
    for n, e in enumerate(_load(mtime)):
        for word in (e.get("match") or {}).get(lang) or []:
            words.append((word, f"g{n}"))
        # phrases in which a match word is an ordinary word ("arrow keys"): matched, then left alone
        for phrase in (e.get("avoid") or {}).get(lang) or []:
            words.append((phrase, f"x{n}"))
        info[f"g{n}"] = (e["id"], e["short"][lang])
    # longest first, so 自注意力 wins over 注意力 and "multi-head attention" over "attention"
    words.sort(key=lambda w: -len(w[0]))
    alternatives = "|".join(f"(?P<{g}_{i}>{_pattern(w)})" for i, (w, g) in enumerate(words))
    flags = re.I if lang == "en" else 0
    return re.compile(alternatives, flags), info


def add_tooltips(html: str, lang: str) -> str:
    """Wrap the first occurrence of each glossary term in ``html`` in an ``<abbr>``.

    >>> add_tooltips("<p>每个词的注意力，注意力。</p>", "zh").count("<abbr")
    1
    >>> "<h2>" + "softmax" in add_tooltips("<h2>softmax</h2><p>softmax</p>", "en")
    True
    >>> add_tooltips("<p>move with the arrow keys</p>", "en").count("<abbr")
    0
    """
    regex, info = _matcher(lang, GLOSSARY.stat().st_mtime)
    done: set[str] = set()

    def text(chunk: str) -> str:
        if not chunk.strip():
            return chunk
        pieces, last = [], 0
        for m in regex.finditer(chunk):
            group = m.lastgroup.split("_")[0]
            if group.startswith("x"):
                continue                          # an ordinary-word phrase from `avoid`: no tooltip
            term_id, definition = info[group]
            if term_id in done:
                continue
            done.add(term_id)
            pieces += [chunk[last:m.start()], f'<abbr class="gloss" data-term="{term_id}" tabindex="0" '
                       f'title="{htmllib.escape(definition, quote=True)}">{m.group(0)}</abbr>']
            last = m.end()
        pieces.append(chunk[last:])
        return "".join(pieces)

    def skipped(name: str, attrs: str) -> bool:   # no tooltip inside
        return name in _SKIP or bool(_SKIP_CLASS.search(attrs))

    return "".join(text(chunk) if tag is None and not inside else chunk
                   for chunk, tag, inside in regions(html, skipped))


def on_page_content(html, page, config, files):
    if page.file.src_uri == GLOSSARY_PAGE:
        return html
    lang = config["theme"]["language"]   # re-matching every page cost ~1 s per build
    return cached("tooltips", html, lang, [GLOSSARY, Path(__file__).resolve()], lambda: add_tooltips(html, lang))


LABELS = load_yaml(ROOT / "docs" / "labels.yml")["glossary"]   # the page's and the table's headings


def _section_title_of(e: dict, lang: str, docs_dir: str) -> str:
    """The H1 of the page an entry's ``section.<lang>`` names ('ch3/softmax.md#...'); a missing
    page or H1 names the entry."""
    path = Path(docs_dir) / e["section"][lang].split("#")[0]
    try:
        return next(line[2:].strip() for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# "))
    except (OSError, StopIteration) as error:
        raise GlossaryError(f"docs/glossary.yml, entry id {e['id']!r}: section.{lang} {e['section'][lang]!r}: "
                            f"{error if isinstance(error, OSError) else f'{path} has no H1 title'}") from None


def _rel(target: str, page_uri: str) -> str:
    page, _, anchor = target.partition("#")
    link = posixpath.relpath(page, posixpath.dirname(page_uri) or ".")
    return link + (f"#{anchor}" if anchor else "")


def _number(title: str) -> str:
    """'3.4 第三步：softmax…' -> '3.4'; a title without a number -> its part before a colon."""
    m = re.match(r"(\d+\.\d+)\s", title)
    return m.group(1) if m else re.split(r"[：:]", title)[0].strip()


def glossary_markdown(lang: str, docs_dir: str, page_uri: str) -> str:
    """The glossary page body: one H2 per term (anchor = its id), then its definition and links."""
    blocks = []
    for e in sorted(entries(), key=lambda e: e[lang].lower()) if lang == "en" else entries():
        facts = {"metaphor": e.get("metaphor") and e["metaphor"][lang],
                 "formula": e.get("formula") and f"\\({e['formula']}\\)",
                 "attnkit": e.get("attnkit") and f"`{e['attnkit']}`",
                 "section": f"[{_section_title_of(e, lang, docs_dir)}]({_rel(e['section'][lang], page_uri)})"}
        lines = [f"## {e[lang]} {{#{e['id']}}}", "", e["short"][lang], ""]
        lines += [f"- **{LABELS[lang][name]}**：{fact}" if lang == "zh" else f"- **{LABELS[lang][name]}:** {fact}"
                  for name, fact in facts.items() if fact]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def concept_table_markdown(lang: str, docs_dir: str, page_uri: str) -> str:
    """The concept table: one row per entry with ``table: true``."""
    cols = LABELS[lang]["columns"]
    rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    glossary_link = _rel(GLOSSARY_PAGE, page_uri)
    for e in [e for e in entries() if e.get("table")]:
        cells = [f"[{e[lang]}]({glossary_link}#{e['id']})", e["metaphor"][lang], e["short"][lang],
                 f"\\({e['formula']}\\)", f"`{e['attnkit'].removeprefix('attnkit.')}`",
                 f"[{_number(_section_title_of(e, lang, docs_dir))}]({_rel(e['section'][lang], page_uri)})"]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"


def register_macros(env) -> None:
    """Add ``glossary()`` and ``concept_table()`` to a mkdocs-macros environment."""

    def _where():
        return env.conf["theme"]["language"], env.conf["docs_dir"], env.page.file.src_uri

    @env.macro
    def glossary() -> str:
        """Every glossary term of this language, with its definition (the glossary page)."""
        return glossary_markdown(*_where())

    @env.macro
    def concept_table() -> str:
        """The concept table of chapter 7, one row per glossary entry marked ``table: true``."""
        return concept_table_markdown(*_where())
