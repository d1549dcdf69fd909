"""The build and the edit loop: caches keyed by their inputs, strict errors that name their source,
byte-identical builds, and `make serve` serving what a cold build writes.

The fast tests here need nothing built. The ``build`` and ``serve`` tests copy the repository
to a temporary folder and build (or serve) it there: minutes on a busy machine, so `make check`
leaves them out and `make test` runs them.
"""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import os
import re
import socket
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from book import ROOT, load_file
from importlib import import_module

BOOKBUILD = ROOT / "bookbuild"


bookcache = import_module("bookbuild.bookcache")
serve_tool = load_file(ROOT / "tools" / "serve.py", "serve_tool")
copy_repo = serve_tool.book_build.copy_repo


# ---------------------------------------------------------------- fast: what the caches rely on


def imports_of(path: Path) -> set[str]:
    """Every module name an import statement of ``path`` mentions (``from . import figures`` -> {".", ".figures"})."""
    names = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names |= {base} | {f"{base}.{a.name}" for a in node.names}
    return names


def test_no_attnkit_module_outside_figures_imports_figures():
    """Listings, page numbers and widgets are keyed without attnkit/figures/: true only if no
    other attnkit module imports it."""
    offenders = []
    for path in sorted((ROOT / "attnkit").glob("*.py")):
        if any("figures" in name for name in imports_of(path)):
            offenders.append(path.relative_to(ROOT).as_posix())
    assert not offenders, f"these attnkit modules import attnkit.figures (the caches assume none does): {offenders}"


def test_tools_do_not_import_from_tests():
    offenders = []
    for path in sorted((ROOT / "tools").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"""["']tests["']|/ ?"tests"|ROOT / "tests"|from tests\b|import tests\b""", text):
            offenders.append(path.name)
    assert not offenders, f"tools/ must not import from tests/ (move the helper to tools/): {offenders}"


def hashed(monkeypatch) -> list:
    """The file lists bookcache.sources is asked to hash from now on (each call's names)."""
    calls = []

    def record(paths):
        names = sorted(p.relative_to(ROOT).as_posix() for p in paths)
        calls.append(names)
        return bookcache.key(names)

    monkeypatch.setattr(bookcache, "sources", record)
    monkeypatch.setattr(bookcache, "_FROZEN", {})
    return calls


def test_figure_key_follows_its_module_what_it_imports_language_and_environment(monkeypatch):
    """A figure's key covers its module, what the module imports through attnkit (other figure
    modules, _style, the numbers it draws from) and nothing else: editing guard.py or another
    chapter's figures redraws nothing of chapter 3."""
    figures = import_module("bookbuild.figures")
    calls = hashed(monkeypatch)
    k = figures.figure_key("ch3-x", "ch3.py", "zh")
    assert figures.figure_key("ch3-x", "ch3.py", "en") != k, "language"
    assert figures.figure_key("ch3-y", "ch3.py", "zh") != k, "figure id"
    names = set(calls[0])
    assert {"attnkit/figures/ch3.py", "attnkit/figures/_style.py", "attnkit/figures/__init__.py", "attnkit/core.py",
            "attnkit/__init__.py"} <= names, names
    assert not names & {"attnkit/figures/ch4.py", "attnkit/guard.py", "attnkit/exercise.py", "attnkit/induction.py"}, names
    calls.clear()
    figures.figure_key("ch11-maps", "ch11.py", "zh")
    assert {"attnkit/induction.py", "attnkit/tinygpt.py", "attnkit/training.py"} <= set(calls[0])


def test_notebooks_are_keyed_by_what_the_labs_can_run(tmp_path, monkeypatch):
    labs = import_module("bookbuild.labs")
    calls = hashed(monkeypatch)
    for lang in ("zh", "en"):
        calls.clear()
        labs.labs_digest(ROOT / "docs" / lang)
        names = set(calls[-1])
        assert {"attnkit/figures/ch4.py", "attnkit/heads.py", "attnkit/figures/__init__.py"} <= names, names
        assert "attnkit/figures/ch3.py" not in names, "a chapter 3 figure edit would re-execute the labs"
    lab = tmp_path / "ch1" / "lab-x.py"
    lab.parent.mkdir()
    for text, expected in [('render_svg("ch3-softmax-amplify", "zh")', "attnkit/figures/ch3.py"),
                           ("from attnkit.figures.ch9 import x", "attnkit/figures/ch9.py")]:
        lab.write_text(text + "\n", encoding="utf-8")
        calls.clear()
        labs.labs_digest(tmp_path)
        assert expected in calls[-1], text
    whole = bookcache.attnkit_digest(True)
    for text in ["render_svg(fig_id, 'zh')", 'render_svg("no-such-figure", "zh")', "from attnkit.figures import FIGURES",
                 "import importlib\nimportlib.import_module('attnkit.x')"]:
        lab.write_text(text + "\n", encoding="utf-8")
        assert labs.labs_digest(tmp_path) == whole, f"{text}: should key by every file of attnkit"


