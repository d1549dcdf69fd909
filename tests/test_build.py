"""The build and the edit loop: caches keyed by their inputs, strict errors that name their source,
byte-identical builds, and `make serve` serving what a cold build writes.

The fast tests here need nothing built. The ``build`` and ``serve`` tests copy the repository
to a temporary folder and build (or serve) it there: minutes on a busy machine, so `make check`
leaves them out and `make test` runs them.
"""

from __future__ import annotations

import ast
import datetime as dt
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


def test_figure_key_follows_its_module_language_and_environment(tmp_path, monkeypatch):
    figures = import_module("bookbuild.figures")
    fake = tmp_path / "figures"
    fake.mkdir()
    for name in ("__init__.py", "_style.py", "ch3.py", "ch4.py"):
        (fake / name).write_text(f"# {name}\n")
    monkeypatch.setattr(figures, "FIGURE_DIR", fake)
    # the fake modules by their path under tmp_path, as bookcache.sources keys files under the repository
    monkeypatch.setattr(figures, "sources", lambda paths: bookcache.key(
        *[(p.relative_to(tmp_path).as_posix(), p.read_bytes()) for p in sorted(paths)]))
    k = figures.figure_key("ch3-x", "ch3.py", "zh")
    assert figures.figure_key("ch3-x", "ch3.py", "en") != k, "language"
    assert figures.figure_key("ch3-y", "ch3.py", "zh") != k, "figure id"
    (fake / "ch4.py").write_text("# another module changed\n")
    assert figures.figure_key("ch3-x", "ch3.py", "zh") == k, "an unrelated figure module changed the key"
    (fake / "ch3.py").write_text("from .ch4 import helper\n")
    k2 = figures.figure_key("ch3-x", "ch3.py", "zh")
    assert k2 != k, "its own module"
    (fake / "ch4.py").write_text("# imported module changed\n")
    assert figures.figure_key("ch3-x", "ch3.py", "zh") != k2, "a figure module it imports"
    (fake / "_style.py").write_text("# style changed\n")
    assert figures.figure_key("ch3-x", "ch3.py", "zh") != k2, "the shared style"


def test_notebooks_are_keyed_by_the_figure_modules_the_labs_can_run(tmp_path):
    exec_cache = import_module("bookbuild.exec_cache")
    for lang in ("zh", "en"):
        modules = exec_cache.lab_figure_modules(ROOT / "docs" / lang)
        assert modules is not None and {"__init__.py", "_style.py", "ch4.py"} <= modules, modules
        assert "ch3.py" not in modules, "a chapter 3 figure edit would re-execute the labs"
    lab = tmp_path / "ch1" / "lab-x.py"
    lab.parent.mkdir()
    for text, expected in [('render_svg("ch3-softmax-amplify", "zh")', "ch3.py"),
                           ("from attnkit.figures.ch9 import x", "ch9.py")]:
        lab.write_text(text + "\n", encoding="utf-8")
        assert expected in exec_cache.lab_figure_modules(tmp_path), text
    for text in ["render_svg(fig_id, 'zh')", 'render_svg("no-such-figure", "zh")', "from attnkit.figures import FIGURES",
                 "from attnkit import figures"]:
        lab.write_text(text + "\n", encoding="utf-8")
        assert exec_cache.lab_figure_modules(tmp_path) is None, f"{text}: should key by every figure module"


def test_lab_pages_do_not_depend_on_jupytexts_random_cell_ids():
    labs = import_module("bookbuild.labs")
    one = '<div class="jp-Cell" id="cell-id=ba183d06">a</div><div id="cell-id=e4d88532">b</div>'
    two = '<div class="jp-Cell" id="cell-id=989240eb">a</div><div id="cell-id=ebcfa9c6">b</div>'
    assert labs.fixed_cell_ids(one) == labs.fixed_cell_ids(two)
    assert labs.fixed_cell_ids(one).count("cell-id=cell-") == 2


def test_search_entries_are_keyed_by_the_page_and_the_search_settings():
    """The search plugin's settings (separator, lang, jieba_dict) decide how a page's text is
    split, so a change of mkdocs.yml's search section must miss the cache."""
    import types

    pagecache = import_module("bookbuild.pagecache")
    page = types.SimpleNamespace(meta={}, content="<p>小猫</p>", toc=[], url="ch3/", title="3.3")
    options = {"lang": ["zh"], "separator": r"[\s\-]+"}
    same = pagecache._search_key(page, dict(options))
    assert pagecache._search_key(page, dict(options)) == same
    assert pagecache._search_key(page, {**options, "separator": r"[\s]+"}) != same
    assert pagecache._search_key(types.SimpleNamespace(**{**vars(page), "content": "<p>小狗</p>"}), options) != same


