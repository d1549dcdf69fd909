"""Preview the book with live reload: `make serve` (both languages), `make serve LANG=en`.

    python tools/serve.py                     # zh at http://127.0.0.1:8000/, en at /en/
    python tools/serve.py --lang en --port 8001

The flow, and why a served page is never stale:

1. **Build.** Each language has a :class:`Builder`: a thread that runs one complete
   ``mkdocs build --strict`` at a time, each in a fresh process forked from a ``forkserver`` that
   imported MkDocs, Material, the plugins and jieba once (never attnkit or the hooks: every build
   imports those anew). So a served page is what a cold build writes; the content-keyed caches
   (bookbuild/bookcache.py) make a rebuild take seconds.
2. **Watch.** :func:`watch` tells the builders of the languages an edit touches
   (:func:`langs_for`): docs/zh/ only Chinese, docs/en/ and mkdocs.en.yml only English,
   anything shared (attnkit/, snippets/, bookbuild/, overrides/, mkdocs.yml, ...) both, in parallel.
3. **Rebuild one language.** Every build writes into a new folder; the server switches to it only
   when it succeeded. A failed build prints its error and the last good site stays up; the other
   language is served meanwhile and never waits.
4. **Reload.** Each served page gets one external script (/__serve__/reload.js, no inline
   script) that waits for the next build of its language and reloads.

One shortcut, safe by construction: while the reader looks at a page the next build is
*prepared* (:class:`Prepared`: config loaded, hooks and attnkit imported, the plugins'
``on_config`` run). It is used only when every edit since is a Markdown page of its language
or a listing (:func:`read_after_on_config`: ``on_config`` reads neither; tests/test_build.py
records what it opens) and the date and commit are unchanged; after any other edit a fresh
process builds. A prepared build that is still running when another such
edit comes is stopped for the newer one (at most ``SUPERSEDE`` times in a row), so two saves a
second apart are served one build after the second, not two.
"""

from __future__ import annotations

import argparse
import http.server
import json
import mimetypes
import multiprocessing
import multiprocessing.forkserver
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild
import build as book_build  # noqa: E402

ROOT = book_build.ROOT
LANGS = book_build.LANGS
WATCHED = ["docs", "attnkit", "bookbuild", "snippets", "overrides", "tools", "mkdocs.yml", "mkdocs.en.yml", "pyproject.toml",
           "package.json", "package-lock.json"]
IGNORED_PARTS = {"__pycache__", ".git", ".ipynb_checkpoints"}
PRELOAD = ["mkdocs.commands.build", "mkdocs.config", "mkdocs.__main__", "material.plugins.search.plugin",
           "markdown_exec", "mkdocs_macros.plugin", "mkdocs_print_site_plugin.plugin", "mkdocs_jupyter.plugin",
           "pymdownx.superfences", "pymdownx.snippets", "pymdownx.arithmatex", "pymdownx.highlight",
           "numpy", "yaml", "jupytext", "bookbuild.serve_warm"]
PYODIDE_URL = "/assets/pyodide/"
RELOAD_JS = """// tools/serve.py: reload this page when its language has been rebuilt.
const me = document.currentScript;
const url = `/__serve__/wait?lang=${me.dataset.lang}&version=${me.dataset.version}`;
async function wait() {
  for (;;) {
    try {
      const r = await fetch(url, {cache: "no-store"});
      const body = await r.json();
      if (body.changed) { location.reload(); return; }
    } catch (e) { await new Promise((ok) => setTimeout(ok, 1000)); }
  }
}
wait();
"""


def langs_for(path: Path) -> set[str]:
    """Which languages an edit of ``path`` (inside the repository) affects."""
    rel = path.resolve().relative_to(ROOT).parts
    if len(rel) == 1 and rel[0] not in WATCHED:
        return set()   # a file beside the configs (a log, an editor's backup) is not a source
    if rel[:2] == ("docs", "zh"):
        return {"zh"}
    if rel[:2] == ("docs", "en") or rel == ("mkdocs.en.yml",):
        return {"en"}
    return set(LANGS)


