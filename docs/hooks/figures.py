"""Write every figure of attnkit.figures as SVG for this language, then add it to the site.

Figures are served at ``figures/<id>.svg`` and cached (never committed) in
``.cache/figures/`` under a key of everything that affects the picture: the language, the
figure id, the source of the figure's module (and of the figure modules it imports),
attnkit/figures/__init__.py and _style.py, the rest of attnkit, and the environment (Python,
NumPy, matplotlib, installed fonts). Editing ``attnkit/figures/ch3.py`` redraws only the
figures of ch3.py.

Figures are always drawn in fresh worker processes (``spawn``), never in the build process:
``mkdocs serve`` keeps the modules it imported at start-up, so a figure drawn in-process after
an edit of attnkit would use the old code. A build that finds every figure in the cache starts
no process at all.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from bookcache import (ATTNKIT, FIGURE_SHARED as SHARED, Store, attnkit_digest, call, environment,
                       imported_figure_modules as _imported_figure_modules, key, sources, worker_pool)

log = logging.getLogger("mkdocs.hooks.figures")
FIGURE_DIR = ATTNKIT / "figures"
SVG = Store("figures", ".svg")
REGISTRY = Store("figures", ".json")


def figure_key(fig_id: str, module: str, lang: str, parsed: dict | None = None) -> str:
    deps = sorted(_imported_figure_modules(module, parsed, FIGURE_DIR) | set(SHARED))
    return key("figure", 1, lang, fig_id, sources([FIGURE_DIR / d for d in deps]),
               attnkit_digest(figures=False), environment())


def _registry(pool_holder: list) -> dict[str, str]:
    """{figure id: module file}, from the cache or from a fresh worker."""
    k = key("figure-registry", 1, attnkit_digest(figures=True), environment())
    cached = REGISTRY.get(k)
    if cached is not None:
        return json.loads(cached)
    if not pool_holder:
        pool_holder.append(worker_pool(2))
    registry = pool_holder[0].submit(call, "attnkit.figures", "figure_modules").result()
    REGISTRY.put(k, json.dumps(registry, sort_keys=True).encode())
    return registry


def on_files(files, config):
    lang = config.theme["language"]
    pool_holder: list[ProcessPoolExecutor] = []
    try:
        registry = _registry(pool_holder)
        parsed: dict[str, list[str]] = {}
        keys = {fig_id: figure_key(fig_id, module, lang, parsed) for fig_id, module in registry.items()}
        missing = [fig_id for fig_id, k in keys.items() if not SVG.path(k).is_file()]
        if missing:
            if not pool_holder:
                pool_holder.append(worker_pool(len(missing)))
            jobs = {fig_id: pool_holder[0].submit(call, "attnkit.figures", "render_svg", fig_id, lang) for fig_id in missing}
            for fig_id, job in jobs.items():
                try:
                    SVG.put(keys[fig_id], job.result())
                except Exception as error:
                    raise PluginError(f"figure {fig_id!r} ({lang}, attnkit/figures/{registry[fig_id]}): "
                                      f"{type(error).__name__}: {error}") from None
    finally:
        for pool in pool_holder:
            pool.shutdown(cancel_futures=True)
    for fig_id in sorted(keys):
        files.append(File.generated(config, f"figures/{fig_id}.svg", abs_src_path=str(SVG.path(keys[fig_id]))))
    log.info("figures (%s): %d drawn, %d cached", lang, len(missing), len(keys) - len(missing))
    return files
