"""Build glue for the playground (playground.md): Python in the reader's browser, offline.

Adds to the site: ``assets/pyodide/`` (the pinned core and numpy, checked by vendor_pyodide.py, with a
lock listing only those: :func:`served_lock`), ``assets/playground/`` attnkit.zip, the CodeMirror
editor bundle, the Pyodide helper module and ``presets.json`` (every listing as this language shows
it); the English book loads Pyodide, attnkit.zip and the editor from the Chinese one (:data:`FROM_EN`).
Puts "edit / run / download" links under every listing fence.
"""

from __future__ import annotations

import io
import json
import os
import posixpath
import subprocess
import zipfile
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from . import listings, vendor_pyodide  # the [zh]/[en] filter and the listing fence form; the pinned Pyodide

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = ROOT / "snippets"
ASSETS = ROOT / "overrides" / "assets" / "playground"
EDITOR_ENTRY = ROOT / "tools" / "playground_editor.js"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
PLAYGROUND_PAGE = "playground.md"
# The lines of the playground's scripts that say where the Chinese book's files are, as the English copy says them
FOR_EN = {"worker.js": {'const PYODIDE = "../pyodide/";': 'const PYODIDE = "../../../assets/pyodide/";',
                        'const ATTNKIT = "./";': 'const ATTNKIT = "../../../assets/playground/";'},
          "app.js": {'const EDITOR_ROOT = "./";': 'const EDITOR_ROOT = "../";'}}
# The files only the Chinese book carries (the English book loads them from it): how it makes their bytes
FROM_EN = {"assets/playground/editor.js": lambda: editor_bundle().read_bytes(),
           "assets/playground/attnkit.zip": lambda: attnkit_zip()}
LINK_TEXT = {"zh": "▶ 在浏览器里运行这段代码", "en": "▶ Run this in your browser"}
EDIT_TEXT = {"zh": "✎ 就地修改并运行", "en": "✎ Edit and run here"}
DOWNLOAD_TEXT = {"zh": "⬇ 下载 {name}", "en": "⬇ Download {name}"}


def pyodide_files() -> dict[str, Path]:
    try:
        return vendor_pyodide.verify()
    except vendor_pyodide.VendorError as error:
        (vendor_pyodide.CACHE / ".verified").unlink(missing_ok=True)  # so that `make setup` fetches again
        raise PluginError(f"playground: {error}") from None


def served_lock(lock_text: str, served: set[str]) -> str:
    """Pyodide's ``pyodide-lock.json`` with only the packages whose wheel is one of ``served`` (file names):
    the official lock lists 351 (112 KB, fetched on every first run of the playground).

    >>> served_lock('{"info": {"version": "0"}, "packages": {"a": {"file_name": "a.whl", "depends": []}, '
    ...             '"b": {"file_name": "b.whl", "depends": []}}}', {"a.whl"})
    '{"info": {"version": "0"}, "packages": {"a": {"file_name": "a.whl", "depends": []}}}'
    """
    lock = json.loads(lock_text)
    packages = {name: p for name, p in lock["packages"].items() if p["file_name"] in served}
    missing = sorted({d for p in packages.values() for d in p["depends"]} - set(packages))
    if missing:
        raise PluginError(f"playground: the site serves packages that need {missing}, which it does not serve")
    return json.dumps({**lock, "packages": packages}, ensure_ascii=False)