def read_after_on_config(path: Path | None, lang: str) -> bool:
    """Whether ``path`` is a Markdown page of ``lang`` (docs/<lang>/**.md) or a listing
    (snippets/**): the edits a prepared build may go on after. Loading the config and running the
    plugins' ``on_config`` reads the configs, the hooks, attnkit, tools/, overrides/, the glossary
    and the labs (docs/<lang>/**/lab-*.py), never a page or a listing: MkDocs reads those after
    ``on_config`` (tests/test_build.py checks what a preparation opens)."""
    if path is None:   # Builder's mark for "not such an edit"
        return False
    try:
        rel = path.resolve().relative_to(ROOT).parts
    except ValueError:
        return False
    return rel[:2] == ("docs", lang) and path.suffix == ".md" or rel[:1] == ("snippets",)


def stamp() -> tuple[str, str]:
    """What else ``on_config`` reads: the date and the commit (bookbuild/offline_pdf.py puts
    both on the print cover)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    return time.strftime("%Y-%m-%d", time.gmtime()), head


def kill(job) -> None:
    """End a build process and everything it started (its own process group: figure workers,
    notebook kernels, the KaTeX renderer)."""
    try:
        os.killpg(job.pid, signal.SIGTERM)
    except ProcessLookupError:   # just started, not yet in its own process group
        job.terminate()


def discard(out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)
    out.with_name(out.name + ".cpu").unlink(missing_ok=True)


class Prepared:
    """A build process that has loaded the config and run ``on_config``, waiting to be told to go
    on (tools/build.py: build_when_told)."""

    def __init__(self, ctx, lang: str, out: Path):
        self.lang, self.out, self.stamp = lang, out, stamp()
        self.pipe, theirs = ctx.Pipe()
        self.job = ctx.Process(target=book_build.build_when_told, args=(lang, str(out), theirs))
        self.job.start()
        theirs.close()

    def still_valid(self, edits: list) -> bool:
        """Whether it loaded what a fresh build would load after ``edits``."""
        return (self.job.is_alive() and all(read_after_on_config(path, self.lang) for path in edits)
                and self.stamp == stamp())

    def go(self) -> bool:
        """Tell it to build; False if it ended meanwhile (its preparation failed)."""
        try:
            self.pipe.send("go")
            return True
        except OSError:
            return False
        finally:
            self.pipe.close()

    def drop(self) -> None:
        self.pipe.close()        # a preparation waiting for "go" ends at once
        kill(self.job)           # with what it started (the KaTeX renderer): no CPU taken from the next build
        threading.Thread(target=self.job.join, daemon=True).start()


class Builder:
    """One language: a thread that builds on request and publishes each good build.

    ``current`` is the folder served (None until a build succeeded), ``version`` counts the
    builds published, ``failed`` says whether the last build failed. The watcher calls
    :meth:`request`; the HTTP handler calls :meth:`wait_first` and :meth:`wait_built`;
    ``main`` calls :meth:`stop`."""

    SUPERSEDE = 5

    def __init__(self, lang: str, workdir: Path, ctx, log):
        self.lang, self.workdir, self.ctx, self.log = lang, workdir, ctx, log
        self.current: Path | None = None
        self.version = 0
        self.failed = False
        self.changed = threading.Condition()    # notified when version or failed changes
        self.lock = threading.Lock()            # guards edits, seen, job, prepared, stopped
        self.pending = threading.Event()        # an edit waits for a build
        self.pending.set()                      # the first build
        self.edits: list[Path | None] = []      # every change seen since the last build started
        self.seen = time.perf_counter()         # when the first of them was seen
        self.job = None                         # the running build's process
        self.prepared: Prepared | None = None
        self.superseded = 0                     # builds stopped in a row for a newer page or listing edit
        self.stopped = False
        self.count = 0                          # numbers the build folders
        threading.Thread(target=self._run, daemon=True).start()

    # ------------------------------------------------------------ called by the other threads

    def request(self, path: Path | None = None) -> None:
        with self.lock:
            if not self.pending.is_set():
                self.seen = time.perf_counter()
            self.edits.append(path)
            self.pending.set()

    def wait_built(self, version: int, timeout: float) -> bool:
        """Block until a version newer than ``version`` is served (True) or ``timeout`` (False)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.version > version and self.current is not None, timeout)

    def wait_first(self, timeout: float) -> None:
        """Block until there is a site to serve, or the first build failed, or ``timeout``."""
        with self.changed:
            self.changed.wait_for(lambda: self.current is not None or self.failed, timeout)

    def stop(self) -> None:
        """End the running build and the prepared one, with every process they started; start no other."""
        with self.lock:
            self.stopped = True
            jobs = [self.job, self.prepared.job if self.prepared else None]
            if self.prepared:
                self.prepared.pipe.close()
        for job in jobs:
            if job is not None and job.is_alive():
                kill(job)

    # ------------------------------------------------------------ the builder's own thread

    def _run(self) -> None:
        while True:
            self.pending.wait()
            time.sleep(0.05)                    # editors write a file in several steps
            with self.lock:
                self.pending.clear()
                seen, edits, self.edits = self.seen, self.edits, []
            start = time.perf_counter()
            started = self._start(edits)
            if started is None:
                return                          # the server is stopping
            job, out, went_on = started
            if went_on:                         # a page or listing edit: prepare the next build while this one runs
                self._prepare()                 # (after other edits, once it is done: no CPU taken from it)
                if self._supersede(job):
                    discard(out)
                    self.log(f"{self.lang}: build stopped after {time.perf_counter() - start:.1f} s: "
                             "a newer page or listing edit is built instead")
                    with self.lock:
                        self.edits = edits + self.edits   # still to be shown, by the next build
                    continue
            job.join()
            self.superseded = 0
            if went_on and job.exitcode == book_build.PREPARED_UNUSABLE:   # its preparation warned or failed
                discard(out)
                started = self._start_fresh()   # which shows the preparation's message
                if started is None:
                    return
                job, out, went_on = started
                job.join()
            self._publish(job, out, start, seen, went_on)
            self._prepare()

    def _folder(self) -> Path:
        self.count += 1
        return self.workdir / f"{self.lang}-{self.count}"

    def _start(self, edits: list) -> tuple | None:
        """Start the build that shows ``edits``: the prepared one when it is still valid, else a
        fresh process. Returns (process, folder, went on from a preparation), None once stopped."""
        prepared = self.prepared
        valid = prepared is not None and prepared.still_valid(edits)
        with self.lock:
            if self.stopped:
                return None
            self.prepared = None if prepared is None or valid else prepared
            if valid and prepared.go():
                self.job = prepared.job
                return prepared.job, prepared.out, True
        if self.prepared is not None:           # prepared before an edit it did not see
            self.prepared.drop()
            self.prepared = None
        return self._start_fresh()

    def _start_fresh(self) -> tuple | None:
        out = self._folder()
        with self.lock:
            if self.stopped:
                return None
            self.job = self.ctx.Process(target=book_build.build_or_explain, args=(self.lang, str(out)))
            self.job.start()
            return self.job, out, False

    def _prepare(self) -> None:
        """Make sure the next build is prepared (a new one if the last preparation failed)."""
        if self.prepared is not None and self.prepared.job.is_alive():
            return
        if self.prepared is not None:
            self.prepared.drop()
            self.prepared = None
        out = self._folder()
        prepared = Prepared(self.ctx, self.lang, out)
        with self.lock:
            if not self.stopped:
                self.prepared = prepared
                return
        prepared.drop()

    def _supersede(self, job) -> bool:
        """Wait for ``job`` (a build that went on from a preparation); stop it and return True when,
        before it ends, a page or listing edit of this language comes and the next build is prepared
        (and this has not happened ``SUPERSEDE`` times in a row: saves that never pause still see a
        build)."""
        while job.is_alive() and self.superseded < self.SUPERSEDE:
            job.join(0.05)
            with self.lock:
                newer = self.pending.is_set() and all(read_after_on_config(path, self.lang) for path in self.edits)
                ready = self.prepared is not None and self.prepared.job.is_alive() and not self.stopped
            if newer and ready and job.is_alive():
                kill(job)
                job.join()
                self.superseded += 1
                return True
        return False

    def _publish(self, job, out: Path, start: float, seen: float, went_on: bool) -> None:
        """Serve ``out`` if its build succeeded (the old folder is removed 30 s later, when no
        request reads it any more), and log the timeline of the reload."""
        seconds = time.perf_counter() - start
        cpu_file = out.with_name(out.name + ".cpu")
        cpu = cpu_file.read_text() if cpu_file.is_file() else "?"
        cpu_file.unlink(missing_ok=True)
        if job.exitcode != 0:
            self.log(f"{self.lang}: build FAILED after {seconds:.1f} s (exit {job.exitcode}); "
                     + ("still serving the last good build" if self.current else "nothing to serve until a build succeeds"))
            shutil.rmtree(out, ignore_errors=True)
            with self.changed:
                self.failed = True
                self.changed.notify_all()
            return
        old = self.current
        with self.changed:
            self.current, self.version, self.failed = out, self.version + 1, False
            self.changed.notify_all()
        # the timeline of a reload: change seen by the watcher -> build started -> served
        after = "" if self.version == 1 else (f", served {time.perf_counter() - seen:.2f} s after the change "
                                              f"was seen (its build started {start - seen:.2f} s after it)")
        how = ", config prepared before the edit" if went_on else ""
        self.log(f"{self.lang}: built in {seconds:.1f} s, {cpu} s of CPU{how} (version {self.version}){after}")
        if old is not None:
            threading.Timer(30, shutil.rmtree, args=(old,), kwargs={"ignore_errors": True}).start()


