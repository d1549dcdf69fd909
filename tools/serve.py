"""Preview the book with live reload: `make serve` (both languages), `make serve LANG=en`.

    python tools/serve.py                     # zh at http://127.0.0.1:8000/, en at /en/
    python tools/serve.py --lang en --port 8001

1. **Data.** The figures and widget data the caches miss are computed first (bookbuild/data.py,
   a line per job with a count), again after an edit that is not a page or a listing.
2. **Build.** Each language is one complete ``mkdocs build --strict``, in a process forked from a
   server that imported MkDocs, Material, the plugins and jieba once (never attnkit or the hooks:
   every build imports those anew), so a served page is what a cold build writes. The print page
   (the PDF's source, `make pdf`) is left out. Each build writes a new folder, served once it
   succeeded; a failed build prints its error and the last good site stays up.
3. **Watch.** An edit rebuilds the languages it touches: docs/zh/ Chinese, docs/en/ and
   mkdocs.en.yml English, anything else (attnkit/, snippets/, exercises/, bookbuild/, overrides/,
   mkdocs.yml, ...) both, in parallel. Edits made during a build are built right after it.
4. **Reload.** Each page gets one external script (/__serve__/reload.js) that waits for its
   language's next build and reloads. Until the first build is served, every page says what the
   server is doing and refreshes itself.

``site_url`` is the address served (any port), so Material's instant navigation works as it does
on the published site.
"""

from __future__ import annotations

import argparse
import http.server
import json
import logging
import mimetypes
import multiprocessing
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
import build as book_build  # noqa: E402

ROOT = book_build.ROOT
LANGS = book_build.LANGS
WATCHED = ["docs", "attnkit", "bookbuild", "snippets", "exercises", "overrides", "tools", "mkdocs.yml",
           "mkdocs.en.yml", "pyproject.toml", "package.json", "package-lock.json"]
IGNORED_PARTS = {"__pycache__", ".git", ".ipynb_checkpoints"}
# imported once by the process every build is forked from: third-party code that does not change
# while the server runs (never attnkit, never bookbuild)
PRELOAD = ["__main__", "mkdocs.commands.build", "mkdocs.config", "material.plugins.search.plugin", "mkdocs_macros.plugin",
           "mkdocs_jupyter.plugin", "pymdownx.superfences", "pymdownx.snippets", "pymdownx.arithmatex",
           "pymdownx.highlight", "pymdownx.details", "pymdownx.tabbed", "pymdownx.blocks.caption", "numpy",
           "matplotlib", "nbconvert", "jupytext"]
PYODIDE_URL = "/assets/pyodide/"
RELOAD_JS = """// tools/serve.py: reload this page when its language has been rebuilt.
const me = document.currentScript;
const url = `/__serve__/wait?lang=${me.dataset.lang}&version=${me.dataset.version}`;
async function wait() {
  for (;;) {
    try {
      const r = await fetch(url, {cache: "no-store"});
      if ((await r.json()).changed) { location.reload(); return; }
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


def needs_data(path: Path) -> bool:
    """Whether an edit can change a figure or a widget's data (anything but a page or a listing)."""
    rel = path.resolve().relative_to(ROOT).parts
    return not (rel[:2] in (("docs", "zh"), ("docs", "en")) or rel[:1] == ("snippets",))


def ignored(path: Path) -> bool:
    """Caches, version control and editors' temporary files: never a source."""
    return bool(IGNORED_PARTS & set(path.parts)) or path.name.endswith(("~", ".swp", ".swx", ".pyc")) \
        or path.name.startswith(".#")


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} serve: {message}", flush=True)


if __name__ == "__mp_main__":   # this file, preloaded by the forkserver ("__main__"): jieba's dictionary once, not per build
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()