def test_lab_pages_do_not_depend_on_jupytexts_random_cell_ids():
    labs = import_module("bookbuild.labs")
    one = '<div class="jp-Cell" id="cell-id=ba183d06">a</div><div id="cell-id=e4d88532">b</div>'
    two = '<div class="jp-Cell" id="cell-id=989240eb">a</div><div id="cell-id=ebcfa9c6">b</div>'
    assert labs.fixed_cell_ids(one) == labs.fixed_cell_ids(two)
    assert labs.fixed_cell_ids(one).count("cell-id=cell-") == 2


def test_search_entries_are_keyed_by_the_page_and_the_search_settings():
    """The search plugin's settings (separator, lang, jieba_dict) decide how a page's text is
    split, so a change of mkdocs.yml's search section must miss the cache; so must the page."""
    search = import_module("bookbuild.search")
    page = types.SimpleNamespace(meta={}, content="<p>小猫</p>", toc=[], url="ch3/", title="3.3")
    options = {"lang": ["zh"], "separator": r"[\s\-]+"}
    same = search.entries_key(page, dict(options))
    assert search.entries_key(page, dict(options)) == same
    assert search.entries_key(page, {**options, "separator": r"[\s]+"}) != same
    for change in ({"content": "<p>小狗</p>"}, {"url": "ch4/"}, {"title": "3.4"}, {"meta": {"search": {"boost": 2}}}):
        assert search.entries_key(types.SimpleNamespace(**{**vars(page), **change}), options) != same, change


def test_cached_search_entries_go_back_in_their_place(tmp_path, monkeypatch):
    """search.merge: the index of a build where some pages were excluded (their entries cached)
    is the index of a build where none was: entries in the order the pages were built."""
    search = import_module("bookbuild.search")
    monkeypatch.setattr(search, "ENTRIES", bookcache.Store.__new__(bookcache.Store))
    search.ENTRIES.dir, search.ENTRIES.suffix = tmp_path, ".json"
    home = [{"location": "", "title": "首页", "text": "a"}, {"location": "#x", "title": "x", "text": "b"}]
    ch3 = [{"location": "ch3/", "title": "3", "text": "c"}]
    ch3_softmax = [{"location": "ch3/softmax/", "title": "3.3", "text": "d"},
                   {"location": "ch3/softmax/#y", "title": "y", "text": "e"}]
    uncached = home + ch3 + ch3_softmax
    monkeypatch.setattr(search, "_pages", [("", "k0", None), ("ch3/", "k1", ch3), ("ch3/softmax/", "k2", None)])
    assert search.merge(home + ch3_softmax) == uncached
    assert search.ENTRIES.get("k2") is not None and search.ENTRIES.get("k1") is None   # fresh entries are cached
    monkeypatch.setattr(search, "_pages", [("", "k0", home), ("ch3/", "k1", ch3), ("ch3/softmax/", "k2", ch3_softmax)])
    assert search.merge([]) == uncached


def test_a_listing_runs_in_a_fresh_namespace_and_names_its_source_when_it_fails():
    """bookbuild/listings.py runs each listing in the build process (cached by its code): what it
    printed, NumPy's print options as they were, and a failure that names the snippet, the page
    and the listing's own lines."""
    import numpy as np
    from mkdocs.exceptions import PluginError

    listings = import_module("bookbuild.listings")
    before = np.get_printoptions()
    out = listings.run("import numpy as np\nnp.set_printoptions(precision=1)\nx = 2\nprint(np.array([1/3]), x)\n",
                       "snippets/chX/a.py (included by docs/en/chX/a.md)")
    assert out == "[0.3] 2\n" and np.get_printoptions() == before and "x" not in globals()
    with pytest.raises(PluginError) as error:
        listings.run("def f():\n    return 1 / 0\n\nprint(f())\n", "snippets/chX/b.py (included by docs/zh/chX/b.md)")
    message = str(error.value)
    assert "snippets/chX/b.py (included by docs/zh/chX/b.md) failed: ZeroDivisionError" in message
    assert "line 4: print(f())" in message and "line 2: return 1 / 0" in message
    with pytest.raises(PluginError, match="SystemExit"):
        listings.run("import sys\nsys.exit(3)\n", "snippets/chX/c.py")


def test_a_listing_shows_its_code_then_its_output_in_plain_fences(monkeypatch):
    """A listing fence becomes the listing for the page's language and a text fence with what it
    printed; a fence longer than any backtick run inside, so the output cannot close it."""
    listings = import_module("bookbuild.listings")
    monkeypatch.setattr(listings, "output", lambda code, where: "```\n" if "tick" in code else "4\n")
    md = '> note\n\n    ```python exec="on" source="above" result="text"\n    --8<-- "ch3/softmax_cake.py"\n    ```\n'
    out = listings.expand(md, "en")
    assert out.startswith("> note\n\n    ```python\n    import numpy as np") and out.endswith("    ```text\n    4\n    ```\n")
    code = listings.for_language((ROOT / "snippets" / "ch3" / "softmax_cake.py").read_text(encoding="utf-8"), "en")
    assert code.strip() in out.replace("\n    ", "\n")
    monkeypatch.setattr(listings, "for_language", lambda source, lang: "print('tick')\n")
    assert "````text\n    ```\n    ````" in listings.expand(md, "en")


PRIVATE_USE = re.compile(r"\b(?:mkdocs|material|markdown_exec|mkdocs_print_site_plugin|mkdocs_jupyter|mkdocs_macros|pymdownx|"
                         r"jinja2|nbconvert)\b[\w.:]*[.:]_[a-z]\w*")