def make_handler(builders: dict[str, Builder], pyodide: dict[str, Path] | None = None):
    """The HTTP handler. ``pyodide``: {file name: path} of the vendored Pyodide files, served at
    /assets/pyodide/ when the Chinese book (which carries them) is not served."""
    pyodide = pyodide or {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_one_request(self):
            try:
                super().handle_one_request()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True   # the browser went away (a reload): nothing to report

        def _send(self, status: int, body: bytes, content_type: str):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _redirect(self, status: int, location: str):
            self.send_response(status)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _send_file(self, file: Path, status: int = 200, lang: str = "", version: int = 0):
            kind = "application/wasm" if file.suffix == ".wasm" else mimetypes.guess_type(file.name)[0]
            kind = kind or "application/octet-stream"
            body = file.read_bytes()
            if kind == "text/html":
                tag = f'<script src="/__serve__/reload.js" data-lang="{lang}" data-version="{version}"></script></body>'
                body = body.replace(b"</body>", tag.encode(), 1)
            if kind.startswith("text/") or kind in {"application/javascript", "application/json"}:
                kind += "; charset=utf-8"
            self._send(status, body, kind)

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            url = urlsplit(self.path)
            path = unquote(url.path)
            if path == "/__serve__/reload.js":
                return self._send(200, RELOAD_JS.encode(), "text/javascript; charset=utf-8")
            if path == "/__serve__/wait":
                return self._wait(parse_qs(url.query))
            lang = "en" if (path == "/en" or path.startswith("/en/")) else "zh"
            if lang in builders:
                return self._page(builders[lang], lang, path)
            name = path[len(PYODIDE_URL):] if path.startswith(PYODIDE_URL) else None
            if name in pyodide:
                # `make serve LANG=en`: the English book loads Pyodide from the Chinese root
                # (bookbuild/playground.py); serve the very files the Chinese build would copy there
                return self._send_file(pyodide[name])
            return self._redirect(302, "/en/" if lang == "zh" else "/")

        def _wait(self, query):
            """Long poll of reload.js: {"changed": true} once a newer build of its language is served."""
            builder = builders.get(query.get("lang", [""])[0])
            if builder is None:
                return self._send(404, b"{}", "application/json")
            changed = builder.wait_built(int(query.get("version", ["0"])[0]), timeout=25)
            return self._send(200, json.dumps({"changed": changed}).encode(), "application/json")

        def _page(self, builder: Builder, lang: str, path: str):
            builder.wait_first(timeout=600)                 # the first build
            root = builder.current
            if root is None:                                # it failed: say so, reload when one succeeds
                message = ("<!doctype html><title>build failed</title><h1>The build failed</h1>"
                           f"<p>The first build of the {lang} book failed: its error is in the terminal running "
                           "<code>make serve</code>. Fix it and save; this page reloads when a build succeeds.</p>"
                           f'<script src="/__serve__/reload.js" data-lang="{lang}" data-version="0"></script>')
                return self._send(503, message.encode(), "text/html; charset=utf-8")
            rel = path[len("/en"):] if lang == "en" else path
            file = (root / rel.lstrip("/")).resolve()
            if root.resolve() not in file.parents and file != root.resolve():
                return self._send(403, b"forbidden", "text/plain")
            if file.is_dir() and not path.endswith("/"):
                return self._redirect(301, path + "/")
            if file.is_dir():
                file = file / "index.html"
            if file.is_file():
                return self._send_file(file, 200, lang, builder.version)
            if (root / "404.html").is_file():
                return self._send_file(root / "404.html", 404, lang, builder.version)
            return self._send(404, b"not found", "text/plain")

    return Handler


def ignored(path: Path) -> bool:
    """Caches, version control and editors' temporary files: never a source."""
    return bool(IGNORED_PARTS & set(path.parts)) or path.name.endswith(("~", ".swp", ".swx", ".pyc")) \
        or path.name.startswith(".#")


def watch(builders: dict[str, Builder]):
    """Tell each builder of every edit that touches its language; returns the started observer."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class OnChange(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.event_type in ("opened", "closed_no_write") or event.is_directory and event.event_type == "modified":
                return
            for raw in {event.src_path, getattr(event, "dest_path", "") or event.src_path}:
                path = Path(raw)
                try:
                    langs = set() if ignored(path) else langs_for(path)
                except ValueError:      # outside the repository
                    continue
                for lang in langs & builders.keys():
                    builders[lang].request(path)

    observer, handler = Observer(), OnChange()
    for name in WATCHED:
        if (ROOT / name).is_dir():
            observer.schedule(handler, str(ROOT / name), recursive=True)
    observer.schedule(handler, str(ROOT), recursive=False)   # the configs and pyproject.toml
    observer.start()
    return observer


def start_forkserver(langs) -> multiprocessing.context.BaseContext:
    """The process every build is forked from, with PRELOAD imported once."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    # an edit that redraws figures rebuilds every language served: each build's figure workers
    # take their share of the cores (bookbuild/figures.py). Set before the forkserver starts.
    os.environ["BOOK_BUILDS_AT_ONCE"] = str(len(langs))
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    # Python 3.11's forkserver ignores the parent's sys.path while preloading: give it tools/
    # (build.py, whose functions the builds run) and the repository (bookbuild.serve_warm).
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent), str(ROOT), saved]))
    multiprocessing.forkserver.ensure_running()
    if saved is None:
        del os.environ["PYTHONPATH"]
    else:
        os.environ["PYTHONPATH"] = saved
    return ctx


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} serve: {message}", flush=True)


