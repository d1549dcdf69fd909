"""Lab notebooks (docs/<lang>/chN/lab-*.py, jupytext percent format, rendered by mkdocs-jupyter).

* Writes ``lab-*.ipynb`` next to each rendered lab page, so readers can download a notebook
  (mkdocs-jupyter's own download button offers the ``.py`` source).
* Gives every image a notebook draws its alt text: nbconvert writes "No description has been
  provided for this image" on each (and warns that alt text is missing: filtered, see
  :class:`_NoAltWarning`); the lab source gives the real ones, in order, as the metadata of the
  cell that draws them (``# %% alt=["first image", "second image"]``).
* Numbers the notebook cells' ids (jupytext draws random ones), so pages are the same bytes
  whether the notebook was executed now or came from the cache.
* Removes the mermaid loader that nbconvert's template puts on every notebook page: it would
  import mermaid from a CDN if a notebook ever held a diagram, and the book loads nothing from
  outside the site.
* Speaks the book's language on each cell's copy button: mkdocs-jupyter's template names it
  "Copy to Clipboard" and says "Copied!" in every book (and writes a stray comma attribute); the
  button gets the words Material's own copy buttons use in that language.
"""

from __future__ import annotations

import functools
import html
import logging
import re
from pathlib import Path

import jupytext

LAB = re.compile(r"(^|/)ch\d+/lab-[\w-]+\.py$")
MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{\s*'
                     r'const diagrams = document\.querySelectorAll\("\.jp-Mermaid.*?</script>', re.S)


NO_ALT = 'alt="No description has been provided for this image"'


class _NoAltWarning(logging.Filter):
    """Drops nbconvert's "Alternative text is missing on N image(s)." and nothing else.

    It cannot be fixed where the images are made: mkdocs-jupyter renders with its own template
    (mkdocs_html/notebook.html.j2, no setting to change it), whose image blocks (nbconvert's lab
    template, data_png / data_svg) write ``<img>`` without any alt attribute, whatever the output's
    metadata says. nbconvert then gives each image the placeholder above and logs this warning on
    every execution. :func:`add_alt_texts` replaces every placeholder with the lab's own alt text
    and fails the build when their numbers differ, so the warning only ever reports what this
    hook repairs; printed on each build and reload, it taught contributors to ignore warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Alternative text is missing on ")


# nbconvert logs through traitlets' logger (no traitlets Application runs in a MkDocs build)
logging.getLogger("traitlets").addFilter(_NoAltWarning())


def alt_texts(src: Path) -> list[str]:
    """The alt texts of the images a lab draws, in order, from its cells' ``alt`` metadata."""
    notebook = jupytext.read(src, fmt="py:percent")
    return [alt for cell in notebook.cells for alt in cell.metadata.get("alt", [])]


def add_alt_texts(output: str, alts: list[str], where: str) -> str:
    found = output.count(NO_ALT)
    if found != len(alts):
        raise RuntimeError(f"{where}: {found} images without alt text but {len(alts)} alt texts in the cells' "
                           'metadata; give each drawing cell # %% alt=["...", ...], one per image')
    for alt in alts:
        output = output.replace(NO_ALT, f'alt="{html.escape(alt, quote=True)}"', 1)
    return output


def is_lab(src_uri: str) -> bool:
    return bool(LAB.search(src_uri))


CELL_ID = re.compile(r'id="cell-id=[^"]*"')


def fixed_cell_ids(html: str) -> str:
    """jupytext gives each cell a random id, which nbconvert writes as ``id="cell-id=…"``: number
    them instead, so that a notebook executed afresh gives the same page as a cached one."""
    count = iter(range(1_000_000))
    return CELL_ID.sub(lambda m: f'id="cell-id=cell-{next(count)}"', html)


COPY_BUTTON = re.compile(r'<clipboard-copy\b[^>]*?\baria-label="Copy to Clipboard"[^>]*>')
COPY_FOR = re.compile(r'\bfor="([^"]*)"')
COPIED = re.compile(r'<span class="notice" hidden(?:="")?>Copied!</span>')


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


HEADING = re.compile(r'<h(?P<level>[1-6]) id="(?P<id>[^"]*)">(?P<text>.*?)<a class="anchor-link" href="#[^"]*">')


def toc_ids(toc) -> list[str]:
    """The anchors of a table of contents, in page order."""
    return [i for item in toc for i in (item.id, *toc_ids(item.children))]


def heading_ids(html: str, ids: list[str]) -> str:
    """Give the notebook's headings the anchors its table of contents links to. nbconvert makes a
    heading's id from its ASCII letters only, so a Chinese heading got ``id=""`` while
    mkdocs-jupyter's table of contents (and Material's "skip to content" link) pointed at
    ``#_1``, ``#_2``: links to nothing (axe's best-practice rule region found the skip link).

    >>> heading_ids('<h1 id="">实验<a class="anchor-link" href="#">¶</a></h1>', ["_1"])
    '<h1 id="_1">实验<a class="anchor-link" href="#_1">¶</a></h1>'
    """
    found = list(HEADING.finditer(html))
    if len(found) != len(ids):
        return html            # a table of contents of other depth: leave the page as nbconvert wrote it
    names = iter(ids)
    return HEADING.sub(lambda m: (lambda i: f'<h{m["level"]} id="{i}">{m["text"]}<a class="anchor-link" href="#{i}">')(next(names)), html)


def on_page_content(html, page, config, files):
    # on the page content, so that the print page (bookbuild/offline_pdf.py) gets the alt texts too
    if not is_lab(page.file.src_uri):
        return html
    html = heading_ids(html, toc_ids(page.toc))
    html = localized_copy_buttons(html, config.theme["language"])
    return fixed_cell_ids(add_alt_texts(html, alt_texts(Path(page.file.abs_src_path)), page.file.src_uri))


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
