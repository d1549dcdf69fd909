"""Build glue: every listing on a page is shown and run in the page's language.

A page includes a listing with an executed fence holding one line, ``--8<-- "chN/name.py"``.
Before markdown-exec runs it, this hook replaces that line with the file filtered for the page's
language by ``tools/listings.py`` (lines marked ``# [zh]`` / ``# [en]``, markers removed): so the
Chinese book shows and runs the ``[zh]`` lines, the English book the ``[en]`` lines, and both
the unmarked ones. It runs after every other ``on_page_markdown`` (priority -110): the macros
plugin never sees the code (no Jinja in listings), and docs/hooks/playground.py and
docs/hooks/exec_cache.py still see the include lines.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = ROOT / "snippets"


def _load():
    spec = importlib.util.spec_from_file_location("attnbook_listings", ROOT / "tools" / "listings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


listings = _load()


def expand(markdown: str, lang: str) -> str:
    """Replace each listing include inside an executed fence with the listing for ``lang``."""

    def replace(match):
        path = SNIPPETS / match["path"]
        if not path.is_file():
            return match[0]  # pymdownx.snippets reports the missing file itself
        try:
            code = listings.for_language(path.read_text(encoding="utf-8"), lang)
        except ValueError as error:
            raise PluginError(f"listings: snippets/{match['path']}: {error}") from None
        indent, fence = match["indent"], match["fence"]
        body = "".join(f"{indent}{line}".rstrip() + "\n" for line in code.splitlines())
        head = match[0].split("\n", 1)[0]
        return f"{head}\n{body}{indent}{fence}"

    return listings.FENCE.sub(replace, markdown)


# Last of all (docs/hooks/exec_cache.py reads the include lines at priority 100, before this).
@event_priority(-110)
def on_page_markdown(markdown, page, config, files):
    return expand(markdown, config.theme["language"])
