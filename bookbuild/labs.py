"""Lab notebooks (docs/<lang>/chN/lab-*.py, jupytext percent format, rendered by mkdocs-jupyter).

On each lab page: headings get the anchors its table of contents links to, images the alt texts of
their cells' metadata (``# %% alt=["first", ...]``), a drawing that is a book figure is named by its file,
cell ids are numbered, copy buttons speak the book's language, nbconvert's CDN mermaid loader goes;
``lab-*.ipynb`` is written for download. Each language's notebook cache folder is keyed by what the
output depends on beyond the notebook (:func:`on_config`); :func:`configure` writes the kernels' settings.
"""

from __future__ import annotations

import base64
import functools
import html
import itertools
import logging
import posixpath
import re
import os
from pathlib import Path

import jupytext
from mkdocs.exceptions import PluginError

from .bookcache import (ATTNKIT, CACHE, MEMOIZED, ROOT, _version, attnkit_digest, digest_for, environment, key,
                        write_atomically)

LAB = re.compile(r"(^|/)ch\d+/lab-[\w-]+\.py$")
MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{\s*'
                     r'const diagrams = document\.querySelectorAll\("\.jp-Mermaid.*?</script>', re.S)
NO_ALT = 'alt="No description has been provided for this image"'
SVG_DATA = re.compile(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')
CELL_ID = re.compile(r'id="cell-id=[^"]*"')
COPY_BUTTON = re.compile(r'<clipboard-copy\b[^>]*?\baria-label="Copy to Clipboard"[^>]*>')
COPY_FOR = re.compile(r'\bfor="([^"]*)"')
COPIED = re.compile(r'<span class="notice" hidden(?:="")?>Copied!</span>')
HEADING = re.compile(r'<h(?P<level>[1-6]) id="(?P<id>[^"]*)">(?P<text>.*?)<a class="anchor-link" href="#[^"]*">')
RENDER = re.compile(r"""render_svg\(\s*(?P<q>["'])(?P<id>[\w-]+)(?P=q)""")

# nbconvert's "Alternative text is missing on N image(s)." (through traitlets' logger) reports the
# placeholders add_alt_texts replaces (or fails the build on): silenced, so warnings keep meaning something.
logging.getLogger("traitlets").addFilter(lambda record: not str(record.msg).startswith("Alternative text is missing on "))


def alt_texts(src: Path) -> list[str]:
    """The alt texts of the images a lab draws, in order, from its cells' ``alt`` metadata."""
    notebook = jupytext.read(src, fmt="py:percent")
    return [alt for cell in notebook.cells for alt in cell.metadata.get("alt", [])]


def add_alt_texts(output: str, alts: list[str], where: str) -> str:
    """``output`` with each placeholder alt text replaced by the next of ``alts``."""
    found = output.count(NO_ALT)
    if found != len(alts):
        raise RuntimeError(f"{where}: {found} images without alt text but {len(alts)} alt texts in the cells' "
                           'metadata; give each drawing cell # %% alt=["...", ...], one per image')
    for alt in alts:
        output = output.replace(NO_ALT, f'alt="{html.escape(alt, quote=True)}"', 1)
    return output


def figure_files(output: str, figures: dict[str, bytes], page_url: str) -> str:
    """``output`` with each SVG drawing that is one of ``figures`` ({id: SVG as served}) named by its file,
    relative to ``page_url``; a drawing is the figure when it equals the figure's ``<svg>`` as minidom
    writes it (as IPython's SVG display does).

    >>> figure_files('<img src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0ibiIgYj0iMSIvPg=="><img src="data:image/svg+xml;base64,PGcvPg==">',
    ...              {"ch4-x": b'<?xml version="1.0"?>\\n<svg b="1" xmlns="n"/>\\n'}, "ch4/lab-heads/")
    '<img src="../../figures/ch4-x.svg"><img src="data:image/svg+xml;base64,PGcvPg==">'
    """
    from xml.dom import minidom

    by_length: dict[int, list[str]] = {}     # a figure's length, the prolog and final line break left out
    for fig_id, svg in figures.items():
        by_length.setdefault(len(svg[svg.find(b"<svg"):].strip()), []).append(fig_id)

    def as_ipython_shows(fig_id: str) -> bytes:
        return minidom.parseString(figures[fig_id]).getElementsByTagName("svg")[0].toxml().encode("utf-8")

    def link(match: re.Match) -> str:
        drawing = base64.b64decode(match[1])
        found = [f for f in by_length.get(len(drawing.strip()), []) if as_ipython_shows(f) == drawing]
        if not found:
            return match[0]
        return f'src="{posixpath.relpath(f"figures/{found[0]}.svg", page_url.rstrip("/") or ".")}"'

    return SVG_DATA.sub(link, output)


def is_lab(src_uri: str) -> bool:
    return bool(LAB.search(src_uri))


def fixed_cell_ids(html: str) -> str:
    """The cells' random ids (jupytext's, ``id="cell-id=…"``) numbered: fresh and cached runs give one page."""
    count = itertools.count()
    return CELL_ID.sub(lambda m: f'id="cell-id=cell-{next(count)}"', html)


@functools.cache
def material_words(lang: str) -> dict[str, str]:
    """Material's translations for ``lang`` (its partials/languages/<lang>.html), e.g. "clipboard.copy"."""
    import material
    source = Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{lang}.html"
    return dict(re.findall(r'^\s*"([\w.]+)": "(.*)",?$', source.read_text(encoding="utf-8"), re.M))


def localized_copy_buttons(page_html: str, lang: str) -> str:
    """Each notebook cell's copy button in the book's language.

    >>> localized_copy_buttons('<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-1"><span class="notice" hidden="">Copied!</span>', "zh")
    '<clipboard-copy for="cell-1" aria-label="复制"><span class="notice" hidden>已复制</span>'
    """
    words = material_words(lang)
    copy, copied = html.escape(words["clipboard.copy"]), html.escape(words["clipboard.copied"])
    page_html = COPY_BUTTON.sub(lambda m: f'<clipboard-copy for="{COPY_FOR.search(m[0])[1]}" aria-label="{copy}">', page_html)
    return COPIED.sub(f'<span class="notice" hidden>{copied}</span>', page_html)


def toc_ids(toc) -> list[str]:
    """The anchors of a table of contents, in page order."""
    return [i for item in toc for i in (item.id, *toc_ids(item.children))]


def heading_ids(html: str, ids: list[str]) -> str:
    """The notebook's headings with the anchors its table of contents links to (nbconvert makes ids of
    ASCII letters only: a Chinese heading got ``id=""``, its toc entry ``#_1``).

    >>> heading_ids('<h1 id="">实验<a class="anchor-link" href="#">¶</a></h1>', ["_1"])
    '<h1 id="_1">实验<a class="anchor-link" href="#_1">¶</a></h1>'
    """
    found = list(HEADING.finditer(html))
    if len(found) != len(ids):
        return html            # a table of contents of other depth: leave the page as nbconvert wrote it
    names = iter(ids)

    def anchored(m: re.Match) -> str:
        i = next(names)
        return f'<h{m["level"]} id="{i}">{m["text"]}<a class="anchor-link" href="#{i}">'
    return HEADING.sub(anchored, html)


KERNEL_STARTUP = """\
# Written by bookbuild/labs.py for the lab notebooks' kernels (IPYTHONDIR points here):
# this repository's attnkit, and the figure workers' disk memo of its expensive pure calls.
def _book_memoize():
    import sys
    sys.path.insert(0, {root!r})
    from bookbuild import bookcache
    bookcache.memoize({names!r})
_book_memoize()
del _book_memoize
"""


def nbconvert_config() -> str:
    """nbconvert's config for the labs: CoalesceStreamsPreprocessor moved after ExecutePreprocessor and
    enabled, so a cell's printed lines are one output (nbclient's ``coalesce_streams`` has no config)."""
    import json

    from nbconvert.exporters.exporter import Exporter

    order = list(Exporter.class_traits()["default_preprocessors"].default())
    coalesce, execute = "nbconvert.preprocessors.CoalesceStreamsPreprocessor", "nbconvert.preprocessors.ExecutePreprocessor"
    if coalesce not in order or execute not in order:
        raise PluginError(f"labs: nbconvert's preprocessors changed ({order}); update bookbuild/labs.py")
    order.remove(coalesce)
    order.insert(order.index(execute) + 1, coalesce)
    return json.dumps({"Exporter": {"default_preprocessors": order}, "CoalesceStreamsPreprocessor": {"enabled": True}},
                      indent=1) + "\n"


def _write(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_atomically(path, text.encode("utf-8"))


def configure() -> str:
    """Write the kernels' IPython startup file (memoizes MEMOIZED) and nbconvert's config, point IPYTHONDIR
    and JUPYTER_CONFIG_DIR at them (a contributor's ~/.jupyter is not read); returns the config."""
    _write(CACHE / "ipython" / "profile_default" / "startup" / "00-book-memo.py",
           KERNEL_STARTUP.format(root=str(ROOT), names=MEMOIZED))
    nbconvert = nbconvert_config()
    _write(CACHE / "jupyter" / "jupyter_nbconvert_config.json", nbconvert)
    os.environ["IPYTHONDIR"] = str(CACHE / "ipython")
    os.environ["JUPYTER_CONFIG_DIR"] = str(CACHE / "jupyter")
    return nbconvert


def labs_digest(docs_dir) -> str:
    """The part of attnkit the labs of ``docs_dir`` can run: their imports (bookcache.digest_for) and the
    module of each ``render_svg("<id>", ...)``; all of attnkit when a lab reaches figures otherwise."""
    figure_dir = ATTNKIT / "figures"
    defines = {}
    for path in sorted(figure_dir.glob("*.py")):
        for m in re.finditer(r"""@figure\(\s*["']([\w-]+)["']""", path.read_text(encoding="utf-8")):
            defines[m[1]] = path
    labs, drawn = sorted(Path(docs_dir).glob("ch*/lab-*.py")), set()
    for lab in labs:
        text = lab.read_text(encoding="utf-8")
        ids = [m["id"] for m in RENDER.finditer(text)]
        if len(re.findall(r"render_svg\(", text)) != len(ids) or any(i not in defines for i in ids) or "FIGURES" in text:
            return attnkit_digest(figures=True)
        drawn |= {defines[i] for i in ids}
    return digest_for([*labs, *sorted(drawn)])


def on_config(config):
    if "mkdocs-jupyter" in config.plugins:
        lang = config.theme["language"]
        nb = key("notebooks", 4, lang, configure(), labs_digest(config.docs_dir),
                 environment(), *[_version(p) for p in ("nbconvert", "nbclient", "ipykernel", "jupytext", "mkdocs-jupyter")])
        config.plugins["mkdocs-jupyter"].config["cache_dir"] = str(CACHE / "notebooks" / lang / nb[:24])
    return config


def on_page_content(html, page, config, files):
    # on the page content, so that the print page (bookbuild/offline_pdf.py) gets the alt texts too
    if not is_lab(page.file.src_uri):
        return html
    from .figures import cache_paths   # the figures the site serves (bookbuild/figures.py)

    html = heading_ids(html, toc_ids(page.toc))
    html = localized_copy_buttons(html, config.theme["language"])
    html = add_alt_texts(html, alt_texts(Path(page.file.abs_src_path)), page.file.src_uri)
    if SVG_DATA.search(html):
        figures = {fig_id: path.read_bytes() for fig_id, path in cache_paths(config.theme["language"]).items()}
        html = figure_files(html, figures, page.url)
    return fixed_cell_ids(html)


def on_post_page(output, page, config):
    if not is_lab(page.file.src_uri):
        return output
    output, count = MERMAID.subn("", output)
    if count != 1:
        raise RuntimeError(f"{page.file.src_uri}: expected one mermaid loader to remove, found {count}")
    return output


def on_post_build(config):
    docs = Path(config.docs_dir)
    for src in sorted(docs.glob("ch*/lab-*.py")):
        rel = src.relative_to(docs).with_suffix("")                   # ch4/lab-heads
        target = Path(config.site_dir) / rel / f"{src.stem}.ipynb"     # site/ch4/lab-heads/lab-heads.ipynb
        notebook = jupytext.read(src, fmt="py:percent")
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        for i, cell in enumerate(notebook.cells):   # jupytext draws random cell ids: fix them,
            cell["id"] = f"cell-{i}"                # so two builds write the same bytes
        target.parent.mkdir(parents=True, exist_ok=True)
        jupytext.write(notebook, target, fmt="ipynb")
