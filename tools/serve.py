"""Preview the book with live reload: `make serve` (both languages), `make serve LANG=en`.

    python tools/serve.py                     # zh at http://127.0.0.1:8000/, en at /en/
    python tools/serve.py --lang en --port 8001

How it stays fast and never stale:

* Each language has its own builder. An edit under docs/zh/ rebuilds only Chinese, under
  docs/en/ (or mkdocs.en.yml) only English; anything shared (attnkit/, snippets/, bookbuild/,
  docs/glossary.yml, overrides/, mkdocs.yml) rebuilds both, in parallel. The other language keeps
  being served while one rebuilds and never delays it.
* Every build is a complete ``mkdocs build --strict`` in a fresh process, forked from a
  ``forkserver`` that has imported MkDocs, Material, the plugins and jieba once (never attnkit or
  the hooks, which each build imports anew). So a served page is what a cold build writes, and
  the content-keyed caches (bookbuild/bookcache.py) make the rebuild take seconds.
* A build writes into a new folder; the server switches to it only when it succeeded. A failed
  build prints its error and the last good site stays up.
* The next build is prepared while the reader looks at this one (config loaded, hooks and
  attnkit imported, the plugins' ``on_config`` run) and used only if every edit since is a
  Markdown page of its language (:class:`Builder`).
* Pages get one external script (/__serve__/reload.js, no inline script) that waits for the
  next build of its language and reloads.
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
           "numpy", "yaml", "jupytext", "serve_warm"]
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


def page_only(path: Path, lang: str) -> bool:
    """Whether ``path`` is a Markdown page of ``lang`` (docs/<lang>/**.md): the one kind of edit a
    prepared build (:class:`Builder`) may go on after. Loading the config and running the plugins'
    ``on_config`` reads the configs, the hooks, attnkit, tools/, overrides/, the glossary and the
    labs (docs/<lang>/**/lab-*.py), never a page: MkDocs reads the pages after ``on_config``."""
    try:
        rel = path.resolve().relative_to(ROOT).parts
    except ValueError:
        return False
    return rel[:2] == ("docs", lang) and path.suffix == ".md"


def _stamp() -> tuple[str, str]:
    """What else ``on_config`` reads: the date and the commit (bookbuild/offline_pdf.py puts
    both on the print cover)."""
    import subprocess

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    return time.strftime("%Y-%m-%d", time.gmtime()), head


class Builder:
    """One language: rebuild on request, in a fresh forked process, and publish the result.

    The next build is prepared while the reader looks at this one: a forked process loads the
    config and runs the plugins' ``on_config`` (the hooks and attnkit imported, 0.2-0.3 s of a
    reload) and waits (tools/build.py: build_when_told). When the edits since then are all
    Markdown pages of this language (:func:`page_only`) and the date and commit are the same,
    it is told to go on, so what it loaded is what a fresh build would load; after any other
    edit it is dropped and a fresh process builds, as without it.

    After a page edit the next preparation starts with the build, not after it (after other
    edits it waits for the build: no CPU taken from a fresh build): a page edit saved while that
    build runs finds the next build prepared. And such a build (one that went on from a
    preparation) is stopped when another page edit of its language comes before it is served
    (at most ``SUPERSEDE`` times in a row): its site would be out of date at once, and the newer
    edit is built from the prepared config at once instead of after it. Two saves a second
    apart are then served about one build after the second, not two."""

    SUPERSEDE = 5

    def __init__(self, lang: str, workdir: Path, ctx, log):
        self.lang, self.workdir, self.ctx, self.log = lang, workdir, ctx, log
        self.current: Path | None = None
        self.version = 0
        self.failed = False                     # the last build failed (its error is in the terminal)
        self.changed = threading.Condition()
        self.pending = threading.Event()
        self.pending.set()                      # the first build
        self.count = 0
        self.job = None
        self.prepared = None                    # (process, pipe, folder, stamp) of the prepared build
        self.superseded = 0                     # builds stopped in a row for a newer page edit
        self.seen = time.perf_counter()         # when the first change since the last build start was seen
        self.edits: list[Path] = []             # every change seen since the last build started
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._loop, daemon=True).start()

    def stop(self):
        """End a running build and every process it started (figure workers, notebook kernels),
        and the prepared one; start no other."""
        with self.lock:
            self.stopped = True
        prepared = self.prepared
        if prepared:
            prepared[1].close()                 # a prepared build waiting for "go" ends at once
        for job in (self.job, prepared[0] if prepared else None):
            if job is not None and job.is_alive():
                try:
                    os.killpg(job.pid, signal.SIGTERM)
                except ProcessLookupError:      # just started, not yet in its own process group
                    job.terminate()

    def request(self, path: Path | None = None):
        with self.lock:
            if not self.pending.is_set():
                self.seen = time.perf_counter()
            self.edits.append(path)
            self.pending.set()

    def _folder(self) -> Path:
        self.count += 1
        return self.workdir / f"{self.lang}-{self.count}"

    def _prepare(self) -> None:
        out = self._folder()
        mine, theirs = self.ctx.Pipe()
        stamp = _stamp()
        with self.lock:
            if self.stopped:
                return
            job = self.ctx.Process(target=book_build.build_when_told, args=(self.lang, str(out), theirs))
            job.start()
            self.prepared = (job, mine, out, stamp)
        theirs.close()

    def _drop_prepared(self) -> None:
        job, pipe, out, _ = self.prepared
        self.prepared = None
        pipe.close()
        try:                                    # with what it started (the KaTeX renderer): no CPU taken from the fresh build
            os.killpg(job.pid, signal.SIGTERM)
        except ProcessLookupError:              # not yet in its own process group: the closed pipe ends it
            pass
        threading.Thread(target=job.join, daemon=True).start()

    def _fresh(self):
        out = self._folder()
        with self.lock:
            if self.stopped:
                raise SystemExit   # ends this builder's thread: the server is stopping
            job = self.job = self.ctx.Process(target=book_build.build_or_explain, args=(self.lang, str(out)))
            job.start()
        return job, out

    def _loop(self):
        while True:
            self.pending.wait()
            time.sleep(0.05)                    # editors write a file in several steps
            with self.lock:
                self.pending.clear()
                seen, edits, self.edits = self.seen, self.edits, []
            start = time.perf_counter()
            usable = (self.prepared is not None and self.prepared[0].is_alive()
                      and all(path is not None and page_only(path, self.lang) for path in edits)
                      and self.prepared[3] == _stamp())
            if usable:
                with self.lock:
                    if self.stopped:
                        return
                    job, pipe, out, _ = self.prepared
                    self.job, self.prepared = job, None
                try:
                    pipe.send("go")
                except OSError:                 # it ended meanwhile, without building: built afresh below
                    usable = None
                pipe.close()
            else:
                if self.prepared is not None:
                    self._drop_prepared()
                job, out = self._fresh()
            if usable:                          # a page edit: the next build is prepared while this one runs
                self._ensure_prepared()         # (after other edits, once it is done: no CPU taken from it)
            if usable and self._superseded(job):
                shutil.rmtree(out, ignore_errors=True)
                out.with_name(out.name + ".cpu").unlink(missing_ok=True)
                self.log(f"{self.lang}: build stopped after {time.perf_counter() - start:.1f} s: "
                         "a newer page edit is built instead")
                with self.lock:
                    self.edits = edits + self.edits   # its edits are still to be shown, by the next build
                continue
            job.join()
            self.superseded = 0
            if usable is None or usable and job.exitcode == book_build.PREPARED_UNUSABLE:   # its preparation warned or failed
                shutil.rmtree(out, ignore_errors=True)
                usable = False
                job, out = self._fresh()
                job.join()
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
                self._ensure_prepared()
                continue
            old, self.current = self.current, out
            with self.changed:
                self.version += 1
                self.failed = False
                self.changed.notify_all()
            # the timeline of a reload: change seen by the watcher -> build started -> served
            after = "" if self.version == 1 else (f", served {time.perf_counter() - seen:.2f} s after the change "
                                                  f"was seen (its build started {start - seen:.2f} s after it)")
            how = ", config prepared before the edit" if usable else ""
            self.log(f"{self.lang}: built in {seconds:.1f} s, {cpu} s of CPU{how} (version {self.version}){after}")
            if old is not None:
                threading.Timer(30, shutil.rmtree, args=(old,), kwargs={"ignore_errors": True}).start()
            self._ensure_prepared()

    def _ensure_prepared(self) -> None:
        if self.prepared is not None and not self.prepared[0].is_alive():
            self._drop_prepared()               # it ended (its preparation failed): a new one
        if self.prepared is None:
            self._prepare()

    def _superseded(self, job) -> bool:
        """Wait for ``job`` (a build that went on from a preparation); stop it and return True
        when, before it ends, a page edit of this language comes and the next build is prepared
        (and this has not happened ``SUPERSEDE`` times in a row: saves that never pause still
        see a build)."""
        while job.is_alive():
            job.join(0.05)
            if not job.is_alive() or self.superseded >= self.SUPERSEDE:
                break
            with self.lock:
                newer = self.pending.is_set() and all(path is not None and page_only(path, self.lang) for path in self.edits)
                ready = self.prepared is not None and self.prepared[0].is_alive() and not self.stopped
            if newer and ready:
                try:
                    os.killpg(job.pid, signal.SIGTERM)
                except ProcessLookupError:
                    job.terminate()
                job.join()
                self.superseded += 1
                return True
        return False

    def wait_built(self, version: int, timeout: float) -> bool:
        """Block until a version newer than ``version`` is served (True) or ``timeout`` (False)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.version > version and self.current is not None, timeout)

    def wait_first(self, timeout: float) -> None:
        """Block until there is a site to serve, or the first build failed, or ``timeout``."""
        with self.changed:
            self.changed.wait_for(lambda: self.current is not None or self.failed, timeout)