def on_sigterm(signum, frame):
    raise KeyboardInterrupt   # SIGTERM ends the server as Ctrl-C does


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", choices=[*LANGS, "both"], default=os.environ.get("BOOK_LANG") or "both")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    langs = LANGS if args.lang == "both" else (args.lang,)
    os.environ["SITE_URL"] = f"http://{args.host}:{args.port}/"
    pyodide = {}
    if "zh" not in langs:
        from bookbuild import vendor_pyodide

        pyodide = vendor_pyodide.verify()   # checked against tools/pyodide-manifest.json, as the build does
    ctx = start_forkserver(langs)
    builders: dict[str, Builder] = {}
    server = http.server.ThreadingHTTPServer((args.host, args.port), make_handler(builders, pyodide))   # the port is free
    workdir = Path(tempfile.mkdtemp(prefix="book-serve-"))
    observer = None
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        builders.update({lang: Builder(lang, workdir, ctx, log) for lang in langs})
        observer = watch(builders)
        where = ", ".join(f"{lang} at http://{args.host}:{args.port}{'/en/' if lang == 'en' else '/'}" for lang in langs)
        log(f"serving {where} (building…)")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:   # shut down: no new edits, no new builds, the running ones stopped, the port and the folders freed
        if observer is not None:
            observer.stop()
        for builder in builders.values():
            builder.stop()
        server.server_close()
        shutil.rmtree(workdir, ignore_errors=True)

if __name__ == "__main__":
    main()
