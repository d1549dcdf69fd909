"""Preview the book with live reload: `make serve` (both languages), `make serve LANG=en`.

    python tools/serve.py                     # zh at http://127.0.0.1:8000/, en at /en/
    python tools/serve.py --lang en --port 8001

The data step first (a line per job, with a count), again after an edit that is not a page or a
listing; then each language is one complete ``mkdocs build --strict`` (tools/build.py: build_one) forked
from a process that imported MkDocs, the plugins and jieba once (never attnkit or bookbuild/), so a page is
what a cold build writes (no print page: `make pdf`). Each language has a build loop of its own: an edit
rebuilds the languages it touches, each after its own running build (never after the other language's);
a failed build leaves the last good site up. Each page reloads after its language's next build.
``site_url`` is the address served (any port), so Material's instant navigation works.
"""

from __future__ import annotations

import argparse
import http.server
import json
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
from urllib.parse import parse_qsl, unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build as book_build  # noqa: E402

ROOT = book_build.ROOT
LANGS = book_build.LANGS
WATCHED = ["docs", "attnkit", "bookbuild", "snippets", "exercises", "overrides", "tools", "mkdocs.yml",
           "mkdocs.en.yml", "pyproject.toml", "package.json", "package-lock.json"]
IGNORED_PARTS = {"__pycache__", ".git", ".ipynb_checkpoints"}
# imported once by the process every build is forked from: third-party code (never attnkit, never
# bookbuild), then jieba's dictionary and a gc.freeze (tools/serve_preload.py)
PRELOAD = ["mkdocs.commands.build", "mkdocs.config", "material.plugins.search.plugin", "mkdocs_macros.plugin",
           "mkdocs_jupyter.plugin", "pymdownx.superfences", "pymdownx.snippets", "pymdownx.arithmatex",
           "pymdownx.highlight", "pymdownx.details", "pymdownx.tabbed", "pymdownx.blocks.caption", "numpy",
           "matplotlib", "nbconvert", "jupytext", "tools.serve_preload"]
PYODIDE_URL = "/assets/pyodide/"
RELOAD_JS = """// tools/serve.py: reload this page when its language has been rebuilt.
(async ({lang, version}) => { for (;;) {
  try {
    const r = await fetch(`/__serve__/wait?lang=${lang}&version=${version}`, {cache: "no-store"});
    if ((await r.json()).changed) return location.reload();
  } catch (e) { await new Promise((ok) => setTimeout(ok, 1000)); }
} })(document.currentScript.dataset);
"""


def langs_for(path: Path) -> set[str]:
    """Which languages an edit of ``path`` affects: none for a file that is not a source (outside the
    repository, beside the configs, a cache, an editor's temporary file)."""
    path = path.resolve()
    rel = path.relative_to(ROOT).parts if path.is_relative_to(ROOT) else ()
    if (len(rel) == 1 and rel[0] not in WATCHED) or not rel or IGNORED_PARTS & set(rel) \
            or path.name.endswith(("~", ".swp", ".swx", ".pyc")) or path.name.startswith(".#"):
        return set()
    if rel[:2] == ("docs", "zh"):
        return {"zh"}
    if rel[:2] == ("docs", "en") or rel == ("mkdocs.en.yml",):
        return {"en"}
    return set(LANGS)


def needs_data(path: Path) -> bool:
    """Whether an edit can change a figure or a widget's data (anything but a page or a listing)."""
    rel = path.resolve().relative_to(ROOT).parts
    return not (rel[:2] in (("docs", "zh"), ("docs", "en")) or rel[:1] == ("snippets",))


def log(message: str) -> None:
    # one write, line break included: the two languages' loops log at the same moment
    print(f"{time.strftime('%H:%M:%S')} serve: {message}\n", end="", flush=True)