PYODIDE_URL = "/assets/pyodide/"


def make_handler(builders: dict[str, Builder], pyodide: dict[str, Path] | None = None):
    """``pyodide``: {file name: path} of the vendored Pyodide files, served at /assets/pyodide/
    when the Chinese book (which carries them) is not served."""
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

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            url = urlsplit(self.path)
            path = unquote(url.path)
            if path == "/__serve__/reload.js":
                return self._send(200, RELOAD_JS.encode(), "text/javascript; charset=utf-8")
            if path == "/__serve__/wait":
                query = parse_qs(url.query)
                builder = builders.get(query.get("lang", [""])[0])
                if builder is None:
                    return self._send(404, b"{}", "application/json")
                changed = builder.wait_built(int(query.get("version", ["0"])[0]), timeout=25)
                return self._send(200, json.dumps({"changed": changed}).encode(), "application/json")
            lang = "en" if (path == "/en" or path.startswith("/en/")) else "zh"
            if lang not in builders and path.startswith(PYODIDE_URL) and path[len(PYODIDE_URL):] in pyodide:
                # `make serve LANG=en`: the English book loads Pyodide from the Chinese root
                # (bookbuild/playground.py); serve the very files the Chinese build would copy there
                file = pyodide[path[len(PYODIDE_URL):]]
                kind = "application/wasm" if file.suffix == ".wasm" else mimetypes.guess_type(file.name)[0]
                return self._send(200, file.read_bytes(), kind or "application/octet-stream")
            if lang not in builders:
                target = "/en/" if lang == "zh" else "/"
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            builder = builders[lang]
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
            if file.is_dir():
                if not path.endswith("/"):
                    self.send_response(301)
                    self.send_header("Location", path + "/")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                file = file / "index.html"
            status = 200
            if not file.is_file():
                status, file = 404, root / "404.html"
                if not file.is_file():
                    return self._send(404, b"not found", "text/plain")
            body = file.read_bytes()
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            if file.suffix == ".wasm":
                kind = "application/wasm"
            if kind == "text/html":
                tag = (f'<script src="/__serve__/reload.js" data-lang="{lang}" '
                       f'data-version="{builder.version}"></script></body>').encode()
                body = body.replace(b"</body>", tag, 1)
            if kind.startswith("text/") or kind in {"application/javascript", "application/json"}:
                kind += "; charset=utf-8"
            return self._send(status, body, kind)

    return Handler


