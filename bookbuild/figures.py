"""Every figure of attnkit.figures as SVG in this language, added to the site at ``figures/<id>.svg``.

The data step (bookbuild/data.py) draws them into ``.cache/figures/``, keyed by what each figure's module
can run (:func:`figure_key`); this hook adds them, asking the data step first for any missing.
"""

from __future__ import annotations

import json
import logging
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from .bookcache import ATTNKIT, Store, attnkit_digest, digest_for, environment, key, python

log = logging.getLogger("mkdocs.hooks.figures")
FIGURE_DIR = ATTNKIT / "figures"
SVG = Store("figures", ".svg")
REGISTRY = Store("figures", ".json")


def figure_key(fig_id: str, module: str, lang: str) -> str:
    """The language, the figure id, the part of attnkit its module can run (digest_for), the environment."""
    return key("figure", 2, lang, fig_id, digest_for([FIGURE_DIR / module]), environment())


def registry() -> dict[str, str]:
    """{figure id: module file}, from the cache or from a fresh interpreter."""
    k = key("figure-registry", 1, attnkit_digest(figures=True), environment())
    cached = REGISTRY.get(k)
    if cached is not None:
        return json.loads(cached)
    code = "import json, attnkit.figures as f; print(json.dumps(f.figure_modules()))"
    result = subprocess.run(python(code), capture_output=True, text=True)
    if result.returncode != 0:
        raise PluginError(f"figures: importing attnkit.figures failed:\n{result.stderr[-3000:]}")
    found = json.loads(result.stdout)
    REGISTRY.put(k, json.dumps(found, sort_keys=True).encode())
    return found


def cache_paths(lang: str, found: dict[str, str] | None = None) -> dict[str, Path]:
    """{figure id: where its SVG in ``lang`` is cached}."""
    return {fig_id: SVG.path(figure_key(fig_id, module, lang)) for fig_id, module in sorted((found or registry()).items())}


def on_files(files, config):
    from . import data

    lang = config.theme["language"]
    paths = cache_paths(lang)
    missing = sum(not p.is_file() for p in paths.values())
    if missing:
        data.ensure(lang, log.info)
    for fig_id, path in paths.items():
        files.append(File.generated(config, f"figures/{fig_id}.svg", abs_src_path=str(path)))
    log.info("figures (%s): %d drawn now, %d cached", lang, missing, len(paths) - missing)
    return files