def test_the_build_uses_no_private_code_of_another_project():
    """Issue 33: nothing of MkDocs, Material, markdown-exec, print-site, mkdocs-jupyter, macros,
    pymdownx, Jinja or nbconvert is wrapped, replaced or reassigned, and no private name of theirs
    is imported or read: an upgrade then changes nothing the build relies on but public behaviour
    (which the tests check). Only attnkit's own functions are replaced (bookcache.memoize)."""
    problems = []
    for path in sorted([*BOOKBUILD.rglob("*.py"), *(ROOT / "tools").glob("*.py")]):
        source = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        problems += [f"{rel}: {m[0]}" for m in PRIVATE_USE.finditer(source)]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__" and any(
                    part.startswith("_") for part in node.module.split(".")) and node.level == 0:
                problems.append(f"{rel}:{node.lineno}: from {node.module} import ...")
            if isinstance(node, ast.ImportFrom) and node.level == 0 and not (node.module or "").startswith(("attnkit", "bookbuild")):
                problems += [f"{rel}:{node.lineno}: imports {a.name} from {node.module}" for a in node.names
                             if a.name.startswith("_") and a.name != "__future__"]
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                root = target
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(target, ast.Attribute) and isinstance(root, ast.Name) and root.id in {
                        "mkdocs", "material", "markdown_exec", "mkdocs_print_site_plugin", "mkdocs_jupyter", "mkdocs_macros",
                        "pymdownx", "jinja2", "nbconvert", "search", "urls", "build", "theme", "pages"}:
                    problems.append(f"{rel}:{node.lineno}: assigns {ast.unparse(target)}")
    assert not problems, "\n".join(problems)
    assert not (BOOKBUILD / "patches.py").exists()


def test_figure_modules_do_nothing_at_import_but_define_and_register():
    """A lab imports attnkit.figures, which imports every figure module; the notebook cache is
    keyed only by the modules a lab draws from, which is right only if importing the others
    changes nothing (no matplotlib settings, no output): top level holds imports, constants,
    functions and classes."""
    allowed = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)
    offenders = []
    for path in sorted((ROOT / "attnkit" / "figures").glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_bytes())
        for i, node in enumerate(tree.body):
            docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            if not (isinstance(node, allowed) or docstring):
                offenders.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and re.search(r"rcParams|\brc\(|\.use\(", ast.unparse(node)):
                offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, f"top-level statements with effects in figure modules: {offenders}"


def test_environment_key_covers_numpy_matplotlib_and_fonts():
    body = inspect.getsource(bookcache.environment)
    for part in ('"numpy"', '"matplotlib"', "fonts", "sys.version"):
        assert part in body, part


def test_memo_is_keyed_by_arguments_and_survives_processes(tmp_path, monkeypatch):
    monkeypatch.setattr(bookcache, "_MEMO", bookcache.Store.__new__(bookcache.Store))
    bookcache._MEMO.dir, bookcache._MEMO.suffix = tmp_path, ".pickle"
    calls = []

    def square(x):
        calls.append(x)
        return x * x

    square.__module__ = "attnkit.fake"
    assert bookcache.memo(square, 3) == 9 and bookcache.memo(square, 3) == 9 and bookcache.memo(square, 4) == 16
    assert calls == [3, 4]
    assert len(list(tmp_path.rglob("*.pickle"))) == 2


def test_glossary_errors_name_the_entry():
    glossary = import_module("bookbuild.glossary")
    cases = [
        ([{"id": "softmax", "zh": "softmax", "en": "softmax", "short": {"zh": "x"}}], "entry id 'softmax': short.en"),
        ([{"zh": "注意力", "en": "attention"}], "entry #1 (注意力): id"),
        ([{"id": "x", "zh": "a", "en": "b", "short": {"zh": "a", "en": "b"},
           "section": {"zh": "a.md", "en": "b.md"}, "table": True}], "entry id 'x': metaphor.zh"),
    ]
    for data, expected in cases:
        with pytest.raises(glossary.GlossaryError, match=re.escape(expected)):
            glossary.check_entries(data)
    assert glossary.check_entries(glossary.entries()), "the real glossary passes"


def test_serve_rebuilds_only_the_language_an_edit_touches():
    assert serve_tool.langs_for(ROOT / "docs" / "zh" / "ch3" / "softmax.md") == {"zh"}
    assert serve_tool.langs_for(ROOT / "docs" / "en" / "ch3" / "softmax.md") == {"en"}
    assert serve_tool.langs_for(ROOT / "mkdocs.en.yml") == {"en"}
    for shared in ("docs/glossary.yml", "mkdocs.yml", "attnkit/core.py", "snippets/ch3/qkv.py", "bookbuild/figures.py",
                   "bookbuild/hooks.py"):
        assert serve_tool.langs_for(ROOT / shared) == {"zh", "en"}, shared
    for beside in ("serve.log", "notes.txt", ".mkdocs.yml.swp"):   # beside the configs, not a source
        assert serve_tool.langs_for(ROOT / beside) == set(), beside
    watched = {Path(p).parts[0] for p in serve_tool.WATCHED}
    assert {"docs", "attnkit", "bookbuild", "snippets", "overrides", "mkdocs.yml", "mkdocs.en.yml"} <= watched