class Book:
    """What is served: each language's last good build and their count, the status shown until the first
    one, each language's edits waiting for a build, and how many edits asked for the data step."""

    def __init__(self, langs, workdir: Path, ctx):
        self.langs, self.workdir, self.ctx = langs, workdir, ctx
        self.current, self.version = dict.fromkeys(langs), dict.fromkeys(langs, 0)
        self.status, self.count, self.running = "starting", 0, {}
        self.edits = {lang: {ROOT / "mkdocs.yml"} for lang in langs}   # the first round: as if mkdocs.yml had changed
        self.data_asked, self.data_done = 1, 0     # edits that asked for the data step; how many it has seen
        self.data_lock = threading.Lock()          # one data step at a time
        self.changed = threading.Condition()       # an edit came, or a build was served

    def request(self, path: Path) -> None:
        with self.changed:
            for lang in langs_for(path) & set(self.langs):
                self.edits[lang].add(path)
            self.data_asked += needs_data(path)
            self.changed.notify_all()

    def say(self, status: str) -> None:
        self.status = status
        log(status)

    def run(self, lang: str) -> None:
        """A language's build loop: one build per batch of its edits, after the data step if one of
        them asked for it (run by whichever loop comes first; the other waits for it)."""
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.edits[lang])
            time.sleep(0.05)                    # editors write a file in several steps
            with self.changed:
                self.edits[lang], asked = set(), self.data_asked
            with self.data_lock:
                if self.data_done < asked:
                    asked = self.data_asked     # the edits since count too: this step sees them
                    self.data()
                    self.data_done = asked
            self.build(lang)

    def stop(self) -> None:
        """End the running builds with everything they started (each is a process group)."""
        for job in list(self.running.values()):
            if job.is_alive():
                try:
                    os.killpg(job.pid, signal.SIGTERM)
                except ProcessLookupError:
                    job.terminate()

    def data(self) -> None:
        lang = self.langs[0] if len(self.langs) == 1 else "both"
        with subprocess.Popen([sys.executable, "-m", "bookbuild.data", "--lang", lang], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as process:
            for line in process.stdout:
                self.say(line.rstrip())

    def build(self, lang: str) -> None:
        start = time.perf_counter()
        if self.current[lang] is None:
            self.say(f"building {lang} (a complete build; the caches make it quick)")
        with self.changed:
            self.count += 1
            out = self.workdir / f"{lang}-{self.count}"
        job = self.running[lang] = self.ctx.Process(target=book_build.build_one, args=(lang, str(out), True, True))
        job.start()
        job.join()
        seconds, cpu = time.perf_counter() - start, out.with_suffix(".cpu")
        cpu_seconds = cpu.read_text() if cpu.is_file() else "?"
        cpu.unlink(missing_ok=True)
        if job.exitcode != 0:
            shutil.rmtree(out, ignore_errors=True)
            return self.say(f"{lang}: build FAILED after {seconds:.1f} s; " + ("still serving the last good build"
                            if self.current[lang] else "nothing to serve until a build succeeds (the error is above)"))
        old = self.current[lang]
        with self.changed:
            self.current[lang], self.version[lang] = out, self.version[lang] + 1
            self.changed.notify_all()
        self.say(f"{lang}: built in {seconds:.1f} s ({cpu_seconds} s of CPU, load average {os.getloadavg()[0]:.1f})")
        if old is not None:   # removed once no request reads it any more
            timer = threading.Timer(30, shutil.rmtree, args=(old,), kwargs={"ignore_errors": True})
            timer.daemon = True   # not waited for when the server stops (the work folder goes then)
            timer.start()


def make_handler(book: Book, pyodide: dict[str, Path], shared=None):
    """The HTTP handler. When the Chinese book is not served, what the English book loads from it:
    ``pyodide`` ({file name: path}, at /assets/pyodide/) and ``shared`` (path -> bytes or None:
    bookbuild.playground.shared_file)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_one_request(self):
            try:
                super().handle_one_request()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True   # the browser went away (a reload)

        def send(self, status: int, body: bytes = b"", kind: str = "text/plain", location: str = ""):
            self.send_response(status)
            charset = kind.startswith("text/") or kind in {"application/javascript", "application/json"}
            self.send_header("Content-Type", kind + "; charset=utf-8" * charset)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            if location:
                self.send_header("Location", location)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def send_file(self, file: Path, status: int = 200, lang: str = ""):
            kind, body = mimetypes.guess_type(file.name)[0] or "application/octet-stream", file.read_bytes()
            if kind == "text/html":
                tag = f'<script src="/__serve__/reload.js" data-lang="{lang}" data-version="{book.version[lang]}"></script></body>'
                body = body.replace(b"</body>", tag.encode(), 1)
            self.send(status, body, kind)

        def do_GET(self):
            url = urlsplit(self.path)
            path, query = unquote(url.path), dict(parse_qsl(url.query))
            if path == "/__serve__/reload.js":
                return self.send(200, RELOAD_JS.encode(), "text/javascript")
            if path == "/__serve__/wait":   # reload.js's long poll
                if query.get("lang") not in book.version:
                    return self.send(404, b"{}", "application/json")
                lang, version = query["lang"], int(query.get("version", 0))
                with book.changed:
                    changed = book.changed.wait_for(lambda: book.version[lang] > version, timeout=25)
                return self.send(200, json.dumps({"changed": changed}).encode(), "application/json")
            lang = "en" if (path == "/en" or path.startswith("/en/")) else "zh"
            if lang not in book.current:   # `make serve LANG=en`: what the English book loads from the Chinese root
                if path.startswith(PYODIDE_URL) and path[len(PYODIDE_URL):] in pyodide:
                    return self.send_file(pyodide[path[len(PYODIDE_URL):]])
                body = shared(path.lstrip("/")) if shared else None
                if body is not None:  # the playground's editor and attnkit.zip
                    return self.send(200, body, mimetypes.guess_type(path)[0] or "application/octet-stream")
                return self.send(302, location="/en/" if lang == "zh" else "/")
            root = book.current[lang]
            if root is None:   # until the first build: what the server is doing, refreshed every 2 s
                return self.send(503, (f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="2">'
                                       f"<title>building the book</title><h1>The book is being built</h1>"
                                       f"<p><code>{book.status}</code></p><p>This page reloads itself; the terminal "
                                       f"running <code>make serve</code> says more.</p>").encode(), "text/html")
            file = (root / (path[len("/en"):] if lang == "en" else path).lstrip("/")).resolve()
            if not file.is_relative_to(root.resolve()):
                return self.send(403, b"forbidden")
            if file.is_dir() and not path.endswith("/"):
                return self.send(301, location=path + "/")
            if file.is_dir():
                file = file / "index.html"
            return self.send_file(file, 200, lang) if file.is_file() else self.send_file(root / "404.html", 404, lang)

        do_HEAD = do_GET

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
                if langs_for(Path(raw)):
                    book.request(Path(raw))

    observer, handler = Observer(), OnChange()
    for name in WATCHED:
        if (ROOT / name).is_dir():
            observer.schedule(handler, str(ROOT / name), recursive=True)
    observer.schedule(handler, str(ROOT), recursive=False)   # the configs and pyproject.toml
    observer.start()
    return observer


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
    where = f"http://{args.host}:{server.server_address[1]}/"
    # before the forkserver starts, for every build: the served address (site_url), no print page, one BLAS thread
    os.environ.update(SITE_URL=where, BOOK_PRINT_PAGE="false")
    book_build.set_environment(len(langs))
    # Every build is forked from one process that imported PRELOAD and read jieba's dictionary. It
    # finds tools.serve_preload from the working directory: Python 3.11's forkserver ignores sys.path.
    os.chdir(ROOT)
    book.ctx = multiprocessing.get_context("forkserver")
    book.ctx.set_forkserver_preload(PRELOAD)
    signal.signal(signal.SIGTERM, signal.default_int_handler)   # SIGTERM ends the server as Ctrl-C does
    observer = watch(book)
    for lang in langs:
        threading.Thread(target=book.run, args=(lang,), daemon=True).start()
    log("serving " + ", ".join(f"{lang} at {where}{'en/' * (lang == 'en')}" for lang in langs))
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
