"""Read the book's sources: pages, headings, figures, listings and code fences."""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bookbuild import listings  # the [zh]/[en] line filter the build uses

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
LANGS = ("zh", "en")
CONFIGS = {"zh": ROOT / "mkdocs.yml", "en": ROOT / "mkdocs.en.yml"}

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>`{3,}|~{3,})(?P<info>.*)$")
INCLUDE = re.compile(r'^\s*--8<--\s+"(?P<path>[^"]+)"\s*$')
FIGURE = re.compile(r"\]\((?:\.\./)*figures/(?P<id>[a-z0-9-]+)\.svg\)")
HEADING = re.compile(r"^(?P<level>#{1,6})\s+\S")


def load_file(path: Path, name: str | None = None):
    """A command-line program of tools/ loaded as a module by its path (tools/ is not a package;
    the build's modules are: ``from bookbuild import widgets``). ``load_file(ROOT / "tools" / "pdf.py")``."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location(name or f"attnbook_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))   # as Python does for a script: a tool imports its siblings (serve: build)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def listing_source(name: str, lang: str) -> str:
    """snippets/<name> as the ``lang`` book shows and runs it."""
    return listings.for_language((SNIPPETS / name).read_text(encoding="utf-8"), lang)


@dataclass
class Fence:
    line: int
    info: str
    body: list[str] = field(default_factory=list)


def pages(lang: str) -> list[Path]:
    """Every Markdown page of one language, as paths relative to docs/<lang>."""
    base = DOCS / lang
    return sorted(p.relative_to(base) for p in base.rglob("*.md"))


def page_url(lang: str, page) -> str:
    """docs/<lang>/ch3/softmax.md -> "/ch3/softmax/" (zh) or "/en/ch3/softmax/" (en); index.md -> its folder."""
    stem = Path(page).with_suffix("")
    parts = stem.parts[:-1] if stem.name == "index" else stem.parts
    return ("/en/" if lang == "en" else "/") + "".join(part + "/" for part in parts)


def built_page(site: Path, lang: str, page) -> Path:
    """The HTML file the build writes for a source page: site/[en/]ch3/softmax/index.html."""
    return site / page_url(lang, page).lstrip("/") / "index.html"


def fences(text: str) -> list[Fence]:
    """All code fences of a page, wherever they are (top level, admonition, tab, list)."""
    found, current, closing = [], None, None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if current is None:
            if match:
                current = Fence(number, match["info"].strip())
                closing = match["mark"]
        elif match and match["mark"].startswith(closing) and not match["info"].strip():
            found.append(current)
            current = None
        else:
            current.body.append(line)
    if current is not None:
        found.append(current)
    return found


def structure(text: str) -> dict:
    """The parts of a page that both languages must share."""
    headings, in_fence = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (m := HEADING.match(line)):
            headings.append(len(m["level"]))
    return {
        "headings": headings,
        "figures": FIGURE.findall(text),
        "listings": [m["path"] for f in fences(text) for b in f.body if (m := INCLUDE.match(b))],
        "exercises": len(re.findall(r"^\?\?\?\+? question", text, re.M)),
    }


def _config(lang: str, key: str):
    """One setting of a language's config, from mkdocs.yml when mkdocs.en.yml inherits it."""
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load(CONFIGS[lang].read_text(encoding="utf-8"), Loader=Loader)
    while key not in config and "INHERIT" in config:
        config = yaml.load((CONFIGS[lang].parent / config["INHERIT"]).read_text(encoding="utf-8"), Loader=Loader)
    return config.get(key)


def not_in_nav(lang: str) -> set[str]:
    """The pages of one language that the config keeps out of the nav on purpose (``not_in_nav``,
    gitignore patterns: the chapters' slides)."""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines((_config(lang, "not_in_nav") or "").splitlines())
    return {p.as_posix() for p in pages(lang) if spec.match_file(p.as_posix())}


def nav_files(lang: str) -> list[str]:
    """The nav of one language's config (mkdocs.en.yml inherits mkdocs.yml's), flattened to the
    list of page files in order."""
    config = {"nav": _config(lang, "nav")}
    out: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, str):
                out.append(item)
            elif isinstance(item, dict):
                for value in item.values():
                    walk(value) if isinstance(value, list) else out.append(value)

    walk(config["nav"])
    return out