class Book:
    """What is served: per language the folder of its last good build and how many builds were
    served; the status line shown until the first one; the edits waiting for a build."""

    def __init__(self, langs, workdir: Path, ctx):
        self.langs, self.workdir, self.ctx = langs, workdir, ctx
        self.current = {lang: None for lang in langs}
        self.version = {lang: 0 for lang in langs}
        self.status = "starting"
        self.changed = threading.Condition()
        self.edits: dict[Path, float] = {}          # path -> when the watcher saw it
        self.pending = threading.Event()
        self.count = 0
        self.running: list = []                     # the build processes of the round under way

    def request(self, path: Path) -> None:
        with self.changed:
            self.edits.setdefault(path, time.perf_counter())
        self.pending.set()

    def wait_built(self, lang: str, version: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.version[lang] > version, timeout)

    def say(self, status: str) -> None:
        self.status = status
        log(status)

    def run(self) -> None:
        """The build loop: the first build of every language, then one round per batch of edits."""
        first = True
        while True:
            if not first:
                self.pending.wait()
                time.sleep(0.05)                    # editors write a file in several steps
            self.pending.clear()
            with self.changed:
                edits, self.edits = self.edits, {}
            langs = set(self.langs) if first else {lang for path in edits for lang in langs_for(path)} & set(self.langs)
            if first or any(needs_data(path) for path in edits):
                self.data()
            if langs:
                self.build(sorted(langs), min(edits.values(), default=None))
            first = False

    def stop(self) -> None:
        """End the running builds with everything they started (each is a process group)."""
        for job in self.running:
            if job.is_alive():
                try:
                    os.killpg(job.pid, signal.SIGTERM)
                except ProcessLookupError:
                    job.terminate()

    def data(self) -> None:
        process = subprocess.Popen([sys.executable, str(ROOT / "tools" / "data.py"), "--lang",
                                    self.langs[0] if len(self.langs) == 1 else "both"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in process.stdout:
            self.say(line.rstrip())
        process.wait()

    def build(self, langs: list[str], seen: float | None) -> None:
        start = time.perf_counter()
        if not any(self.current.values()):
            self.say(f"building {' and '.join(langs)} (a complete build; the caches make it quick)")
        jobs = {}
        for lang in langs:
            self.count += 1
            out = self.workdir / f"{lang}-{self.count}"
            jobs[lang] = (self.ctx.Process(target=book_build.build_or_explain, args=(lang, str(out))), out)
            jobs[lang][0].start()
        self.running = [job for job, _ in jobs.values()]
        for lang, (job, out) in jobs.items():
            job.join()
            seconds = time.perf_counter() - start
            cpu = out.with_name(out.name + ".cpu")
            cpu_seconds = cpu.read_text() if cpu.is_file() else "?"
            cpu.unlink(missing_ok=True)
            if job.exitcode != 0:
                shutil.rmtree(out, ignore_errors=True)
                self.say(f"{lang}: build FAILED after {seconds:.1f} s; "
                         + ("still serving the last good build" if self.current[lang] else
                            "nothing to serve until a build succeeds (the error is above)"))
                continue
            old = self.current[lang]
            with self.changed:
                self.current[lang], self.version[lang] = out, self.version[lang] + 1
                self.changed.notify_all()
            after = f", served {time.perf_counter() - seen:.1f} s after the change was seen" if seen else ""
            self.say(f"{lang}: built in {seconds:.1f} s ({cpu_seconds} s of CPU, load average "
                     f"{os.getloadavg()[0]:.1f}){after}")
            if old is not None:   # removed once no request reads it any more
                threading.Timer(30, shutil.rmtree, args=(old,), kwargs={"ignore_errors": True}).start()


def make_handler(book: Book, pyodide: dict[str, Path], shared=None):
    """The HTTP handler. ``pyodide``: {file name: path} of the vendored Pyodide files, served at
    /assets/pyodide/ when the Chinese book (which carries them) is not served; ``shared``: the
    other files only the Chinese book carries and the English book loads from it, path from the
    root -> bytes or None (bookbuild.playground.shared_file), served then too."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_one_request(self):
            try:
                super().handle_one_request()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True   # the browser went away (a reload)

        def _send(self, status: int, body: bytes, kind: str, location: str = ""):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            if location:
                self.send_header("Location", location)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _file(self, file: Path, status: int = 200, lang: str = ""):
            kind = "application/wasm" if file.suffix == ".wasm" else mimetypes.guess_type(file.name)[0]
            kind = kind or "application/octet-stream"
            body = file.read_bytes()
            if kind == "text/html":
                tag = f'<script src="/__serve__/reload.js" data-lang="{lang}" data-version="{book.version[lang]}"></script></body>'
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
            if path == "/__serve__/wait":   # reload.js's long poll
                query = parse_qs(url.query)
                lang = query.get("lang", [""])[0]
                if lang not in book.version:
                    return self._send(404, b"{}", "application/json")
                changed = book.wait_built(lang, int(query.get("version", ["0"])[0]), timeout=25)
                return self._send(200, json.dumps({"changed": changed}).encode(), "application/json")
            lang = "en" if (path == "/en" or path.startswith("/en/")) else "zh"
            if lang not in book.current:
                name = path[len(PYODIDE_URL):] if path.startswith(PYODIDE_URL) else None
                if name in pyodide:   # `make serve LANG=en`: the English book loads Pyodide from the Chinese root
                    return self._file(pyodide[name])
                body = shared(path.lstrip("/")) if shared else None
                if body is not None:  # and the playground's editor and attnkit.zip
                    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
                    return self._send(200, body, kind + ("; charset=utf-8" if kind.endswith("javascript") else ""))
                return self._send(302, b"", "text/plain", "/en/" if lang == "zh" else "/")
            root = book.current[lang]
            if root is None:   # until the first build: what the server is doing, refreshed every 2 s
                page = (f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="2">'
                        f"<title>building the book</title><h1>The book is being built</h1>"
                        f"<p><code>{book.status}</code></p><p>This page reloads itself; the terminal running "
                        f"<code>make serve</code> says more.</p>")
                return self._send(503, page.encode(), "text/html; charset=utf-8")
            file = (root / (path[len("/en"):] if lang == "en" else path).lstrip("/")).resolve()
            if root.resolve() not in file.parents and file != root.resolve():
                return self._send(403, b"forbidden", "text/plain")
            if file.is_dir() and not path.endswith("/"):
                return self._send(301, b"", "text/plain", path + "/")
            if file.is_dir():
                file = file / "index.html"
            if file.is_file():
                return self._file(file, 200, lang)
            if (root / "404.html").is_file():
                return self._file(root / "404.html", 404, lang)
            return self._send(404, b"not found", "text/plain")

    return Handler


def watch(book: Book):
    """Tell the book of every edit under the repository's sources; returns the started observer."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class OnChange(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.event_type in ("opened", "closed_no_write") or event.is_directory and event.event_type == "modified":
                return
            for raw in {event.src_path, getattr(event, "dest_path", "") or event.src_path}:
                path = Path(raw)
                try:
                    if not ignored(path) and langs_for(path):
                        book.request(path)
                except ValueError:      # outside the repository
                    continue

    observer, handler = Observer(), OnChange()
    for name in WATCHED:
        if (ROOT / name).is_dir():
            observer.schedule(handler, str(ROOT / name), recursive=True)
    observer.schedule(handler, str(ROOT), recursive=False)   # the configs and pyproject.toml
    observer.start()
    return observer


def on_sigterm(signum, frame):
    raise KeyboardInterrupt   # SIGTERM ends the server as Ctrl-C does


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", choices=[*LANGS, "both"], default=os.environ.get("BOOK_LANG") or "both")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port")
    args = parser.parse_args()
    langs = LANGS if args.lang == "both" else (args.lang,)
    book = Book(langs, Path(tempfile.mkdtemp(prefix="book-serve-")), None)
    pyodide, shared = {}, None
    if "zh" not in langs:
        sys.path.insert(0, str(ROOT))
        from bookbuild import playground, vendor_pyodide

        pyodide = vendor_pyodide.verify()   # checked against tools/pyodide-manifest.json, as the build does
        shared = playground.shared_file    # made from the repository as it is at each request
    server = http.server.ThreadingHTTPServer((args.host, args.port), make_handler(book, pyodide, shared))
    port = server.server_address[1]
    # Set before the forkserver starts, so every build inherits them: the served address (site_url,
    # for Material's instant navigation), no print page, each build's share of the cores, one BLAS
    # thread per process (BLAS threads on top of two builds fight for the same cores).
    os.environ.update(SITE_URL=f"http://{args.host}:{port}/", BOOK_PRINT_PAGE="false", NO_MKDOCS_2_WARNING="1",
                      BOOK_BUILDS_AT_ONCE=str(len(langs)))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    book.ctx = multiprocessing.get_context("forkserver")   # every build is forked from one process that
    book.ctx.set_forkserver_preload(PRELOAD)                 # imported PRELOAD and read jieba's dictionary
    signal.signal(signal.SIGTERM, on_sigterm)
    observer = watch(book)
    threading.Thread(target=book.run, daemon=True).start()
    where = {"zh": f"http://{args.host}:{port}/", "en": f"http://{args.host}:{port}/en/"}
    log("serving " + ", ".join(f"{lang} at {where[lang]}" for lang in langs))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        observer.stop()
        book.stop()
        server.server_close()
        shutil.rmtree(book.workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