def _fake_site(title_of_3_3="3.3 Softmax"):
    """A page, its nav and a config, shaped as MkDocs hands them to _build_page."""
    import types

    ns = types.SimpleNamespace
    theme = ns(name="material", dirs=["overrides"], static_templates={"404.html", "sitemap.xml"},
               items=lambda: {"language": "en", "features": ["navigation.instant"]}.items())
    config = ns(items=lambda: {"site_url": "http://127.0.0.1:8000/en/", "extra": {"build": {"commit": "abc"}},
                               "site_dir": "/tmp/anywhere"}.items(),
                theme=theme, plugins={"print-site": ns(config={"toc_title": "Contents"})})
    softmax = ns(title=title_of_3_3, url="ch3/softmax/", meta={}, children=None)
    index = ns(title="3 Q, K, V", url="ch3/", meta={}, children=None)
    section = ns(title="Chapter 3", url=None, meta=None, children=[index, softmax])
    nav = ns(items=[section], pages=[index, softmax])
    page = ns(file=ns(src_uri="ch3/index.md", dest_uri="ch3/index.html", url="ch3/"), title="3 Q, K, V",
              content="<p>q k v</p>", toc=[], meta={}, url="ch3/", previous_page=None, next_page=softmax,
              parent=section, active=True)
    section.parent = None
    return page, config, nav


def test_page_cache_key_covers_nav_titles_config_and_the_page_itself():
    """A cached page (template + post_page hooks) must miss when anything it shows changes:
    another page's title (the nav and prev/next), the config (site_url, config.extra, a plugin's
    settings), the page's content, toc or meta. The build's output folder does not count
    (tools/serve.py builds each version into a new one)."""
    pagecache = import_module("bookbuild.pagecache")
    page, config, nav = _fake_site()

    def page_key(page=page, config=config, nav=nav):
        return pagecache._page_key(page, config, nav, [page.file], "main.html", False)

    same = page_key()
    assert page_key() == same
    renamed_page, _, renamed_nav = _fake_site("3.3 Softmax, renamed")
    assert page_key(page=renamed_page, nav=renamed_nav) != same, "another page's title (nav, next) is not in the key"
    import types

    for change in ({"content": "<p>q k v!</p>"}, {"meta": {"template": "x"}}, {"title": "3 QKV"},
                   {"toc": [types.SimpleNamespace(id="a", url="#a", title="A", level=2, children=[])]}):
        assert page_key(page=types.SimpleNamespace(**{**vars(page), **change})) != same, change
    moved = types.SimpleNamespace(**{**vars(config), "items": lambda: {**dict(config.items()), "site_dir": "/tmp/else"}.items()})
    assert page_key(config=moved) == same, "the output folder must not be in the key (serve builds into new folders)"
    for change in ({"site_url": "http://example.org/en/"}, {"extra": {"build": {"commit": "abc"}, "alternate": []}}):
        other = types.SimpleNamespace(**{**vars(config), "items": lambda c=change: {**dict(config.items()), **c}.items()})
        assert page_key(config=other) != same, change
    # the print cover's commit id and date: only in the key if a page template reads config.extra.build
    other = types.SimpleNamespace(**{**vars(config), "items": lambda: {**dict(config.items()), "extra": {"build": {"commit": "def"}}}.items()})
    assert not pagecache._pages_read_build(str(ROOT))
    assert page_key(config=other) == same, "a new commit id must not empty the page cache"
    plugins = {"print-site": types.SimpleNamespace(config={"toc_title": "Table of contents"})}
    assert page_key(config=types.SimpleNamespace(**{**vars(config), "plugins": plugins})) != same


