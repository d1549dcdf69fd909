"""Serve browser assets from the site itself (no CDN): copied from node_modules/ (package-lock.json,
installed by `make setup`: `npm ci`); a missing file stops the build and says how to fix it.

Material's source maps (``*.map``, 2.5 MB in both languages) are for whoever debugs Material: they
leave the site, and so does each script's ``sourceMappingURL`` comment (developer tools would ask
for the missing file). So do the theme files that only tools/pdf.py uses (:data:`NOT_SERVED`).
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

NODE_MODULES = Path(__file__).resolve().parents[1] / "node_modules"
# site path prefix -> (package dir inside node_modules, glob patterns inside it)
VENDORED = {
    # KaTeX's stylesheet and fonts only: formulas are rendered at build time (bookbuild/katex_math.py)
    "assets/vendor/katex": ("katex/dist", ["katex.min.css", "fonts/*.woff2"]),
    # reveal.js for the slides (bookbuild/slides.py): its script as a classic one (UMD), which also
    # runs from file://, and its layout stylesheet; not its themes nor its plugins (the book has its own)
    "assets/vendor/reveal": ("reveal.js/dist", ["reveal.js", "reveal.css"]),
}
MATERIAL_ASSETS = ("assets/javascripts/", "assets/stylesheets/")   # the theme's own files, where its maps are
SOURCE_MAP_COMMENT = re.compile(rb"\n?(?://[#@] sourceMappingURL=\S+|/\*[#@] sourceMappingURL=[^*]*\*/)\s*$")
NOT_SERVED = ("print/pdf.css", "print/pdf.js")      # the print page's layout and scripts, for tools/pdf.py


def on_files(files, config):
    for prefix, (package, patterns) in VENDORED.items():
        base = NODE_MODULES / package
        for pattern in patterns:
            if not (found := sorted(base.glob(pattern))):
                raise PluginError(f"Vendored browser asset missing: {base / pattern}. Run `make setup` (it runs "
                                  "`npm ci`) to install the pinned packages from package-lock.json.")
            for path in found:
                files.append(File.generated(config, f"{prefix}/{path.relative_to(base).as_posix()}",
                                            abs_src_path=str(path)))
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
