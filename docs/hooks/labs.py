"""Lab notebooks (docs/<lang>/chN/lab-*.py, jupytext percent format, rendered by mkdocs-jupyter).

* Writes ``lab-*.ipynb`` next to each rendered lab page, so readers can download a notebook
  (mkdocs-jupyter's own download button offers the ``.py`` source).
* Removes the mermaid loader that nbconvert's template puts on every notebook page: it would
  import mermaid from a CDN if a notebook ever held a diagram, and the book loads nothing from
  outside the site.
"""

from __future__ import annotations

import re
from pathlib import Path

import jupytext

LAB = re.compile(r"(^|/)ch\d+/lab-[\w-]+\.py$")
MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{\s*'
                     r'const diagrams = document\.querySelectorAll\("\.jp-Mermaid.*?</script>', re.S)


def is_lab(src_uri: str) -> bool:
    return bool(LAB.search(src_uri))


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