def test_serve_runs_the_data_step_only_after_edits_that_can_change_figures_or_widgets():
    for path in ("docs/zh/ch3/softmax.md", "docs/en/ch3/softmax.md", "snippets/ch3/qkv.py"):
        assert not serve_tool.needs_data(ROOT / path), path
    for path in ("attnkit/core.py", "attnkit/figures/ch3.py", "exercises/ch3/softmax.py", "bookbuild/widgets.py", "mkdocs.yml",
                 "docs/widget-labels.yml"):
        assert serve_tool.needs_data(ROOT / path), path
    assert "exercises" in serve_tool.WATCHED, "an edited exercise must be rebuilt"


def test_serve_builds_each_language_in_a_loop_of_its_own(tmp_path):
    """An English edit is built and served while a Chinese build runs, not after it; an edit that
    asks for the data step has it run once, before both languages build."""
    import threading

    log = []

    class Job:   # stands in for a forked build_one: the Chinese build takes 2 s, the English 0.1 s
        def __init__(self, target, args):
            self.lang, self.out, self.pid, self.exitcode = args[0], Path(args[1]), 0, None

        def start(self):
            log.append(("start", self.lang))

        def join(self):
            time.sleep(2.0 if self.lang == "zh" else 0.1)
            self.out.mkdir()
            self.exitcode = 0

        def is_alive(self):
            return self.exitcode is None

    book = serve_tool.Book(("zh", "en"), tmp_path, types.SimpleNamespace(Process=Job))
    book.data = lambda: log.append(("data", sorted(lang for lang, edits in book.edits.items() if edits)))

    def served(**versions):
        with book.changed:
            assert book.changed.wait_for(lambda: all(book.version[k] >= v for k, v in versions.items()), timeout=20), \
                (book.version, log)
        return dict(book.version)

    for lang in book.langs:
        threading.Thread(target=book.run, args=(lang,), daemon=True).start()
    served(zh=1, en=1)
    assert [entry[0] for entry in log] == ["data", "start", "start"], log   # the data step once, then both
    book.request(ROOT / "docs/zh/ch3/softmax.md")
    time.sleep(0.3)
    book.request(ROOT / "docs/en/ch3/softmax.md")
    assert served(en=2) == {"zh": 1, "en": 2}   # the Chinese build still runs
    served(zh=2)
    log.clear()
    book.request(ROOT / "attnkit/core.py")
    served(zh=3, en=3)
    assert [entry[0] for entry in log] == ["data", "start", "start"], log
    book.stop()


