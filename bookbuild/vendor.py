"""Serve browser assets from the site itself (no CDN): copy them from node_modules/.

The packages and their versions are pinned in package.json / package-lock.json and installed
by `make setup` (`npm ci`). Nothing here is committed; a missing file stops the build with a
message that says how to fix it.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"

# site path prefix -> (package dir inside node_modules, glob patterns inside it)
VENDORED = {
    # KaTeX's stylesheet and fonts only: formulas are rendered at build time (bookbuild/katex_math.py)
    "assets/vendor/katex": ("katex/dist", ["katex.min.css", "fonts/*.woff2"]),
    # reveal.js for the chapters' slides (bookbuild/slides.py): its script as a classic one (UMD,
    # window.Reveal), which also runs from file://, and its layout stylesheet. Not its themes (the
    # book's own, overrides/assets/slides/slides.css) nor its plugins: KaTeX, listings and their
    # highlighting are done at build time, and the presenter view is the book's own (slides.js).
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


def on_files(files, config):
    for site_path, path in vendored_files():
        files.append(File.generated(config, site_path, abs_src_path=str(path)))
    return files