def test_page_cache_key_covers_overrides_hooks_and_config_files(tmp_path):
    """Every file of overrides/ (templates, the CSS trim_and_minify.py reads) and bookbuild/ (the hooks too), the configs."""
    pagecache = import_module("bookbuild.pagecache")
    for rel in ("mkdocs.yml", "mkdocs.en.yml", "pyproject.toml", "overrides/main.html",
                "overrides/partials/alternate.html", "overrides/assets/book.css", "bookbuild/trim_and_minify.py",
                "bookbuild/katex_render.js", "bookbuild/hooks/trim_and_minify.py", "bookbuild/listings.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("one", encoding="utf-8")
    pagecache._site_digest.cache_clear()
    before = pagecache._site_digest(str(tmp_path))
    for rel in ("mkdocs.en.yml", "overrides/partials/alternate.html", "overrides/assets/book.css",
                "bookbuild/katex_render.js", "bookbuild/hooks/trim_and_minify.py", "bookbuild/listings.py"):
        (tmp_path / rel).write_text("two", encoding="utf-8")
        pagecache._site_digest.cache_clear()
        after = pagecache._site_digest(str(tmp_path))
        assert after != before, f"{rel} is not in the page cache's key"
        before = after
    pagecache._pages_read_build.cache_clear()
    assert not pagecache._pages_read_build(str(tmp_path))
    (tmp_path / "overrides" / "print" / "cover.html").parent.mkdir()
    (tmp_path / "overrides" / "print" / "cover.html").write_text("{{ config.extra.build.commit }}", encoding="utf-8")
    pagecache._pages_read_build.cache_clear()
    assert not pagecache._pages_read_build(str(tmp_path)), "the print cover is not a page template"
    (tmp_path / "overrides" / "partials" / "alternate.html").write_text("{{ config.extra.build.date }}", encoding="utf-8")
    pagecache._pages_read_build.cache_clear()
    assert pagecache._pages_read_build(str(tmp_path)), "a page template that shows the build must key on it"


def test_converted_page_key_covers_attnkit_snippets_tools_glossary_and_the_page(tmp_path, monkeypatch):
    """The Markdown->HTML cache (pagecache._populate_page): an edit of an attnkit function a macro
    calls, of a listing the page includes (every listing when it includes files another way), of
    attnkit/figures/ when the page names figures, of docs/glossary.yml or of KaTeX's version
    must miss (the listing filter is bookbuild/listings.py, in the site digest); so must the page's own bytes and
    markdown-exec's counters at its start."""
    import types

    pagecache = import_module("bookbuild.pagecache")
    cache_module = import_module("bookbuild.bookcache")
    for rel in ("attnkit/__init__.py", "attnkit/core.py", "snippets/ch3/cake.py",
                "docs/glossary.yml", "package-lock.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("one\n", encoding="utf-8")
    monkeypatch.setattr(cache_module, "ROOT", tmp_path)
    monkeypatch.setattr(cache_module, "ATTNKIT", tmp_path / "attnkit")
    monkeypatch.setattr(pagecache, "ROOT", tmp_path)
    monkeypatch.setattr(cache_module, "_LISTED", {})   # attnkit's file list under tmp_path, for this test only

    def inputs():
        pagecache._book_inputs.cache_clear()
        return pagecache._book_inputs()

    before = inputs()
    assert inputs() == before
    for rel in ("docs/glossary.yml", "package-lock.json"):
        (tmp_path / rel).write_text("two\n", encoding="utf-8")
        after = inputs()
        assert after != before, f"{rel} is not in the converted page's key"
        before = after
    # per page: the listings it includes and attnkit (attnkit/figures/ when it names figures)
    for rel in ("snippets/ch3/other.py", "attnkit/figures/ch3.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("one\n", encoding="utf-8")
    cache_module._LISTED.clear()
    page = b'![w](../figures/ch3-softmax-amplify.svg)\n```python exec="on"\n--8<-- "ch3/cake.py"\n```\n'
    uses_figures = page + b"{{ attnkit.figures }}"
    blocks = b"--8<--\nch3/cake.py\n--8<--\n"
    keys = {name: pagecache._page_inputs(src) for name, src in (("page", page), ("figures", uses_figures), ("blocks", blocks))}
    edits = {"snippets/ch3/cake.py": {"page", "figures", "blocks"}, "snippets/ch3/other.py": {"blocks"},
             "attnkit/core.py": {"page", "figures", "blocks"}, "attnkit/figures/ch3.py": {"figures"}}
    for rel, changes in edits.items():
        (tmp_path / rel).write_text((tmp_path / rel).read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
        cache_module._LISTED.clear()
        now = {name: pagecache._page_inputs(src) for name, src in (("page", page), ("figures", uses_figures), ("blocks", blocks))}
        changed = {name for name in now if now[name] != keys[name]}
        assert changed == changes, f"after editing {rel}: the keys of {sorted(changed)} changed, expected {sorted(changes)}"
        keys = now
    monkeypatch.setattr(pagecache, "_config_part", lambda config: "config")
    monkeypatch.setattr(pagecache, "_counters", lambda: [0, []])
    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="ch3/softmax.md", dest_uri="ch3/softmax/index.html"),
                                 url="ch3/softmax/")
    files = [types.SimpleNamespace(src_uri="ch3/softmax.md", dest_uri="ch3/softmax/index.html", url="ch3/softmax/")]
    pagecache._per_build.clear()
    same = pagecache._converted_key(page, None, files, b"# 3.3 Softmax")
    assert pagecache._converted_key(page, None, files, b"# 3.3 Softmax!") != same
    monkeypatch.setattr(pagecache, "_counters", lambda: [1, []])
    assert pagecache._converted_key(page, None, files, b"# 3.3 Softmax") != same, "markdown-exec's counters"


def test_converted_page_key_covers_the_exercises_where_a_page_names_them(tmp_path, monkeypatch):
    """A page that names ``exercise`` (``exercise("id")``, ``exercise_progress("chN")``) is converted
    again when an exercise file, bookbuild/listings.py's filter, or where a page embeds an exercise
    changes (the chapter's index lists them in reading order, with links); a sentence edit that
    moves no exercise keeps every key, and a page that does not name them never reads them."""
    import shutil

    pages = import_module("bookbuild.exercise_pages")
    cache_module = import_module("bookbuild.bookcache")
    pagecache = import_module("bookbuild.pagecache")
    shutil.copytree(ROOT / "exercises" / "ch3", tmp_path / "exercises" / "ch3")
    for rel in ("bookbuild/exercise_pages.py", "bookbuild/listings.py", "mkdocs.yml"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    docs = tmp_path / "docs" / "zh" / "ch3"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text('# 3\n{{ exercise_progress("ch3") }}\n', encoding="utf-8")
    (docs / "softmax.md").write_text('# 3.3\n一句话。\n{{ exercise("ch3-softmax") }}\n', encoding="utf-8")
    (docs / "pipeline.md").write_text('# 3.5\n{{ exercise("ch3-attention") }}\n', encoding="utf-8")
    monkeypatch.setattr(cache_module, "ROOT", tmp_path)
    monkeypatch.setattr(pages, "ROOT", tmp_path)
    monkeypatch.setattr(pages, "EXERCISES", tmp_path / "exercises")
    monkeypatch.setattr(pages, "DOCS", tmp_path / "docs")

    def key(source: bytes):
        pages.load_all.cache_clear()
        pagecache._per_build.clear()
        return pagecache._exercise_inputs(source, types.SimpleNamespace(theme={"language": "zh"}))

    index = b'{{ exercise_progress("ch3") }}'
    try:
        before = key(index)
        assert key(b"# 3.3 Softmax") == [], "a page that names no exercise does not read them"
        (docs / "softmax.md").write_text('# 3.3\n两句话。\n{{ exercise("ch3-softmax") }}\n', encoding="utf-8")
        assert key(index) == before, "a sentence edit that moves no exercise keeps the index page's key"
        edits = [lambda: (docs / "pipeline.md").write_text('# 3.5\n', encoding="utf-8"),        # embedded nowhere
                 lambda: (docs / "softmax.md").write_text('{{ exercise("ch3-attention") }}\n{{ exercise("ch3-softmax") }}',
                                                         encoding="utf-8"),                    # another page, order
                 lambda: (tmp_path / "exercises/ch3/softmax.py").write_text(
                     (tmp_path / "exercises/ch3/softmax.py").read_text(encoding="utf-8") + "# edited\n", encoding="utf-8"),
                 lambda: (tmp_path / "bookbuild/listings.py").write_text("# another filter\n", encoding="utf-8")]
        for number, edit in enumerate(edits):
            edit()
            after = key(index)
            assert after != before, f"edit {number} kept the exercise pages' key"
            before = after
    finally:
        pages.load_all.cache_clear()
        pagecache._per_build.clear()
    # and the converted page's key holds them
    monkeypatch.setattr(pagecache, "_config_part", lambda config: "config")
    monkeypatch.setattr(pagecache, "_counters", lambda: [0, []])
    monkeypatch.setattr(pagecache, "_page_inputs", lambda source: "inputs")
    config = types.SimpleNamespace(theme={"language": "zh"})
    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="ch3/index.md", dest_uri="ch3/index.html"), url="ch3/")
    monkeypatch.setattr(pagecache, "_exercise_inputs", lambda source, config: ["one"])
    pagecache._per_build.clear()
    same = pagecache._converted_key(page, config, [], index)
    monkeypatch.setattr(pagecache, "_exercise_inputs", lambda source, config: ["two"])
    assert pagecache._converted_key(page, config, [], index) != same
    pagecache._per_build.clear()


def test_a_cached_listing_is_numbered_as_a_run_one(tmp_path, monkeypatch):
    """markdown-exec numbers the blocks it runs, and the numbers at a page's start are in the
    converted-page key of every later page (pagecache._counters): a listing served from the
    listing cache takes its number as a run does, so a listing edit re-converts its own page,
    not every page after it, and a warm build numbers the blocks as a cold one."""
    from markdown_exec._internal.formatters import python

    exec_cache = import_module("bookbuild.exec_cache")
    store = import_module("bookbuild.bookcache").Store("listings", ".txt")
    store.dir = tmp_path
    monkeypatch.setattr(exec_cache, "LISTINGS", store)
    for name in ("index", "hits", "runs"):
        monkeypatch.setitem(exec_cache._state, name, 0)
    run = exec_cache._cached_run(import_module("bookbuild.patches").installed(exec_cache.RUN_PYTHON))
    taken = []
    for _ in range(2):
        before = python._sessions_counter[None]
        assert run("print(6 * 7)") == "42\n"
        taken.append(python._sessions_counter[None] - before)
    assert (exec_cache._state["runs"], exec_cache._state["hits"]) == (1, 1)
    assert taken == [1, 1], "a cached listing must take a block number as a run one does"


def test_patched_internals_are_the_code_they_were_written_from():
    """pagecache wraps MkDocs' _build_page and _populate_page, Theme.get_env and Material's search,
    exec_cache markdown-exec's _run_python, and print_site_fix replaces print-site's
    update_anchor_ids: each only for the source it was written from (bookbuild/patches.py). A new
    MkDocs, Material, markdown-exec or print-site must be checked first (until then the caches
    are off, never wrong): this fails when an installed package changed one of them."""
    patches = import_module("bookbuild.patches")
    changed = [target for target in patches.PATCHED if not patches.known(target)]
    assert not changed, (f"{changed} changed: compare each with its wrapper (bookbuild/patches.py names the file), "
                         "then add its digest to PATCHED")


def test_a_patch_of_unknown_code_is_left_out(monkeypatch):
    """The tripwire itself: a function whose source is not the recorded one is not wrapped."""
    patches = import_module("bookbuild.patches")
    module = types.ModuleType("patched_here")

    def f():
        return "own"

    module.f = f
    monkeypatch.setitem(sys.modules, "patched_here", module)
    monkeypatch.setitem(patches.PATCHED, "patched_here:f", {"0000000000000000"})
    assert not patches.patch("patched_here:f", lambda original: lambda: "wrapped") and module.f() == "own"
    monkeypatch.setitem(patches.PATCHED, "patched_here:f", {patches.source_digest(f)})
    assert patches.patch("patched_here:f", lambda original: lambda: "wrapped") and module.f() == "wrapped"
    assert patches.installed("patched_here:f") is f and patches.patch("patched_here:f", None), "wrapped once"


def test_page_handlers_unknown_to_the_page_cache_fail_the_build():
    """Every page-event handler of both configs is in KNOWN_PAGE_HANDLERS, and one that is not
    fails the build with a message that says what to do (it used to switch the cache off)."""
    import types

    from mkdocs.config import load_config
    from mkdocs.exceptions import PluginError

    pagecache = import_module("bookbuild.pagecache")
    for lang, path in (("zh", ROOT / "mkdocs.yml"), ("en", ROOT / "mkdocs.en.yml")):
        config = load_config(config_file=str(path))
        assert pagecache._unknown_page_handlers(config) == [], lang
        pagecache.check_page_handlers(config)

    def on_page_content(html, page, config, files):
        return html

    on_page_content.__module__ = "bookbuild.newhook"
    events = {event: [] for event in pagecache.KNOWN_PAGE_HANDLERS}
    events["page_content"].append(on_page_content)
    fake = types.SimpleNamespace(plugins=types.SimpleNamespace(events=events))
    with pytest.raises(PluginError, match=r"page_content: bookbuild\.newhook.*KNOWN_PAGE_HANDLERS in bookbuild/pagecache\.py"):
        pagecache.check_page_handlers(fake)


MUTATORS = {"append", "extend", "add", "update", "setdefault", "insert", "pop", "clear", "remove", "discard"}


def test_post_page_hooks_the_page_cache_skips_record_nothing():
    """pagecache serves an unchanged page from its cache without running the PURE_POST_PAGE hooks'
    on_post_page: one that also records something (trim_and_minify.py once listed the pages it later pointed
    at the trimmed stylesheet, so a warm build kept Material's full one) loses it on a hit."""
    pagecache = import_module("bookbuild.pagecache")
    for module in sorted(pagecache.PURE_POST_PAGE):
        rel = Path(import_module(module).__file__).relative_to(ROOT).as_posix()
        tree = ast.parse((ROOT / rel).read_bytes())
        module_names = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
        hooks = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "on_post_page"]
        assert hooks, f"{rel} is in PURE_POST_PAGE but has no on_post_page"
        for node in ast.walk(hooks[0]):
            assert not isinstance(node, (ast.Global, ast.Nonlocal)), f"{rel}: on_post_page declares a global"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                assert not (node.func.value.id in module_names and node.func.attr in MUTATORS), (
                    f"{rel}: on_post_page changes the module's {node.func.value.id} (.{node.func.attr}): record it in another "
                    "event (on_files, on_page_markdown), or take the module out of pagecache.PURE_POST_PAGE")
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                        assert target.value.id not in module_names, f"{rel}: on_post_page writes into {target.value.id}"