def _serve_stub(current: dict, pyodide, status="data [ 3/144] figure ch3-x (zh) 0.2 s", shared=None):
    import http.server
    import threading

    book = serve_tool.Book(tuple(current), Path("/nonexistent"), None)
    book.current.update(current)
    book.version.update({lang: int(site is not None) for lang, site in current.items()})
    book.status = status
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), serve_tool.make_handler(book, pyodide, shared))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_serve_lang_en_alone_serves_the_pyodide_files_and_says_what_it_does_before_the_first_build(tmp_path):
    site = tmp_path / "en"
    site.mkdir()
    (site / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    wasm = tmp_path / "pyodide.asm.wasm"
    wasm.write_bytes(b"\0asm-bytes")
    playground = import_module("bookbuild.playground")
    server, base = _serve_stub({"en": site}, {"pyodide.asm.wasm": wasm}, shared=playground.shared_file)
    try:
        with urllib.request.urlopen(f"{base}/assets/pyodide/pyodide.asm.wasm", timeout=10) as r:
            assert r.read() == b"\0asm-bytes" and r.headers["Content-Type"] == "application/wasm"
        # the playground's editor and attnkit.zip, which only the Chinese book carries
        for path in playground.FROM_EN:
            with urllib.request.urlopen(f"{base}/{path}", timeout=60) as r:
                assert r.read() == playground.shared_file(path), path
                assert r.headers["Content-Type"].split(";")[0] in {"text/javascript", "application/zip"}, path
        with urllib.request.urlopen(f"{base}/assets/book.css", timeout=10) as r:   # other zh paths: to /en/
            assert r.url.endswith("/en/") and b"home" in r.read()
        with urllib.request.urlopen(f"{base}/en/", timeout=10) as r:
            assert b'src="/__serve__/reload.js" data-lang="en" data-version="1"' in r.read()
    finally:
        server.shutdown()
    server, base = _serve_stub({"zh": None}, {})
    try:
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(f"{base}/ch3/softmax/", timeout=10)
        body = error.value.read()
        assert error.value.code == 503 and b"data [ 3/144] figure ch3-x (zh)" in body and b'http-equiv="refresh"' in body
    finally:
        server.shutdown()


def test_make_publish_refuses_without_a_public_address():
    result = subprocess.run(["make", "-s", "publish"], cwd=ROOT, capture_output=True, text=True,
                            env={k: v for k, v in os.environ.items() if k not in ("SITE_URL", "MAKEFLAGS")})
    assert result.returncode == 2 and "set SITE_URL" in result.stderr, result.stderr


# ---------------------------------------------------------------- slow: builds in a copy


def run_build(repo: Path, *args: str, env_extra=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", **(env_extra or {}))
    return subprocess.run([sys.executable, "tools/build.py", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=1800)


def tree(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.build
def test_broken_anchor_and_failing_listing_fail_the_build_and_name_their_source(tmp_path):
    repo = copy_repo(tmp_path / "repo", caches=True)
    page = repo / "docs" / "en" / "ch3" / "softmax.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](scaling.md#no-such-anchor).\n", encoding="utf-8")
    snippet = repo / "snippets" / "ch3" / "softmax_cake.py"
    snippet.write_text(snippet.read_text(encoding="utf-8") + "\nraise ValueError('listing broke on purpose')\n", encoding="utf-8")
    result = run_build(repo, "--lang", "en")
    out = result.stdout + result.stderr
    assert result.returncode != 0, out[-3000:]
    assert "no-such-anchor" in out, out[-3000:]
    assert re.search(r"snippets/ch3/softmax_cake\.py \(included by docs/en/ch3/softmax\.md\)", out), out[-3000:]
    assert "listing broke on purpose" in out


@pytest.mark.build
def test_one_language_is_built_without_removing_the_other(tmp_path):
    """`tools/build.py --lang zh` replaces the Chinese book at the target and leaves its en/ as it
    was, as `--lang en` leaves the Chinese book."""
    (tmp_path / "out" / "en").mkdir(parents=True)
    (tmp_path / "out" / "en" / "kept.html").write_text("the English book", encoding="utf-8")
    (tmp_path / "out" / "stale.html").write_text("an old Chinese page", encoding="utf-8")
    result = run_build(ROOT, "--lang", "zh", "-d", str(tmp_path / "out"))
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert (tmp_path / "out" / "en" / "kept.html").read_text(encoding="utf-8") == "the English book"
    assert (tmp_path / "out" / "index.html").is_file() and not (tmp_path / "out" / "stale.html").exists()


@pytest.mark.build
def test_a_second_build_writes_the_same_bytes_as_the_site(tmp_path):
    """Build again from the same sources into a temporary folder and compare every file with
    site/. In CI site/ is a cold build (a clean clone has no caches) and this one is warm, so the
    test also proves that the caches hold exactly what a fresh computation gives. The PDFs are
    not compared: their cover carries the build date unless SOURCE_DATE_EPOCH is set."""
    site = ROOT / "site"
    assert (site / "index.html").is_file() and (site / "en" / "index.html").is_file(), "run `make build` first"
    # The print pages' cover carries the day of the build (offline_pdf.py; the sitemaps have no
    # <lastmod>: overrides/sitemap.xml). The rebuild is made as of site/'s day (SOURCE_DATE_EPOCH,
    # which offline_pdf.py honours), so a run that crosses midnight UTC compares like with like (CI once did).
    cover = (site / "print_page" / "index.html").read_text(encoding="utf-8")
    day = re.search(r"<dt>构建日期</dt>\s*<dd>(\d{4}-\d{2}-\d{2})</dd>", cover)[1]
    epoch = int(dt.datetime.fromisoformat(day).replace(tzinfo=dt.timezone.utc).timestamp())
    again = run_build(ROOT, "-d", str(tmp_path / "again"), env_extra={"SOURCE_DATE_EPOCH": str(epoch)})
    assert again.returncode == 0, (again.stdout + again.stderr)[-3000:]
    first = {k: v for k, v in tree(site).items() if not k.startswith("pdf/")}
    second = tree(tmp_path / "again")
    assert sorted(first) == sorted(second), (
        f"files only in site/: {sorted(set(first) - set(second))[:10]}, only in the rebuild: "
        f"{sorted(set(second) - set(first))[:10]} (sources edited since `make build`?)")
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, (f"files that differ between site/ and a rebuild: {differ[:20]} (sources edited, or a commit "
                        "made, since `make build`? The print page's cover names the commit)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def poll(url: str, changed, timeout: float = 600) -> tuple[bytes, float]:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            body = fetch(url)
            if changed(body):
                return body, time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} did not change within {timeout} s")


SCRIPT = re.compile(rb'<script src="/__serve__/reload\.js"[^>]*></script>')
# The one measurement in the book: lab 5 times code on this machine, so a fresh execution prints
# new seconds and draws a new plot (other ticks). When a served tree is compared with a cold
# build, its page and its section of the print page are left out and the numbers of its search
# entries masked; every other file is compared byte for byte.
MEASURED = "ch5/lab-cost/"


def without_measurements(rel: str, body: bytes) -> bytes:
    import json

    if rel == MEASURED + "index.html":
        return b"(a measurement)"
    if rel == "print_page/index.html":
        start = body.find(b'<section class="print-page" id="ch5-lab-cost"')
        end = body.find(b'<section class="print-page"', start + 1)
        return body if start < 0 else body[:start] + b"(a measurement)" + body[end:]
    if rel == "search/search_index.json":
        index = json.loads(body)
        for doc in index["docs"]:
            if doc["location"].startswith(MEASURED):
                doc["text"] = re.sub(r"[ \t]*\d[\d.]*", " #", doc["text"])
        return json.dumps(index, ensure_ascii=False).encode()
    return body


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` of a file by `new`; a test whose edit finds nothing would wait for
    a change that never comes (a reader's edit of the page had renamed its text)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: update the test's edit"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.serve
def test_serve_shows_a_figure_and_a_listing_edit_exactly_as_a_cold_build(tmp_path):
    """Edit a figure function, a listing, a page title, docs/glossary.yml and a page template under
    `make serve`, then compare every file the server serves with a cold build (no caches) of the
    edited sources, byte for byte. The caches copied from this repository hold every figure,
    listing and search entry as it was: a key that misses one of these inputs serves a stale
    page and fails here."""
    repo = copy_repo(tmp_path / "repo", caches=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("BOOK_CACHE", None)   # the copy's caches: an outside cache could hold this very edit already
    log = open(tmp_path / "serve.log", "w")
    server = subprocess.Popen([sys.executable, "tools/serve.py", "--lang", "zh", "--port", str(port)],
                              cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        figure_url, page_url = f"{base}/figures/ch3-softmax-amplify.svg", f"{base}/ch3/softmax/"
        before_svg, _ = poll(figure_url, lambda body: body.startswith(b"<?xml"))
        # edit a figure function (its zh label) and a listing (one more line of output)
        # (a label of its own: a cache that once held this edit's figure would not redraw it)
        edit(repo / "attnkit" / "figures" / "ch3.py", '"① 原始得分"', f'"① 原始得分 {time.time_ns() % 10**6}"')
        snippet = repo / "snippets" / "ch3" / "softmax_cake.py"
        snippet.write_text(snippet.read_text(encoding="utf-8") + 'print("edited while serving")\n', encoding="utf-8")
        # and what every other page shows (the page cache must miss): a page title (the nav of
        # every page), a glossary definition (tooltips, the glossary page), a page template
        scaling = repo / "docs" / "zh" / "ch3" / "scaling.md"
        title = scaling.read_text(encoding="utf-8").splitlines()[0]
        assert title.startswith("# 3.4 "), title
        edit(scaling, title + "\n", title + "（改名）\n")
        edit(repo / "docs" / "glossary.yml", "每读一个词就更新一次隐藏状态", "每读一个词就改写一次隐藏状态")
        edit(repo / "overrides" / "main.html", "{{ super() }}", "{{ super() }}<!-- template edited while serving -->")
        served_svg, _ = poll(figure_url, lambda body: body != before_svg)
        served_page, _ = poll(page_url, lambda body: b"edited while serving" in body)
        # a page title shows in the nav of its chapter's pages (navigation.prune renders no other chapter's)
        for url, text in ((f"{base}/ch3/", title[2:] + "（改名）"), (f"{base}/ch0/", "template edited while serving"),
                          (f"{base}/glossary/", "每读一个词就改写一次隐藏状态")):
            poll(url, lambda body, t=text.encode(): t in body)
        # then a sentence of a page alone, and two saves half a second apart: the page shows both
        page = repo / "docs" / "zh" / "ch3" / "softmax.md"
        page.write_text(page.read_text(encoding="utf-8") + "\n这句话是服务期间写的。\n", encoding="utf-8")
        poll(page_url, lambda body: "这句话是服务期间写的".encode() in body)
        time.sleep(1)
        page.write_text(page.read_text(encoding="utf-8") + "\n又写了一句。\n", encoding="utf-8")
        time.sleep(0.5)
        page.write_text(page.read_text(encoding="utf-8") + "\n再写一句。\n", encoding="utf-8")
        poll(page_url, lambda body: "再写一句".encode() in body and "又写了一句".encode() in body)
        served_svg = fetch(figure_url)        # the page and the figure of one build
        served_page = fetch(page_url)
        cold = run_build(repo, "--lang", "zh", "-d", str(tmp_path / "cold"),   # without the print page, as serve builds
                         env_extra={"BOOK_CACHE": str(tmp_path / "empty-cache"), "SITE_URL": f"{base}/", "BOOK_PRINT_PAGE": "false"})
        assert cold.returncode == 0, (cold.stdout + cold.stderr)[-3000:]
        # every file of the cold build, as the server serves it now (reload script removed)
        served_tree = {}
        for rel in tree(tmp_path / "cold"):
            body = fetch(f"{base}/{rel}")
            served_tree[rel] = SCRIPT.sub(b"", body) if rel.endswith(".html") else body
        with pytest.raises(urllib.error.HTTPError):      # serve builds no print page
            fetch(f"{base}/print_page/")
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    cold_tree = tree(tmp_path / "cold")
    assert not any(rel.startswith("print_page/") for rel in cold_tree)
    differ = [rel for rel in cold_tree
              if without_measurements(rel, served_tree.get(rel, b"")) != without_measurements(rel, cold_tree[rel])]
    assert not differ, f"served files that differ from a cold build after the edits: {differ[:20]}"
    log_text = (tmp_path / "serve.log").read_text(encoding="utf-8")
    assert re.search(r"data \[\s*\d+/\d+\] figure ch3-softmax-amplify \(zh\)", log_text), "the figure edit: the data step redrew it"
    cold_svg = (tmp_path / "cold" / "figures" / "ch3-softmax-amplify.svg").read_bytes()
    cold_page = (tmp_path / "cold" / "ch3" / "softmax" / "index.html").read_bytes()
    assert served_svg == cold_svg, "the served figure is not what a cold build draws (stale figure code?)"
    assert served_svg != before_svg
    assert SCRIPT.sub(b"", served_page) == cold_page, "the served page is not what a cold build writes"


def test_contributing_lists_every_cache_the_hooks_keep():
    """A contributor reads CONTRIBUTING.md's table to know what a cache holds and what
    invalidates it: every Store("name") of bookbuild/, and every html_tags.cached("name", ...), has its row there."""
    names = {m for path in BOOKBUILD.glob("*.py")
             for m in re.findall(r'\b(?:Store|cached)\("([\w-]+)"', path.read_text(encoding="utf-8"))}
    assert {"tooltips", "a11y"} <= names
    table = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    missing = sorted(n for n in names if f"`.cache/{n}/" not in table)
    assert not missing, "CONTRIBUTING.md's cache table has no row for " + ", ".join(f".cache/{n}/" for n in missing)


def test_every_cache_is_under_book_cache(tmp_path):
    """BOOK_CACHE moves every cache (a cold build reads none): only bookcache.py names .cache
    (and vendor_pyodide.py, whose downloads are not a build cache); KaTeX's formulas follow it."""
    named = sorted(p.relative_to(ROOT).as_posix() for p in BOOKBUILD.rglob("*.py") if '".cache"' in p.read_text(encoding="utf-8"))
    assert named == ["bookbuild/bookcache.py", "bookbuild/vendor_pyodide.py"], named
    code = "from bookbuild import katex_math; print(katex_math.CACHE)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, BOOK_CACHE=str(tmp_path)),
                         capture_output=True, text=True, check=True).stdout.strip()
    assert Path(out).is_relative_to(tmp_path), out


# The order in which every event's handlers run, as it was when the priorities were spread over ten
# files (December 2026): mkdocs.yml's `hooks:` list and four priorities (the comment above it) give it.
# A plugin's handler is named by its class, a hook's by bookbuild.<module>.<function>.
RUN_ORDER = {
    "shutdown": ["bookbuild.katex_math.on_shutdown"],
    "config": ["SearchPlugin.on_config", "MacrosPlugin.on_config", "PrintSitePlugin.on_config",
               "bookbuild.i18n.on_config", "bookbuild.course.on_config", "bookbuild.playground.on_config", "bookbuild.listings.on_config",
               "bookbuild.offline_pdf.on_config", "bookbuild.labs.on_config", "bookbuild.katex_math.on_config",
               "bookbuild.search.on_config", "bookbuild.csp.on_config"],
    "files": ["Plugin.on_files", "bookbuild.figures.on_files", "bookbuild.vendor.on_files", "bookbuild.widgets.on_files",
              "bookbuild.playground.on_files"],
    "nav": ["MacrosPlugin.on_nav", "PrintSitePlugin.on_nav", "bookbuild.nav_titles.on_nav", "bookbuild.offline_pdf.on_nav"],
    "env": ["bookbuild.templates.on_env", "bookbuild.nav_titles.on_env"],
    "page_markdown": ["MacrosPlugin.on_page_markdown", "bookbuild.playground.on_page_markdown",
                      "bookbuild.listings.on_page_markdown", "bookbuild.slides.on_page_markdown"],
    "page_content": ["PrintSitePlugin.on_page_content", "bookbuild.i18n.on_page_content", "bookbuild.labs.on_page_content",
                     "bookbuild.glossary.on_page_content", "bookbuild.katex_math.on_page_content",
                     "bookbuild.print_only.on_page_content", "bookbuild.a11y.on_page_content",
                     "bookbuild.slides.on_page_content",
                     "bookbuild.offline_pdf.on_page_content", "bookbuild.search.on_page_content"],
    "page_context": ["SearchPlugin.on_page_context", "PrintSitePlugin.on_page_context", "bookbuild.search.on_page_context"],
    "post_page": ["Plugin.on_post_page", "bookbuild.course.on_post_page", "bookbuild.labs.on_post_page", "bookbuild.a11y.on_post_page",
                  "bookbuild.trim_and_minify.on_post_page", "bookbuild.csp.on_post_page"],
    "post_template": ["bookbuild.a11y.on_post_template", "bookbuild.trim_and_minify.on_post_template"],
    "post_build": ["SearchPlugin.on_post_build", "Plugin.on_post_build", "MacrosPlugin.on_post_build",
                   "PrintSitePlugin.on_post_build", "bookbuild.offline_pdf.on_post_build", "bookbuild.labs.on_post_build",
                   "bookbuild.katex_math.on_post_build",
                   "bookbuild.search.on_post_build", "bookbuild.trim_and_minify.on_post_build", "bookbuild.csp.on_post_build"],
}
# the only handlers with a priority of their own (mkdocs.yml, the comment above `hooks:`)
PRIORITIES = {"bookbuild.offline_pdf.on_page_content": -100, "bookbuild.search.on_page_content": -200,
              "bookbuild.csp.on_post_build": -100}


def test_hooks_run_in_the_order_mkdocs_yml_gives():
    """Each event's handlers, in the order MkDocs runs them, in both configs: the hooks list in
    mkdocs.yml and the priorities written above it, nothing else."""
    from mkdocs.config import load_config

    def name(method):
        module = getattr(method, "__module__", "?")
        return f"{module}.{method.__qualname__}" if module.startswith("bookbuild.") else method.__qualname__

    for path in (ROOT / "mkdocs.yml", ROOT / "mkdocs.en.yml"):
        events = load_config(config_file=str(path)).plugins.events
        hooks = {event: [name(m) for m in methods] for event, methods in events.items()
                 if any(name(m).startswith("bookbuild.") for m in methods)}
        assert hooks == RUN_ORDER, path.name
        priorities = {name(m): m.mkdocs_priority for methods in events.values() for m in methods
                      if name(m).startswith("bookbuild.") and getattr(m, "mkdocs_priority", 0)}
        assert priorities == PRIORITIES, path.name


def test_nav_titles_come_from_the_index_pages_and_one_table():
    """One nav (mkdocs.yml) for both languages: each section's title is its index page's H1, the
    home page's from nav_titles.TITLES; a section that does not begin with its index page fails."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File
    from mkdocs.structure.nav import Section
    from mkdocs.structure.pages import Page

    nav_titles = import_module("bookbuild.nav_titles")
    assert not any(line.startswith("nav:") for line in (ROOT / "mkdocs.en.yml").read_text(encoding="utf-8").splitlines())
    config = {"site_url": None, "repo_url": None, "edit_uri": None}
    pages = [Page(None, File(uri, "docs/zh", "site", True), config) for uri in ("ch3/index.md", "ch3/qkv.md")]
    assert nav_titles.index_page(Section("ch3", pages)) is pages[0]
    with pytest.raises(PluginError, match=r"section 'ch3' in mkdocs.yml must begin with its index page .*not ch3/qkv.md"):
        nav_titles.index_page(Section("ch3", pages[1:]))


def test_the_hooks_file_registers_every_event_handler_of_bookbuild():
    """bookbuild/hooks.py names the handlers MkDocs runs; a handler defined in bookbuild/ but not
    named there would never run (a11y's on_post_template, which names the 404 page's landmarks,
    once did not)."""
    from mkdocs.plugins import EVENTS, CombinedEvent

    hooks = import_module("bookbuild.hooks")
    named = {(f.__module__, f.__name__) for event in vars(hooks).values() if isinstance(event, CombinedEvent)
             for f in event.methods}
    defined = {(f"bookbuild.{path.stem}", name) for path in sorted(BOOKBUILD.glob("*.py"))
               for name in re.findall(r"^def (on_\w+)", path.read_text(encoding="utf-8"), re.M) if name[3:] in EVENTS}
    assert defined == named, f"defined, not named: {sorted(defined - named)}; named, not defined: {sorted(named - defined)}"


def test_a_pages_macros_are_compiled_once_and_kept_under_their_source(tmp_path, monkeypatch):
    """templates.compiled (what macros.on_pre_page_macros renders a page with) gives what Jinja's
    from_string gives; a second build loads the code instead of compiling it; another source, or an
    environment whose options change the generated code, is another entry."""
    import jinja2

    from bookbuild import templates
    from bookbuild.bookcache import Store

    monkeypatch.setattr(templates, "_PAGES", Store("jinja-pages", ".marshal"))
    monkeypatch.setattr(templates._PAGES, "dir", tmp_path)
    env = jinja2.Environment()
    source = "{% for x in xs %}{{ x * 2 }} {% endfor %}{{ name }}"
    assert templates.compiled(env, source).render(xs=[1, 2], name="a") == env.from_string(source).render(xs=[1, 2], name="a")
    assert len(list(tmp_path.rglob("*.marshal"))) == 1
    monkeypatch.setattr(env, "compile", lambda *a, **k: pytest.fail("compiled again although the code is kept"))
    assert templates.compiled(env, source).render(xs=[3], name="b") == "6 b"
    monkeypatch.undo()
    monkeypatch.setattr(templates._PAGES, "dir", tmp_path)
    templates.compiled(env, source + " ")
    templates.compiled(jinja2.Environment(variable_start_string="[[", variable_end_string="]]"), source)
    templates.compiled(jinja2.Environment(trim_blocks=True), source)
    assert len(list(tmp_path.rglob("*.marshal"))) == 4



def test_a_page_whose_macros_fail_is_left_to_mkdocs_macros():
    """macros.on_pre_page_macros gives up on any error (and on a page that says ``render_macros``
    itself), leaving the page as it was, so mkdocs-macros renders it and reports the error its way."""
    import types

    import jinja2

    from bookbuild import macros

    def env_for(markdown, meta=None):
        page = types.SimpleNamespace(meta=dict(meta or {}), title="A title", file=types.SimpleNamespace(src_uri="p.md"))
        return types.SimpleNamespace(page=page, markdown=markdown, env=jinja2.Environment(), variables={"x": 2},
                                     has_j2=lambda text: "{{" in text)

    for markdown, meta in (("{{ x * }}", None), ("{{ no_such_name() }}", None), ("{{ x }}", {"render_macros": True})):
        env = env_for(markdown, meta)
        macros.on_pre_page_macros(env)
        assert env.markdown == markdown and env.page.meta == dict(meta or {}), (markdown, env.page.meta)
    env = env_for("{{ x + 1 }} {{ page_word }}", {"page_word": "w"})
    macros.on_pre_page_macros(env)
    assert env.markdown == "3 w" and env.page.meta["render_macros"] is False