def editor_bundle() -> Path:
    """The CodeMirror bundle, cached under its entry point and the npm lock: .cache/playground/<key>.js."""
    from .bookcache import Store, key, sources
    store = Store("playground", ".js")
    k = key("editor-bundle", 1, sources([EDITOR_ENTRY, ROOT / "package-lock.json"]))
    if store.path(k).is_file():
        return store.path(k)
    if not ESBUILD.exists():
        raise PluginError(
            f"playground: {ESBUILD.relative_to(ROOT)} is missing, so the editor cannot be bundled. "
            "Run `make setup` (it runs `npm ci`) to install the pinned packages from package-lock.json."
        )
    partial = store.dir / f"editor.{os.getpid()}.js"  # another build may be bundling too
    partial.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [str(ESBUILD), str(EDITOR_ENTRY), "--bundle", "--format=esm", "--minify", "--legal-comments=none",
         "--log-level=error", f"--outfile={partial}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise PluginError(f"playground: esbuild could not bundle {EDITOR_ENTRY.relative_to(ROOT)}:\n{result.stderr}")
    store.put(k, partial.read_bytes())
    partial.unlink()
    return store.path(k)


def attnkit_zip() -> bytes:
    """attnkit/**.py without its figures and the coding exercises as a zip with fixed timestamps."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted((ROOT / "attnkit").rglob("*.py")) + sorted((ROOT / "exercises").glob("ch*/*.py")):
            if (name := path.relative_to(ROOT).as_posix()).startswith("attnkit/figures/"):
                continue
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buffer.getvalue()


def for_english(script: str) -> str:
    """``script`` (of overrides/assets/playground/) as the English book serves it: :data:`FOR_EN` replaced."""
    source = (ASSETS / script).read_text(encoding="utf-8")
    for line, replacement in FOR_EN[script].items():
        if source.count(line) != 1:
            raise PluginError(f"playground: {(ASSETS / script).relative_to(ROOT)} must contain the line {line!r} once")
        source = source.replace(line, replacement)
    return source


def shared_scripts() -> list[str]:
    """The scripts of :data:`FROM_EN`, which both books run (trim_and_minify.py purges against their words)."""
    return [editor_bundle().read_text(encoding="utf-8")]


def shared_file(path: str) -> bytes | None:
    """The bytes of a file of :data:`FROM_EN` as the Chinese book serves it; None for any other path."""
    return FROM_EN[path]() if path in FROM_EN else None


def presets(lang: str) -> str:
    """Every listing as the ``lang`` book shows it (its [zh]/[en] lines filtered), and the welcome code."""
    try:
        shown = {
            path.relative_to(SNIPPETS).as_posix(): listings.for_language(path.read_text(encoding="utf-8"), lang)
            for path in sorted(SNIPPETS.rglob("*.py"), key=lambda p: p.relative_to(SNIPPETS).as_posix())
        }
    except ValueError as error:
        raise PluginError(f"playground: {error}") from None
    welcome = listings.for_language((ASSETS / "welcome.py").read_text(encoding="utf-8"), lang)
    return json.dumps({"welcome": welcome, "listings": shown}, ensure_ascii=False, indent=1)


def on_config(config):
    config.extra_css.append("assets/playground/playground.css")
    config.extra_javascript.append(ExtraScriptValue("assets/playground/loader.js"))
    return config


def on_files(files, config):
    def add(site_path, **source):
        existing = files.get_file_from_path(site_path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, site_path, **source))

    pyodide = pyodide_files()
    if config.theme["language"] == "zh":
        for name, path in pyodide.items():
            if name == "pyodide-lock.json":
                add(f"assets/pyodide/{name}", content=served_lock(path.read_text(encoding="utf-8"), set(pyodide)))
            else:
                add(f"assets/pyodide/{name}", abs_src_path=str(path))
        for site_path, make in FROM_EN.items():
            add(site_path, content=make())
    else:
        for script in FOR_EN:
            add(f"assets/playground/{script}", content=for_english(script))
    add("assets/playground/playground.py", abs_src_path=str(ASSETS / "playground.py"))  # show() and the runner
    add("assets/playground/presets.json", content=presets(config.theme["language"]))
    try:
        for site_path, code in listings.downloads(config.theme["language"]).items():
            add(site_path, content=code)     # each listing as a file in this language (listings.py)
    except ValueError as error:
        raise PluginError(f"playground: {error}") from None
    return files


def add_run_links(markdown: str, src_uri: str, lang: str) -> str:
    """Put under every listing fence: an "edit and run here" button (shown by widgets/index.js), a link
    to the playground opened with that listing, and one to download it in the page's language."""
    here = posixpath.dirname(src_uri) or "."
    target = posixpath.relpath(PLAYGROUND_PAGE, here)

    def link(match):
        indent, path = match["indent"], match["path"]
        if not (SNIPPETS / path).is_file():
            return match[0]  # pymdownx.snippets reports the missing file itself
        file = posixpath.relpath(listings.download_path(path), here)
        name = posixpath.basename(path)
        edit = f'<button type="button" class="listing-edit attn-button" data-listing="{path}" hidden>{EDIT_TEXT[lang]}</button>'
        download = f'[{DOWNLOAD_TEXT[lang].format(name=name)}]({file}){{ .listing-download download="{name}" }}'
        return (f'{match[0]}\n\n{indent}{edit} [{LINK_TEXT[lang]}]({target}?listing={path}){{ .pg-run-link }} {download}\n'
                f'{indent}{{: .listing-links .screen-only }}\n')

    return listings.FENCE.sub(link, markdown)


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri == PLAYGROUND_PAGE:
        return markdown
    return add_run_links(markdown, page.file.src_uri, config.theme["language"])