def test_converted_pages_are_only_those_whose_template_code_is_pure():
    """glossary() and concept_table() read other pages' headings: not cached. Nor lab notebooks,
    ``session=`` listings, or a page that includes another file."""
    import types

    pagecache = import_module("bookbuild.pagecache")
    md = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="ch3/softmax.md"))
    lab = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="ch4/lab-heads.py"))
    assert pagecache._cacheable(md, "{{ pct(softmax([5, 2, 0])[0]) }} {% set w = attnkit.rnn %}{{ num(w.x) }}".encode())
    assert pagecache._cacheable(md, b'{{ exercise("ch3-softmax") }} {{ exercise_progress("ch3") }}')   # their inputs are keyed
    assert not pagecache._cacheable(md, b"{{ glossary() }}")
    assert not pagecache._cacheable(md, b"{{ concept_table() }}")
    assert not pagecache._cacheable(md, b"{{ page.next_page.title }}")      # the nav is not in the key
    assert not pagecache._cacheable(md, b"{{ config.site_name }}")
    assert not pagecache._cacheable(md, b'{% include "other.md" %}')
    assert not pagecache._cacheable(md, b'```python exec="on" session="a"\nx = 1\n```')
    assert not pagecache._cacheable(lab, b"# %%")
    assert not pagecache._cacheable(md, b'```bash exec="on"\nls docs\n```')
    assert not pagecache._cacheable(md, b'  ~~~console exec="1"\n$ cat x\n~~~')
    assert pagecache._cacheable(md, b'```python exec="on" result="text"\nprint(1)\n```\n```bash\nmake serve\n```')
    # every macro macros.py defines is classified: pure (PURE_MACROS) or reads more than the key holds
    source = "".join((BOOKBUILD / name).read_text(encoding="utf-8") for name in ("macros.py", "glossary.py", "exercise_pages.py"))
    defined = set(re.findall(r"@env\.macro\s+def (\w+)", source)) | set(re.findall(r"env\.macro\((\w+)\)", source))
    defined |= set(re.findall(r'env\.variables\["(\w+)"\]', source))
    unclassified = defined - pagecache.PURE_MACROS - {"glossary", "concept_table"}
    assert not unclassified, (f"macros {sorted(unclassified)}: add them to PURE_MACROS in bookbuild/pagecache.py if "
                              "their result depends only on attnkit, snippets/, the glossary and the page's own source")


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
    text = (BOOKBUILD / "bookcache.py").read_text(encoding="utf-8")
    body = text[text.index("def environment"):text.index("class Store")]
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
                   "bookbuild/hooks/figures.py"):
        assert serve_tool.langs_for(ROOT / shared) == {"zh", "en"}, shared
    for beside in ("serve.log", "notes.txt", ".mkdocs.yml.swp"):   # beside the configs, not a source
        assert serve_tool.langs_for(ROOT / beside) == set(), beside
    watched = {Path(p).parts[0] for p in serve_tool.WATCHED}
    assert {"docs", "attnkit", "bookbuild", "snippets", "overrides", "mkdocs.yml", "mkdocs.en.yml"} <= watched


