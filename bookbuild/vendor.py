"""Serve browser assets from the site itself (no CDN): copied from node_modules/ (package-lock.json,
installed by `make setup`: `npm ci`); a missing file stops the build and says how to fix it.

Material's source maps (``*.map``, 2.5 MB in both languages) are for whoever debugs Material, not
for readers: they leave the site, and so does the ``sourceMappingURL`` comment of each of its
scripts that named one (a browser's developer tools would ask for the missing file). So does
``overrides/print/pdf.css``, the print layout tools/pdf.py adds (MkDocs copies every theme file).
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"

# site path prefix -> (package dir inside node_modules, glob patterns inside it)
VENDORED = {
    # KaTeX's stylesheet and fonts only: formulas are rendered at build time (bookbuild/katex_math.py)
    "assets/vendor/katex": ("katex/dist", ["katex.min.css", "fonts/*.woff2"]),
    # reveal.js for the slides (bookbuild/slides.py): its script as a classic one (UMD), which also
    # runs from file://, and its layout stylesheet; not its themes nor its plugins (the book has its own)
    "assets/vendor/reveal": ("reveal.js/dist", ["reveal.js", "reveal.css"]),
}


def vendored_files() -> list[tuple[str, Path]]:
    """(site path, file on disk) for every vendored asset; raise if any is missing."""
    pairs = []
    for prefix, (package, patterns) in VENDORED.items():
        base = NODE_MODULES / package
        for pattern in patterns:
            found = sorted(base.glob(pattern))
            if not found:
                raise PluginError(
                    f"Vendored browser asset missing: {base / pattern}. "
                    "Run `make setup` (it runs `npm ci`) to install the pinned packages from package-lock.json."
                )
            pairs += [(f"{prefix}/{path.relative_to(base).as_posix()}", path) for path in found]
    return pairs


MATERIAL_ASSETS = ("assets/javascripts/", "assets/stylesheets/")   # the theme's own files, where its maps are
SOURCE_MAP_COMMENT = re.compile(rb"\n?(?://[#@] sourceMappingURL=\S+|/\*[#@] sourceMappingURL=[^*]*\*/)\s*$")
NOT_SERVED = ("print/pdf.css",)      # theme files for tools/pdf.py, not for readers


def without_source_maps(files, config):
    """``files`` without Material's source maps (its scripts and stylesheets without the comment
    that names one) and without :data:`NOT_SERVED`."""
    for file in list(files):
        material = file.dest_uri.startswith(MATERIAL_ASSETS)
        if file.src_uri in NOT_SERVED or material and file.dest_uri.endswith(".map"):
            files.remove(file)
        elif material and file.dest_uri.endswith((".js", ".css")) and file.abs_src_path:
            data = Path(file.abs_src_path).read_bytes()
            stripped = SOURCE_MAP_COMMENT.sub(b"\n", data)
            if stripped != data:
                files.remove(file)
                files.append(File.generated(config, file.src_uri, content=stripped))
    return files


def on_files(files, config):
    for site_path, path in vendored_files():
        files.append(File.generated(config, site_path, abs_src_path=str(path)))
    return without_source_maps(files, config)
