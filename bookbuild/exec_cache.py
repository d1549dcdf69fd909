"""Executed code, cached by content: listings (markdown-exec) and lab notebooks (mkdocs-jupyter).

Listings. markdown-exec runs every ``python exec="on"`` fence in the build process. Its output
is cached in ``.cache/listings/`` under: the page language, the exact code it runs (after
snippet inclusion and any per-language filtering), the fence options, attnkit's sources (without
attnkit/figures/ unless the code mentions ``figures``), the environment (Python, NumPy,
matplotlib, fonts) and markdown-exec's version. A fence with ``session=`` (state shared between
blocks) is never cached. A listing that raises fails the build with a message naming its
snippet file and the page that includes it.

Notebooks. mkdocs-jupyter's own cache is keyed by the notebook's bytes only, and it evicts every
entry the current build did not use. So each language gets its own cache folder, named by
everything else the output depends on: ``.cache/notebooks/<lang>/<key>/``, key = attnkit's
sources without attnkit/figures/, the figure modules the labs can run (:func:`lab_figure_modules`:
the modules of the figures they draw, not every figure module, so editing a chapter 3 figure
does not re-execute the labs), the environment and the versions of nbconvert, nbclient,
ipykernel, jupytext and mkdocs-jupyter. One language's build never evicts the other's.

Shared computations. The listings (in the build process) and the labs' kernels memoize the
expensive pure calls of :data:`bookcache.MEMOIZED` as the figure workers do: a training run that
a figure, a listing and a lab all show is computed once for both languages. The kernels get it
from an IPython startup file that lab_kernels.py writes, with nbconvert's settings (a cell's
printed lines are one output however fast they come); those settings are part of the key.
"""

from __future__ import annotations

import logging
import re
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from pathlib import Path

from . import lab_kernels
from .patches import patch
from .bookcache import (ATTNKIT, CACHE, FIGURE_SHARED, MEMOIZED, Store, _version, attnkit_digest, attnkit_files,
                       environment, imported_figure_modules, key, memoize, sources)

log = logging.getLogger("mkdocs.hooks.exec_cache")
LISTINGS = Store("listings", ".txt")
# a listing fence and the snippet it includes (the form bookbuild/playground.py documents)
LISTING = re.compile(r'^[ \t]*`{3,}python exec="on"[^\n]*\n[ \t]*--8<--\s+"(?P<path>[^"]+\.py)"', re.M)

RUN_PYTHON = "markdown_exec._internal.formatters.python:_run_python"

_state = {"lang": "zh", "page": None, "snippets": [], "index": 0, "hits": 0, "runs": 0}


def _where() -> str:
    page, snippets, i = _state["page"], _state["snippets"], _state["index"]
    snippet = f"snippets/{snippets[i]}" if i < len(snippets) else "a python exec fence"
    return f"{snippet} (included by docs/{_state['lang']}/{page})"


def _cached_run(original):
    from markdown_exec._internal.formatters.python import _code_block_id as code_block_id   # bookbuild/patches.py

    def run(code: str, returncode=None, session=None, id=None, **extra):  # noqa: A002
        where = _where()
        _state["index"] += 1
        if session:
            return original(code, returncode=returncode, session=session, id=id, **extra)
        k = key("listing", 1, _state["lang"], code, repr(returncode), repr(id), repr(sorted(extra.items())),
                attnkit_digest(figures="figures" in code), environment(), _version("markdown-exec"))
        cached = LISTINGS.get(k)
        if cached is not None:
            _state["hits"] += 1
            # the block's number, taken as the run would take it (markdown-exec counts the blocks it
            # runs): the numbers are the same whichever listings hit, so a listing edit does not
            # change the converted-page key (pagecache: markdown-exec's counters) of every later page
            code_block_id(id, session, extra.get("title"))
            return cached.decode("utf-8")
        had_figures = "attnkit.figures" in sys.modules
        try:
            output = original(code, returncode=returncode, session=session, id=id, **extra)
        except Exception as error:
            cause = error.__cause__ or error
            log.error("Listing %s failed: %s: %s", where, type(cause).__name__, cause)
            raise
        if not had_figures and "attnkit.figures" in sys.modules and "figures" not in code:
            raise PluginError(f"Listing {where} imported attnkit.figures without naming it; "
                              "the listing cache cannot see that dependency")
        _state["runs"] += 1
        LISTINGS.put(k, output.encode("utf-8"))
        return output

    return run