def test_serve_goes_on_with_a_prepared_build_only_after_page_and_listing_edits():
    """A prepared build has loaded the config and run on_config (hooks, attnkit, the glossary,
    the labs' sources read): only an edit of a Markdown page of its language or of a listing
    leaves that valid."""
    after = serve_tool.read_after_on_config
    assert after(ROOT / "docs" / "zh" / "ch3" / "softmax.md", "zh")
    assert after(ROOT / "docs" / "en" / "ch3" / "new-page.md", "en")          # a new page: files are listed later
    assert after(ROOT / "snippets" / "ch3" / "qkv.py", "zh") and after(ROOT / "snippets" / "ch3" / "qkv.py", "en")
    assert not after(ROOT / "docs" / "en" / "ch3" / "softmax.md", "zh")
    for other in ("docs/zh/ch4/lab-heads.py", "docs/glossary.yml", "bookbuild/macros.py", "mkdocs.yml", "mkdocs.en.yml",
                  "attnkit/core.py", "overrides/main.html", "tools/listings.py", "docs/zh/.pages", "exercises/ch3/softmax.py"):
        assert not after(ROOT / other, "zh") and not after(ROOT / other, "en"), other
    assert not after(Path("/tmp/elsewhere.md"), "zh")


PREPARE_AND_LIST_READS = """
import os, sys
sys.path[:0] = [sys.argv[1] + "/tools", sys.argv[1]]
import build
seen = set()
def hook(event, args):
    if event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        seen.add(os.path.abspath(os.fsdecode(args[0])))
sys.addaudithook(hook)
config = build._load(sys.argv[2], sys.argv[3])
config = config.plugins.on_config(config)
config.plugins.on_shutdown()
print("\\n".join(sorted(seen)))
"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_preparation_reads_no_page_and_no_listing(lang, tmp_path):
    """What serve's shortcut rests on (tools/serve.py: read_after_on_config): loading the config
    and running on_config, as tools/build.py's build_when_told does, opens no Markdown page and
    nothing of snippets/ (it lists docs/ and reads the labs, which is allowed)."""
    result = subprocess.run([sys.executable, "-c", PREPARE_AND_LIST_READS, str(ROOT), lang, str(tmp_path / "site")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert result.returncode == 0, result.stderr[-3000:]
    read = [Path(line) for line in result.stdout.splitlines()]
    assert any(ROOT / "attnkit" in p.parents for p in read), "the audit hook saw nothing: the test tests nothing"
    wrong = [p for p in read if ROOT / "snippets" in p.parents or p == ROOT / "snippets"
             or ROOT / "docs" in p.parents and p.suffix == ".md"]
    assert not wrong, f"a preparation read {wrong}: serve must not go on with one after an edit of those"


class _StubBuilder:
    """What the serve handler needs of a Builder: a current site (or none, after a failure)."""

    def __init__(self, current, failed=False):
        self.current, self.failed, self.version = current, failed, 1 if current else 0

    def wait_first(self, timeout):
        pass

    def wait_built(self, version, timeout):
        return False


def _serve_stub(builders, pyodide):
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), serve_tool.make_handler(builders, pyodide))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_serve_lang_en_alone_serves_the_pyodide_files_and_a_failed_first_build_says_so(tmp_path):
    site = tmp_path / "en"
    site.mkdir()
    (site / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    wasm = tmp_path / "pyodide.asm.wasm"
    wasm.write_bytes(b"\0asm-bytes")
    server, base = _serve_stub({"en": _StubBuilder(site)}, {"pyodide.asm.wasm": wasm})
    try:
        with urllib.request.urlopen(f"{base}/assets/pyodide/pyodide.asm.wasm", timeout=10) as r:
            assert r.read() == b"\0asm-bytes" and r.headers["Content-Type"] == "application/wasm"
        with urllib.request.urlopen(f"{base}/assets/book.css", timeout=10) as r:   # other zh paths: to /en/
            assert r.url.endswith("/en/") and b"home" in r.read()
    finally:
        server.shutdown()
    server, base = _serve_stub({"zh": _StubBuilder(None, failed=True)}, {})
    try:
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(f"{base}/ch3/softmax/", timeout=10)
        assert error.value.code == 503 and b"build failed" in error.value.read()
    finally:
        server.shutdown()


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
def test_a_second_build_writes_the_same_bytes_as_the_site(tmp_path):
    """Build again from the same sources into a temporary folder and compare every file with
    site/. In CI site/ is a cold build (a clean clone has no caches) and this one is warm, so the
    test also proves that the caches hold exactly what a fresh computation gives. The PDFs are
    not compared: their cover carries the build date unless SOURCE_DATE_EPOCH is set."""
    site = ROOT / "site"
    assert (site / "index.html").is_file() and (site / "en" / "index.html").is_file(), "run `make build` first"
    # Two files carry the day of the build: the sitemaps' <lastmod> (MkDocs) and the print page's
    # cover (offline_pdf.py). The rebuild is made as of site/'s day (SOURCE_DATE_EPOCH, which both
    # honour), so a run that crosses midnight UTC compares like with like (CI once did).
    day = re.search(r"<lastmod>(\d{4}-\d{2}-\d{2})</lastmod>", (site / "sitemap.xml").read_text(encoding="utf-8"))[1]
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


@pytest.mark.serve
def test_serve_shows_a_figure_and_a_listing_edit_exactly_as_a_cold_build(tmp_path):
    """Edit a figure function, a listing, a page title, docs/glossary.yml and a page template under
    `make serve`, then compare every file the server serves with a cold build (no caches) of the
    edited sources, byte for byte. The caches copied from this repository hold every page as
    it was: a key that misses one of these inputs serves a stale page and fails here."""
    repo = copy_repo(tmp_path / "repo", caches=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    log = open(tmp_path / "serve.log", "w")
    server = subprocess.Popen([sys.executable, "tools/serve.py", "--lang", "zh", "--port", str(port)],
                              cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        figure_url, page_url = f"{base}/figures/ch3-softmax-amplify.svg", f"{base}/ch3/softmax/"
        before_svg, _ = poll(figure_url, lambda body: body.startswith(b"<?xml"))
        # edit a figure function (its zh label) and a listing (one more line of output)
        figures = repo / "attnkit" / "figures" / "ch3.py"
        figures.write_text(figures.read_text(encoding="utf-8").replace('"① 原始得分"', '"① 原始的得分"'), encoding="utf-8")
        snippet = repo / "snippets" / "ch3" / "softmax_cake.py"
        snippet.write_text(snippet.read_text(encoding="utf-8") + 'print("edited while serving")\n', encoding="utf-8")
        # and what every other page shows (the page cache must miss): a page title (the nav of
        # every page), a glossary definition (tooltips, the glossary page), a page template
        scaling = repo / "docs" / "zh" / "ch3" / "scaling.md"
        scaling.write_text(scaling.read_text(encoding="utf-8").replace("# 3.4 第二步：除以 √d_k\n", "# 3.4 第二步：除以 √d_k（改名）\n", 1),
                           encoding="utf-8")
        glossary = repo / "docs" / "glossary.yml"
        glossary.write_text(glossary.read_text(encoding="utf-8").replace("每读一个词就更新一次隐藏状态", "每读一个词就改写一次隐藏状态", 1),
                            encoding="utf-8")
        template = repo / "overrides" / "main.html"
        template.write_text(template.read_text(encoding="utf-8").replace("{{ super() }}", "{{ super() }}<!-- template edited while serving -->", 1),
                            encoding="utf-8")
        served_svg, _ = poll(figure_url, lambda body: body != before_svg)
        served_page, _ = poll(page_url, lambda body: b"edited while serving" in body)
        for url, text in ((f"{base}/ch0/", "除以 √d_k（改名）"), (f"{base}/ch0/", "template edited while serving"),
                          (f"{base}/glossary/", "每读一个词就改写一次隐藏状态")):
            poll(url, lambda body, t=text.encode(): t in body)
        # then a sentence of a page alone: the build that shows it goes on from a prepared config
        # (tools/serve.py, Builder); the builds after the edits above may not (they read other files)
        page = repo / "docs" / "zh" / "ch3" / "softmax.md"
        page.write_text(page.read_text(encoding="utf-8") + "\n这句话是服务期间写的。\n", encoding="utf-8")
        poll(page_url, lambda body: "这句话是服务期间写的".encode() in body)
        # two saves half a second apart: the first one's build is stopped for the second's
        # (from the preparation made while it ran), and the page shows both
        time.sleep(1)
        page.write_text(page.read_text(encoding="utf-8") + "\n又写了一句。\n", encoding="utf-8")
        time.sleep(0.5)
        page.write_text(page.read_text(encoding="utf-8") + "\n再写一句。\n", encoding="utf-8")
        poll(page_url, lambda body: "再写一句".encode() in body and "又写了一句".encode() in body)
        served_svg = fetch(figure_url)        # the page and the figure of one build
        served_page = fetch(page_url)
        cold = run_build(repo, "--lang", "zh", "-d", str(tmp_path / "cold"),
                         env_extra={"BOOK_CACHE": str(tmp_path / "empty-cache"), "SITE_URL": f"{base}/"})
        assert cold.returncode == 0, (cold.stdout + cold.stderr)[-3000:]
        # every file of the cold build, as the server serves it now (reload script removed)
        served_tree = {}
        for rel in tree(tmp_path / "cold"):
            body = fetch(f"{base}/{rel}")
            served_tree[rel] = SCRIPT.sub(b"", body) if rel.endswith(".html") else body
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    cold_tree = tree(tmp_path / "cold")
    differ = [rel for rel in cold_tree
              if without_measurements(rel, served_tree.get(rel, b"")) != without_measurements(rel, cold_tree[rel])]
    assert not differ, f"served files that differ from a cold build after the edits: {differ[:20]}"
    built = [line for line in (tmp_path / "serve.log").read_text(encoding="utf-8").splitlines() if ": built in " in line]
    assert "prepared" not in built[1], built        # after the figure, listing, glossary, template edits: afresh
    assert "config prepared before the edit" in built[-1], built   # after the page edit alone
    assert "zh: build stopped after" in (tmp_path / "serve.log").read_text(encoding="utf-8"), built   # the two saves
    cold_svg = (tmp_path / "cold" / "figures" / "ch3-softmax-amplify.svg").read_bytes()
    cold_page = (tmp_path / "cold" / "ch3" / "softmax" / "index.html").read_bytes()
    assert served_svg == cold_svg, "the served figure is not what a cold build draws (stale figure code?)"
    assert served_svg != before_svg
    assert SCRIPT.sub(b"", served_page) == cold_page, "the served page is not what a cold build writes"


def test_contributing_lists_every_cache_the_hooks_keep():
    """A contributor reads CONTRIBUTING.md's table to know what a cache holds and what
    invalidates it: every Store("name") of bookbuild/ has its row there."""
    names = {m for path in BOOKBUILD.glob("*.py") for m in re.findall(r'Store\("([\w-]+)"', path.read_text(encoding="utf-8"))}
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
    "config": ["SearchPlugin.on_config", "MarkdownExecPlugin.on_config", "MacrosPlugin.on_config",
               "PrintSitePlugin.on_config", "bookbuild.exec_cache.on_config", "bookbuild.pagecache.on_config",
               "bookbuild.i18n.on_config", "bookbuild.playground.on_config", "bookbuild.offline_pdf.on_config",
               "bookbuild.katex_math.on_config", "bookbuild.trim_and_minify.on_config", "bookbuild.csp.on_config"],
    "files": ["Plugin.on_files", "bookbuild.figures.on_files", "bookbuild.vendor.on_files", "bookbuild.widgets.on_files",
              "bookbuild.playground.on_files", "bookbuild.trim_and_minify.on_files"],
    "nav": ["MacrosPlugin.on_nav", "PrintSitePlugin.on_nav", "bookbuild.nav_titles.on_nav", "bookbuild.offline_pdf.on_nav"],
    "env": ["MarkdownExecPlugin.on_env", "bookbuild.nav_titles.on_env"],
    "page_markdown": ["bookbuild.exec_cache.on_page_markdown", "MacrosPlugin.on_page_markdown",
                      "bookbuild.playground.on_page_markdown", "bookbuild.listings.on_page_markdown"],
    "page_content": ["PrintSitePlugin.on_page_content", "bookbuild.cjk_lines.on_page_content", "bookbuild.labs.on_page_content",
                     "bookbuild.glossary.on_page_content", "bookbuild.katex_math.on_page_content",
                     "bookbuild.print_only.on_page_content", "bookbuild.a11y.on_page_content",
                     "bookbuild.layout_hints.on_page_content", "bookbuild.offline_pdf.on_page_content"],
    "post_page": ["Plugin.on_post_page", "bookbuild.labs.on_post_page", "bookbuild.a11y.on_post_page",
                  "bookbuild.trim_and_minify.on_post_page", "bookbuild.csp.on_post_page"],
    "post_template": ["bookbuild.a11y.on_post_template", "bookbuild.trim_and_minify.on_post_template",
                      "bookbuild.csp.on_post_template"],
    "post_build": ["SearchPlugin.on_post_build", "MarkdownExecPlugin.on_post_build", "Plugin.on_post_build",
                   "MacrosPlugin.on_post_build", "PrintSitePlugin.on_post_build", "bookbuild.exec_cache.on_post_build",
                   "bookbuild.pagecache.on_post_build", "bookbuild.labs.on_post_build", "bookbuild.katex_math.on_post_build",
                   "bookbuild.search.on_post_build", "bookbuild.trim_and_minify.on_post_build", "bookbuild.figures.on_post_build",
                   "bookbuild.csp.on_post_build"],
    "build_error": ["bookbuild.figures.on_build_error"],
}
# the only handlers with a priority of their own (mkdocs.yml, the comment above `hooks:`)
PRIORITIES = {"bookbuild.exec_cache.on_page_markdown": 100, "bookbuild.offline_pdf.on_page_content": -100,
              "bookbuild.figures.on_post_build": -100, "bookbuild.csp.on_post_build": -100}


def test_hooks_run_in_the_order_mkdocs_yml_gives():
    """Each event's handlers, in the order MkDocs runs them, in both configs: the hooks list in
    mkdocs.yml and the four priorities written above it, nothing else."""
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


def test_each_thin_hook_registers_every_event_handler_of_its_module():
    """bookbuild/hooks/<name>.py names the handlers MkDocs runs; a handler added to
    bookbuild/<name>.py but not named there would never run (a11y's on_post_template, which names
    the 404 page's landmarks, once did not)."""
    problems = []
    for hook in sorted((ROOT / "bookbuild" / "hooks").glob("*.py")):
        module = import_module(f"bookbuild.{hook.stem}")
        thin = import_module(f"bookbuild.hooks.{hook.stem}")
        defined = {n for n, v in vars(module).items() if n.startswith("on_") and callable(v)
                   and getattr(v, "__module__", None) == module.__name__}
        named = {n for n in vars(thin) if n.startswith("on_")}
        if defined != named:
            problems.append(f"bookbuild/hooks/{hook.name}: module defines {sorted(defined)}, hook names {sorted(named)}")
    assert not problems, "\n".join(problems)