def watch(builders: dict[str, Builder], log):
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class OnChange(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.event_type in ("opened", "closed_no_write") or event.is_directory and event.event_type == "modified":
                return
            for raw in {event.src_path, getattr(event, "dest_path", "") or event.src_path}:
                path = Path(raw)
                if IGNORED_PARTS & set(path.parts) or path.name.endswith(("~", ".swp", ".swx", ".pyc")) or path.name.startswith(".#"):
                    continue
                try:
                    langs = langs_for(path)
                except ValueError:
                    continue
                for lang in langs & builders.keys():
                    builders[lang].request(path)

    observer = Observer()
    handler = OnChange()
    for name in WATCHED:
        target = ROOT / name
        if target.is_dir():
            observer.schedule(handler, str(target), recursive=True)
    observer.schedule(handler, str(ROOT), recursive=False)   # the configs and pyproject.toml
    observer.start()
    return observer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", choices=[*LANGS, "both"], default=os.environ.get("BOOK_LANG") or "both")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    langs = LANGS if args.lang == "both" else (args.lang,)

    def log(message):
        print(f"{time.strftime('%H:%M:%S')} serve: {message}", flush=True)

    os.environ["SITE_URL"] = f"http://{args.host}:{args.port}/"
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    # an edit that redraws figures rebuilds every language served: each build's figure workers
    # take their share of the cores (bookbuild/figures.py). Set before the forkserver starts.
    os.environ["BOOK_BUILDS_AT_ONCE"] = str(len(langs))
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    # Python 3.11's forkserver ignores the parent's sys.path while preloading: give it tools/.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent), saved]))
    multiprocessing.forkserver.ensure_running()
    if saved is None:
        del os.environ["PYTHONPATH"]
    else:
        os.environ["PYTHONPATH"] = saved
    workdir = Path(tempfile.mkdtemp(prefix="book-serve-"))
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    server = http.server.ThreadingHTTPServer((args.host, args.port), None)
    builders, observer = {}, None
    try:
        builders = {lang: Builder(lang, workdir, ctx, log) for lang in langs}
        pyodide = {}
        if "zh" not in builders:
            from bookbuild import vendor_pyodide

            pyodide = vendor_pyodide.verify()   # checked against tools/pyodide-manifest.json, as the build does
        server.RequestHandlerClass = make_handler(builders, pyodide)
        observer = watch(builders, log)
        where = ", ".join(f"{lang} at http://{args.host}:{args.port}{'/en/' if lang == 'en' else '/'}" for lang in langs)
        log(f"serving {where} (building…)")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        for builder in builders.values():
            builder.stop()
        server.server_close()
        shutil.rmtree(workdir, ignore_errors=True)
        if observer is not None:
            observer.stop()


if __name__ == "__main__":
    main()