RENDER = re.compile(r"""render_svg\(\s*(?P<q>["'])(?P<id>[\w-]+)(?P=q)""")
FIGURE_IMPORT = re.compile(r"^\s*(?:from|import)\s+attnkit\.figures\.(?P<module>\w+)", re.M)


def lab_figure_modules(docs_dir) -> set[str] | None:
    """The files of attnkit/figures/ whose code the lab notebooks of ``docs_dir`` can run:
    attnkit/figures/__init__.py and _style.py, the module of each figure a lab draws with
    ``render_svg("<id>", ...)`` (a literal id), each figure module a lab imports by name, and
    the figure modules those import. None (meaning: all of attnkit/figures/) when a lab uses
    the figures some other way (an id that is not a literal, ``FIGURES``, a figure id no
    module defines), so the key is never narrower than what the code can reach."""
    figure_dir = ATTNKIT / "figures"
    defines = {}
    for path in sorted(figure_dir.glob("*.py")):
        for m in re.finditer(r"""@figure\(\s*["']([\w-]+)["']""", path.read_text(encoding="utf-8")):
            defines[m[1]] = path.name
    modules = set(FIGURE_SHARED)
    for lab in sorted(Path(docs_dir).glob("ch*/lab-*.py")):
        text = lab.read_text(encoding="utf-8")
        uses = len(re.findall(r"render_svg\(", text))
        ids = [m["id"] for m in RENDER.finditer(text)]
        if uses != len(ids) or any(i not in defines for i in ids) or "FIGURES" in text \
                or re.search(r"from\s+attnkit\s+import\s+[^\n]*\bfigures\b|attnkit\.figures\.(?!_style\b)\w+\(", text):
            return None
        modules |= {defines[i] for i in ids}
        modules |= {m["module"] + ".py" for m in FIGURE_IMPORT.finditer(text)}
    parsed: dict = {}
    for name in sorted(modules):
        modules = modules | imported_figure_modules(name, parsed, figure_dir)
    return modules


def lab_figures_digest(docs_dir) -> str:
    modules = lab_figure_modules(docs_dir)
    files = attnkit_files(figures=True) if modules is None else [ATTNKIT / "figures" / m for m in sorted(modules)]
    return sources([p for p in files if "figures" in p.relative_to(ATTNKIT).parts[:-1]])


def on_config(config):
    lang = config.theme["language"]
    _state.update(lang=lang, hits=0, runs=0)
    # markdown-exec's private _run_python, wrapped only while it is the code recorded in
    # bookbuild/patches.py (another version runs uncached, its errors unnamed, until checked)
    if not patch(RUN_PYTHON, _cached_run):
        log.info("exec_cache: markdown-exec's _run_python is not the code bookbuild/patches.py records: "
                    "listings run uncached (tests/test_build.py::test_patched_internals_are_the_code_they_were_written_from)")
    memoize(MEMOIZED)   # the listings share the figure workers' training runs and measurements
    if "mkdocs-jupyter" in config.plugins:
        nbconvert = lab_kernels.configure()
        nb = key("notebooks", 3, lang, nbconvert, attnkit_digest(figures=False), lab_figures_digest(config.docs_dir), environment(),
                 *[_version(p) for p in ("nbconvert", "nbclient", "ipykernel", "jupytext", "mkdocs-jupyter")])
        config.plugins["mkdocs-jupyter"].config["cache_dir"] = str(CACHE / "notebooks" / lang / nb[:24])
    return config


@event_priority(100)   # before the macros plugin: the order is in mkdocs.yml, above `hooks:`
def on_page_markdown(markdown, page, config, files):
    _state.update(page=page.file.src_uri, index=0,
                  snippets=[m["path"] for m in LISTING.finditer(markdown)])
    return markdown


def on_post_build(config):
    log.info("listings (%s): %d run, %d cached", _state["lang"], _state["runs"], _state["hits"])
