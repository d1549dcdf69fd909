"""Write every figure of attnkit.figures as SVG for this language, then add it to the site.

Figures are served at ``figures/<id>.svg`` and cached (never committed) in
``.cache/figures/`` under a key of everything that affects the picture: the language, the
figure id, the source of the figure's module (and of the figure modules it imports),
attnkit/figures/__init__.py and _style.py, the rest of attnkit, and the environment (Python,
NumPy, matplotlib, installed fonts). Editing ``attnkit/figures/ch3.py`` redraws only the
figures of ch3.py.

Drawing starts in ``on_files`` and is collected in ``on_post_build``: the pages, the listings
and the lab notebooks are built while the workers draw.

Figures are always drawn in fresh worker processes (:func:`bookcache.python`), never in the build process:
``mkdocs serve`` keeps the modules it imported at start-up, so a figure drawn in-process after
an edit of attnkit would use the old code. A build that finds every figure in the cache starts
no process at all.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from .bookcache import (ATTNKIT, FIGURE_SHARED as SHARED, MEMOIZED, Store, attnkit_digest, environment,
                       imported_figure_modules as _imported_figure_modules, key, python, sources)

log = logging.getLogger("mkdocs.hooks.figures")
FIGURE_DIR = ATTNKIT / "figures"
SVG = Store("figures", ".svg")
REGISTRY = Store("figures", ".json")


def figure_key(fig_id: str, module: str, lang: str, parsed: dict | None = None) -> str:
    deps = sorted(_imported_figure_modules(module, parsed, FIGURE_DIR) | set(SHARED))
    return key("figure", 1, lang, fig_id, sources([FIGURE_DIR / d for d in deps]),
               attnkit_digest(figures=False), environment())


def _registry() -> dict[str, str]:
    """{figure id: module file}, from the cache or from a fresh interpreter."""
    k = key("figure-registry", 1, attnkit_digest(figures=True), environment())
    cached = REGISTRY.get(k)
    if cached is not None:
        return json.loads(cached)
    code = "import json, attnkit.figures as f; print(json.dumps(f.figure_modules()))"
    result = subprocess.run(python(code), capture_output=True, text=True)
    if result.returncode != 0:
        raise PluginError(f"figures: importing attnkit.figures failed:\n{result.stderr[-3000:]}")
    registry = json.loads(result.stdout)
    REGISTRY.put(k, json.dumps(registry, sort_keys=True).encode())
    return registry


class _Drawing(File):
    """A figure still being drawn by a worker: MkDocs copies static files before it builds the
    pages (and runs the lab notebooks), so the SVG is written by :func:`on_post_build` instead,
    when its worker is done. Drawing thus overlaps with the rest of the build."""

    def copy_file(self, dirty: bool = False) -> None:
        pass


# Workers are plain child processes that write each SVG into the cache themselves: the build
# process runs no thread meanwhile (a ProcessPoolExecutor's result thread would allocate while
# the pages are built, and chapter 9.4's page measures memory with tracemalloc, which counts
# every thread's allocations: its numbers changed from build to build).
_state: dict = {"workers": [], "jobs": {}, "jobdir": None}


def _stop() -> None:
    for worker in _state["workers"]:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    if _state["jobdir"] is not None:
        shutil.rmtree(_state["jobdir"], ignore_errors=True)
    _state.update(workers=[], jobs={}, jobdir=None)


def on_files(files, config):
    lang = config.theme["language"]
    _stop()
    registry = _registry()
    parsed: dict[str, list[str]] = {}
    keys = {fig_id: figure_key(fig_id, module, lang, parsed) for fig_id, module in registry.items()}
    missing = [fig_id for fig_id, k in keys.items() if not SVG.path(k).is_file()]
    if missing:   # started now, collected in on_post_build: the pages are built meanwhile
        jobdir = Path(tempfile.mkdtemp(prefix=f"figures-{lang}-"))
        jobs = [(fig_id, str(SVG.path(keys[fig_id]))) for fig_id in missing]
        (jobdir / "jobs.json").write_text(json.dumps({"lang": lang, "jobs": jobs, "memoized": MEMOIZED}))
        code = f"from bookbuild import bookcache; bookcache.draw_figures({str(jobdir / 'jobs.json')!r})"
        # the cores this build may use: tools/build.py and tools/serve.py build both languages at
        # once and say so (BOOK_BUILDS_AT_ONCE=2). Measured on two cores, a cold build: four
        # workers drew the figures in 61 CPU-s, two in 51 (the same work, less switching).
        cores = (os.cpu_count() or 1) // max(1, int(os.environ.get("BOOK_BUILDS_AT_ONCE") or 1))
        n = max(1, min(len(missing), cores))
        _state.update(jobdir=jobdir, jobs={fig_id: keys[fig_id] for fig_id in missing},
                      workers=[subprocess.Popen(python(code)) for _ in range(n)])
    for fig_id in sorted(keys):
        cls = _Drawing if fig_id in _state["jobs"] else File
        files.append(cls.generated(config, f"figures/{fig_id}.svg", abs_src_path=str(SVG.path(keys[fig_id]))))
    log.info("figures (%s): %d to draw, %d cached", lang, len(missing), len(keys) - len(missing))
    _state["registry"] = registry
    return files


@event_priority(-100)   # after the other hooks (their post-build work overlaps with the drawing): see mkdocs.yml, above `hooks:`
def on_post_build(config):
    lang = config.theme["language"]
    try:
        codes = [worker.wait() for worker in _state["workers"]]
        for fig_id, k in _state["jobs"].items():
            error = _state["jobdir"] / f"{fig_id}.error"
            module = _state["registry"][fig_id]
            if error.is_file():
                raise PluginError(f"figure {fig_id!r} ({lang}, attnkit/figures/{module}): {error.read_text(encoding='utf-8')}")
            if not SVG.path(k).is_file():
                raise PluginError(f"figure {fig_id!r} ({lang}, attnkit/figures/{module}) was not drawn: "
                                  f"the figure workers exited with {codes} (their messages are above)")
            target = Path(config.site_dir) / "figures" / f"{fig_id}.svg"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(SVG.path(k), target)
    finally:
        _stop()


def on_build_error(error):
    _stop()
