"""Write every figure of attnkit.figures as SVG for this language, then add it to the site.

Figures land in .cache/figures/<lang>/<id>.svg (never committed) and are served at
figures/<id>.svg. A figure is redrawn only when the attnkit sources or matplotlib changed,
so `make serve` reloads stay fast.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import matplotlib
from mkdocs.structure.files import File

from attnkit.figures import FIGURES, render_svg

log = logging.getLogger("mkdocs.hooks.figures")
ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "figures"


def _source_key() -> str:
    digest = hashlib.sha256(matplotlib.__version__.encode())
    for path in sorted((ROOT / "attnkit").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def on_files(files, config):
    lang = config.theme["language"]
    key = _source_key()
    drawn = 0
    for fig_id in sorted(FIGURES):
        svg = CACHE / lang / f"{fig_id}.svg"
        stamp = svg.with_suffix(".key")
        if not (svg.exists() and stamp.exists() and stamp.read_text() == key):
            svg.parent.mkdir(parents=True, exist_ok=True)
            svg.write_bytes(render_svg(fig_id, lang))
            stamp.write_text(key)
            drawn += 1
        files.append(File.generated(config, f"figures/{fig_id}.svg", abs_src_path=str(svg)))
    log.info("figures (%s): %d drawn, %d cached", lang, drawn, len(FIGURES) - drawn)
    return files
