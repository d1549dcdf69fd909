"""Per-page work that MkDocs repeats on every build, cached by content (bookbuild/bookcache.py).

A one-sentence edit changes one page; a rebuild should not redo, for the 50 pages that did not
change, the work whose result is a pure function of a page's HTML. These pieces dominate a
warm one-language build (profiled with cProfile, December 2026):

* **Search entries.** Material's search plugin parses every page's final HTML with an
  ``HTMLParser`` and segments its Chinese text with jieba (which first loads a 2-second
  dictionary, in the English book too: a few English pages show Chinese). About a quarter of a
  warm build. The entries of a page are cached in ``.cache/search/`` under: the page's HTML, its
  table of contents (ids, urls, titles), url, title and front matter, the search plugin's configuration and source
  and Material's and jieba's versions. The cached entries are the exact dicts the plugin would
  have appended, in the same order, so ``search_index.json`` is byte-for-byte the same.
  Measured without it (same bench): a sentence edit served in 2.8-3.1 s instead of 1.7-2.4 s.
* **Compiled theme templates.** Jinja compiles Material's ~80 templates on every build. Jinja's
  own bytecode cache (``FileSystemBytecodeCache``) stores each compiled template under its
  name and source checksum; the folder ``.cache/jinja/<key>/`` is keyed by Jinja's and Python's
  versions and every environment option that changes the generated code.
* **Whole pages** (``.cache/pages/``): the theme's template (Material's nav, rendered again for
  every page) and the post_page hooks that only transform the HTML, keyed by everything the
  page's file can depend on; see the section at the end of this file. Measured without it
  (`python tools/bench.py --reload`, December 2026): a sentence edit served in 2.2-3.4 s
  instead of 1.7-2.4 s, against the 3 s the serve loop promises; a warm build of both
  languages 3.2-3.4 s instead of 3.1-3.2 s (load average 1.5-4 throughout).

None changes what a cold build writes (tests/test_build.py compares a warm build with the
site byte for byte, and tests/test_build.py's serve test the served tree with a cold build).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
import logging
from pathlib import Path

from .bookcache import CACHE, Store, _version, key
from .patches import patch

log = logging.getLogger("mkdocs.hooks.pagecache")
SEARCH = Store("search", ".json")
_stats = {"hits": 0, "misses": 0}


def _toc(items) -> list:
    return [[item.id, item.url, item.title, item.level, _toc(item.children)] for item in items]


@functools.lru_cache(maxsize=1)
def _search_code() -> str:
    """The search plugin's source, Material's and jieba's versions, whether jieba is there."""
    import material.plugins.search.plugin as search

    return key(Path(search.__file__).read_bytes(), _version("mkdocs-material"), _version("jieba"),
               search.jieba is not None)


def _search_key(page, options: dict) -> str:
    """``options``: the search plugin's configuration (lang, separator, jieba_dict, …), which
    decides how the plugin segments and splits a page's text."""
    meta = json.dumps(page.meta, sort_keys=True, default=repr, ensure_ascii=False)
    settings = json.dumps(options, sort_keys=True, default=repr, ensure_ascii=False)
    return key("search-entries", 2, page.content, _toc(page.toc), page.url, str(page.title), meta, settings,
               _search_code())


def _cached_entries(original):
    def add_entry_from_context(self, page):
        k = _search_key(page, dict(self.config))
        cached = SEARCH.get(k)
        if cached is not None:
            _stats["hits"] += 1
            self.entries.extend(json.loads(cached))
            return None
        _stats["misses"] += 1
        before = len(self.entries)
        result = original(self, page)
        SEARCH.put(k, json.dumps(self.entries[before:], ensure_ascii=False).encode("utf-8"))
        return result

    add_entry_from_context.__wrapped__ = original
    return add_entry_from_context


def check_page_handlers(config) -> None:
    """Fail the build when a page event has a handler this file does not know: the converted-page
    cache would otherwise switch itself off for every page, silently."""
    unknown = _unknown_page_handlers(config)
    if unknown:
        from mkdocs.exceptions import PluginError

        raise PluginError(
            f"pagecache: page-event handlers unknown to the page cache: {', '.join(unknown)}. A converted page "
            "is restored from .cache/converted/ without running them: make sure that what such a handler does "
            "is an attribute of the page (restored on a hit) or follows from the cache key, then add its module "
            "to KNOWN_PAGE_HANDLERS in bookbuild/pagecache.py (CONTRIBUTING.md, \"How the build is put together\").")


def on_config(config):
    check_page_handlers(config)
    patch("material.plugins.search.plugin:SearchIndex.add_entry_from_context", _cached_entries)
    patch("mkdocs.theme:Theme.get_env", _with_bytecode_cache)
    patch("mkdocs.commands.build:_build_page", _cached_build_page)
    patch("mkdocs.commands.build:_populate_page", _cached_populate_page)
    _converted_stats.update(hits=0, misses=0, skipped=0)
    _per_build.clear()
    _book_inputs.cache_clear()
    _stats.update(hits=0, misses=0)
    _page_stats.update(hits=0, misses=0)
    _pages_read_build.cache_clear()
    _site_digest.cache_clear()   # once per build (a process may build twice)
    _distributions.cache_clear()
    return config


def _jinja_folder(env) -> str:
    import sys

    autoescape = env.autoescape if isinstance(env.autoescape, bool) else getattr(env.autoescape, "__qualname__", "?")
    options = (env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
               env.comment_start_string, env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
               env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
               env.optimized, str(autoescape), sorted(env.extensions))
    return key("jinja", 1, _version("jinja2"), sys.version, [str(o) if not isinstance(o, (bool, list)) else repr(o) for o in options])[:24]


def _with_bytecode_cache(get_env):
    """Theme.get_env, whose environments keep compiled templates in .cache/jinja/ (MkDocs,
    Material's search and the print-site plugin each ask for one)."""
    def with_cache(self):
        from jinja2 import FileSystemBytecodeCache

        env = get_env(self)
        folder = CACHE / "jinja" / _jinja_folder(env)
        folder.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(folder))
        return env

    with_cache.__wrapped__ = get_env
    return with_cache


def on_post_build(config):
    log.info("search entries (%s): %d pages indexed, %d cached", config.theme["language"],
             _stats["misses"], _stats["hits"])
    log.info("converted (%s): %d pages converted, %d cached, %d not cacheable", config.theme["language"],
             _converted_stats["misses"], _converted_stats["hits"], _converted_stats["skipped"])
    log.info("pages (%s): %d rendered, %d cached", config.theme["language"], _page_stats["misses"], _page_stats["hits"])


# ---------------------------------------------------------------- whole pages (template + post_page)
#
# A page's file is a function of what the theme's template sees and of the post_page hooks.
# MkDocs renders it in ``_build_page``: context -> page_context events -> template -> post_page
# events -> file. The wrapper below keeps the events that have side effects (page_context:
# Material's search entries, print-site's link; post_page hooks that record or copy files: csp.py
# lists the pages whose policy it writes, mkdocs-jupyter copies a lab's source) and caches the
# rest, the Jinja template and the post_page hooks that only transform the HTML (PURE_POST_PAGE),
# under everything the page's output can depend on (:func:`_page_key`). On a hit the events with
# side effects still run, on the cached output, and must leave it unchanged: a post_page hook that
# changes the HTML and is not listed in PURE_POST_PAGE fails the build with a message, never
# serves a stale page.

PAGES = Store("pages", ".html")
# post_page hooks that only transform the page's HTML: their output is a function of their input,
# their source (part of the key) and files the key covers (overrides/, the config, Material).
PURE_POST_PAGE = {"bookbuild.labs", "bookbuild.a11y", "bookbuild.trim_and_minify"}
_page_stats = {"hits": 0, "misses": 0}
_per_build: dict = {}   # parts of the keys that every page of one build shares (cleared in on_config)
ROOT = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=1)
def _distributions() -> str:
    """Every installed package and its version (Material's templates, the plugins, Jinja, ...):
    the names of the ``*.dist-info``/``*.egg-info`` folders on sys.path (name and version, without
    reading each package's metadata), their METADATA's size and mtime, and the ``.pth`` files."""
    import sys

    found = []
    for entry in sys.path:
        folder = Path(entry or ".").resolve()
        if not folder.is_dir() or folder == ROOT or ROOT in folder.parents and ".venv" not in folder.parts:
            continue   # the repository's own folders (attnkit, bookbuild) are keyed by their bytes
        for child in sorted(folder.iterdir()):
            if child.name.endswith((".dist-info", ".egg-info", ".pth", ".egg-link")):
                meta = child / "METADATA" if child.is_dir() else child
                stat = meta.stat() if meta.exists() else None
                found.append([_portable(str(child)), stat.st_size if stat else None, stat.st_mtime_ns if stat else None])
    return key(found)


def _jsonable(value, depth: int = 0):
    """``value`` as JSON types; an object counts by its type only (its repr may carry an address),
    except the MkDocs objects a page refers to (a File by its paths, a page by its url)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if depth > 20:
        return "<deep>"
    if isinstance(value, Mapping):      # a dict, and MkDocs' Config objects (config.extra, scripts)
        return sorted(([_key_text(k), _jsonable(v, depth + 1)] for k, v in value.items()), key=lambda kv: kv[0])
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v, depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    return _key_text(value)


def _key_text(value) -> str:
    if isinstance(value, str):
        return value
    if hasattr(value, "src_uri") and hasattr(value, "dest_uri"):          # a File
        return f"<File {value.src_uri} -> {value.dest_uri}>"
    if hasattr(value, "file") and hasattr(value, "url"):                  # a Page
        return f"<Page {value.url}>"
    if isinstance(value, (int, float, bool)) or value is None:
        return repr(value)
    return f"<{type(value).__module__}.{type(value).__qualname__}>"


def _plain(value) -> str:
    """JSON text of a value (see :func:`_jsonable`)."""
    return json.dumps(_jsonable(value), ensure_ascii=False)


def _nav(items) -> list:
    out = []
    for item in items:
        kind = type(item).__name__
        url = getattr(item, "url", None)
        meta = _plain(getattr(item, "meta", None))
        children = _nav(item.children) if getattr(item, "children", None) else []
        out.append([kind, str(item.title), url, meta, bool(getattr(item, "is_index", False)), children])
    return out


def _config_part(config) -> str:
    """The config (after every hook's on_config) without the build's own output folder, and the
    plugins' settings; what cannot be written as JSON counts by its type (the config files and
    the hooks' sources, both in the key, decide it)."""
    skip = {"site_dir", "plugins", "hooks", "watch"}
    plain = {k: v for k, v in config.items() if k not in skip}
    if "build" in plain.get("extra", {}) and not _pages_read_build(str(ROOT)):
        # offline_pdf.py's commit id and date (the print cover shows them) change with every
        # commit and day; no page template reads them, so they would only empty the cache
        plain["extra"] = {k: v for k, v in plain["extra"].items() if k != "build"}
    theme = config.theme
    plain["theme"] = [theme.name, list(theme.dirs), sorted(theme.static_templates), dict(theme.items())]
    plugins = {name: dict(getattr(p, "config", {}) or {}) for name, p in config.plugins.items()}
    # the repository's own path does not count (a copy of it, as the tests make, finds the same
    # entries): no page shows it, and tests/test_build.py's serve test would see one that did
    return _portable(_plain([plain, plugins]))


def _portable(text: str) -> str:
    """``text`` with Python's prefix (the virtualenv) and the repository's path named, not
    spelled: a copy of the repository (as the tests make) finds the same entries. No page shows
    either path (tests/test_build.py's serve test, which serves a copy, would see one that did)."""
    import sys

    for path, name in ((sys.prefix, "<python>"), (str(ROOT), "<repository>")):
        text = text.replace(json.dumps(path)[1:-1], name)
    return text


@functools.lru_cache(maxsize=8)
def _pages_read_build(root: str) -> bool:
    """Whether a template that can render a page (overrides/, not the print cover, which
    mkdocs-print-site-plugin renders itself) mentions ``build`` (config.extra.build)."""
    base = Path(root) / "overrides"
    return any(re.search(r"\bbuild\b", p.read_text(encoding="utf-8", errors="replace"))
               for p in base.rglob("*.html") if p.relative_to(base).parts[0] != "print")


@functools.lru_cache(maxsize=8)
def _site_digest(root: str) -> str:
    """The config files, bookbuild/ (the hooks), overrides/ (templates, CSS that trim_and_minify.py reads)."""
    base = Path(root)
    files = [*base.glob("mkdocs*.yml"), base / "pyproject.toml",
             *(p for folder in ("bookbuild", "overrides") for p in (base / folder).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts)]
    return key(*[(p.relative_to(base).as_posix(), p.read_bytes()) for p in sorted(files) if p.is_file()])


def _page_attributes(page) -> list:
    """Every attribute of the page a template can read, objects reduced to what identifies them."""
    out = []
    for name, value in sorted(vars(page).items()):
        if name == "toc":
            value = _toc(value)
        elif name == "file":
            value = [value.src_uri, value.dest_uri, value.url]
        elif name in ("previous_page", "next_page"):
            value = None if value is None else [value.url, str(value.title)]
        elif name == "parent":
            chain = []
            while value is not None:
                chain.append(str(value.title))
                value = value.parent
            value = chain
        out.append([name, _plain(value)])
    return out


def _page_key(page, config, nav, doc_files, template_name: str, excluded: bool) -> str:
    # the nav, the doc files and the config are the same for every page of one build: once
    # (kept by reference, compared by identity: an id() could be reused by a new object)
    held = _per_build.get("page-shared")
    if held is None or held[0] is not nav or held[1] is not doc_files or held[2] is not config:
        _per_build["page-shared"] = (nav, doc_files, config, key(_nav(nav.items), [p.url for p in nav.pages],
                                                 [f.src_uri for f in doc_files], _config_part(config),
                                                 _site_digest(str(ROOT)), _distributions()))
    return key("page", 2, template_name, bool(excluded), _page_attributes(page), _per_build["page-shared"][3])


def _post_page_handlers(config):
    """(pure, replayed): the post_page events, split by PURE_POST_PAGE."""
    pure, replayed = [], []
    for method in config.plugins.events["post_page"]:
        (pure if getattr(method, "__module__", None) in PURE_POST_PAGE else replayed).append(method)
    return pure, replayed


class _Count(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


class _warnings:
    """``with _warnings() as warned:`` true (``bool(warned)``) if MkDocs' loggers (which
    ``--strict`` counts) reported a warning or an error meanwhile."""

    def __enter__(self):
        self.handler = _Count()
        logging.getLogger("mkdocs").addHandler(self.handler)
        return self

    def __exit__(self, *exc):
        logging.getLogger("mkdocs").removeHandler(self.handler)
        return False

    def __bool__(self):
        return self.handler.count > 0


# _cached_build_page repeats MkDocs' _build_page around the cache: only for the MkDocs code it
# was written from (mkdocs 1.6.1, bookbuild/patches.py)


def _cached_build_page(original):
    from mkdocs import utils
    from mkdocs.commands.build import get_context
    from mkdocs.exceptions import BuildError, PluginError

    def _build_page(page, config, doc_files, nav, env, dirty=False, excluded=False):
        if dirty:
            return original(page, config, doc_files, nav, env, dirty, excluded)
        config._current_page = page
        try:
            page.active = True
            context = get_context(nav, doc_files, config, page)
            template_name = page.meta.get("template", "main.html")
            template = env.get_template(template_name)
            context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
            if excluded:
                page.content = ('<div class="mkdocs-draft-marker" title="This page will not be included into the '
                                'built site.">DRAFT</div>' + (page.content or ""))
            k = _page_key(page, config, nav, doc_files, template_name, excluded)
            cached = PAGES.get(k)
            if cached is None:
                _page_stats["misses"] += 1
                with _warnings() as warned:
                    output = template.render(context)
                    output = config.plugins.on_post_page(output, page=page, config=config)
                if not warned:   # a page that warned warns again next time (--strict counts them)
                    PAGES.put(k, output.encode("utf-8", errors="surrogatepass"))
            else:
                _page_stats["hits"] += 1
                output = cached.decode("utf-8", errors="surrogatepass")
                for method in _post_page_handlers(config)[1]:
                    result = method(output, page=page, config=config)
                    if result is not None and result != output:
                        raise PluginError(
                            f"pagecache: the post_page hook {method.__module__}.{method.__qualname__} changed a page "
                            "that came from the page cache: if it only transforms the HTML, add it to PURE_POST_PAGE "
                            "in bookbuild/pagecache.py; if it has side effects too, make them separate from the change")
            if output.strip():
                utils.write_file(output.encode("utf-8", errors="xmlcharrefreplace"), page.file.abs_dest_path)
            else:
                log.info(f"Page skipped: '{page.file.src_uri}'. Generated empty output.")
        except Exception as e:
            message = f"Error building page '{page.file.src_uri}':"
            if not isinstance(e, BuildError):
                message += f" {e}"
            log.error(message)
            raise
        finally:
            page.active = False
            config._current_page = None

    _build_page.__wrapped__ = original
    return _build_page


# ---------------------------------------------------------------- Markdown -> HTML (populate)
#
# ``_populate_page`` reads a page, runs the page_markdown hooks (macros: numbers computed by
# attnkit; listings and their outputs), converts the Markdown and runs the page_content hooks
# (tooltips, KaTeX, ...). What it leaves is attributes of the page (content, toc, title, anchors,
# the links to check, print-site's copy of the HTML). Those are cached under the page's bytes and
# every input the hooks can read: attnkit, the listings the page includes (_page_inputs), the glossary,
# node's KaTeX (package-lock.json), the environment, the config, the hooks' and overrides' bytes,
# the packages, the site's files (links) and markdown-exec's counters at the start of the page.
# On a hit the attributes are set again, and the counters moved on as the conversion would.
# Not cached: lab notebooks (mkdocs-jupyter renders them), pages with a markdown-exec
# ``session=`` (state shared across pages), pages whose template code names anything but the
# pure macros below (glossary() reads other pages' headings), pages that warned (--strict),
# and every page when a page event has a handler this file does not know.

CONVERTED = Store("converted", ".json")
_converted_stats = {"hits": 0, "misses": 0, "skipped": 0}
# macros and variables whose value depends only on attnkit and the page's own source (all in the
# key), and the exercises' macros, whose inputs (bookbuild/exercise_pages.py: inputs) are in the key
# of a page that names ``exercise``. Not ``page`` or ``config``: a page's Jinja could read
# page.next_page.title or the nav, which the key leaves out (no page does; one that starts to is
# simply converted every build)
PURE_MACROS = {"num", "pct", "zhnum", "sci", "vec", "np", "attnkit", "range", "len",
               "enumerate", "zip", "loop", "true", "false", "none", "True", "False", "None",
               "exercise", "exercise_progress"}
# page events this cache has checked: their effects are attributes of the page (restored on a hit)
# or a function of the key
KNOWN_PAGE_HANDLERS = {
    "pre_page": {"mkdocs_jupyter.plugin"},   # sets up notebooks only (never cached here)
    "page_read_source": set(),
    "page_markdown": {"bookbuild.exec_cache", "mkdocs_macros.plugin", "bookbuild.playground",
                      "bookbuild.listings"},
    "page_content": {"mkdocs_print_site_plugin.plugin", "bookbuild.cjk_lines", "bookbuild.labs",
                     "bookbuild.glossary", "bookbuild.katex_math", "bookbuild.print_only",
                     "bookbuild.a11y", "bookbuild.offline_pdf", "bookbuild.layout_hints"},
}


def _unknown_page_handlers(config) -> list[str]:
    return [f"{event}: {getattr(m, '__module__', '?')}" for event, known in KNOWN_PAGE_HANDLERS.items()
            for m in config.plugins.events[event] if getattr(m, "__module__", None) not in known]


def _exec_counters():
    from markdown_exec._internal.formatters import python
    from markdown_exec._internal.rendering import MarkdownConverter

    return MarkdownConverter, python


def _counters() -> list:
    converter, python = _exec_counters()
    return [converter.counter, sorted((str(k), v) for k, v in python._sessions_counter.items())]


def _set_counters(values) -> None:
    converter, python = _exec_counters()
    converter.counter = values[0]
    for name, count in values[1]:
        python._sessions_counter[None if name == "None" else name] = count


def _template_names(markdown: str) -> set[str] | None:
    """Names the page's Jinja code reads (None: it does not parse, or includes other files)."""
    import jinja2
    from jinja2 import meta, nodes

    try:
        ast = jinja2.Environment().parse(markdown)
    except jinja2.TemplateError:
        return None
    if any(True for _ in ast.find_all((nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends))):
        return None
    return meta.find_undeclared_variables(ast)


@functools.lru_cache(maxsize=1)
def _book_inputs() -> str:
    """What every page's conversion may read besides bookbuild/ (the listing filter, the hooks:
    in the site digest): the glossary (tooltips), package-lock.json (KaTeX), the environment."""
    from .bookcache import environment, sources

    files = [ROOT / "docs" / "glossary.yml", ROOT / "package-lock.json"]
    return key(sources([p for p in files if p.is_file()]), environment())


INCLUDE = re.compile(rb'--8<--[ \t]+"([^"\n]+)"')
FIGURE_FILE = re.compile(rb"figures/[\w-]+\.svg")


def _page_inputs(source: bytes) -> str:
    """The listings a page includes (``--8<-- "chN/x.py"``) and attnkit: the whole of snippets/
    when the page includes files any other way (a block ``--8<--``, a missing file, a snippet
    that includes another); attnkit/figures/ too when the page or a listing it includes names
    ``figures`` other than as a figure's file (``figures/ch3-x.svg``), as exec_cache.py decides
    for the listings' output."""
    from .bookcache import attnkit_digest, sources

    snippets = ROOT / "snippets"
    paths = [snippets / m.decode("utf-8", errors="replace") for m in INCLUDE.findall(source)]
    every = source.count(b"--8<--") != len(paths) or not all(p.is_file() for p in paths)
    texts = [] if every else [p.read_bytes() for p in paths]
    if any(b"--8<--" in t for t in texts):
        every = True
    if every:
        paths = [p for p in snippets.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        texts = [p.read_bytes() for p in paths]
    figures = b"figures" in FIGURE_FILE.sub(b"", source) or any(b"figures" in t for t in texts)
    return key(every, sources(sorted(set(paths))), attnkit_digest(figures=figures))


def _encode(name, value):
    """A page attribute as JSON ([kind, data]), or None if this cache cannot restore it."""
    if name == "toc":
        return ["toc", _toc(value)]
    if name == "links_to_anchors":
        return ["links", None if value is None else sorted([f.src_uri, dict(v)] for f, v in value.items())]
    if isinstance(value, (set, frozenset)) and all(isinstance(v, str) for v in value):
        return ["set", sorted(value)]
    try:
        if json.loads(json.dumps(value)) == value:
            return ["json", value]
    except (TypeError, ValueError):
        pass
    return None


def _decode(kind, data, files):
    from mkdocs.structure.toc import AnchorLink, TableOfContents

    def links(items):
        out = []
        for id_, url, title, level, children in items:
            link = AnchorLink(title, id_, level)
            link.children = links(children)
            out.append(link)
        return out

    if kind == "toc":
        return TableOfContents(links(data))
    if kind == "links":
        return None if data is None else {files.get_file_from_path(uri): links_ for uri, links_ in data}
    if kind == "set":
        return set(data)
    return data


# a markdown-exec fence in another language than Python (a shell block can read anything)
OTHER_EXEC = re.compile(rb"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?!(?:python|py|pycon)\b)[\w-]+[^\n]*\bexec=", re.M)


def _cacheable(page, source: bytes) -> bool:
    """Lab notebooks, ``session=`` listings, markdown-exec fences that are not Python (a shell
    block can read anything) and template code that reads anything but PURE_MACROS (or includes
    a file) are not cached. (A Python listing's output is keyed as exec_cache.py keys it.)"""
    if page.file.src_uri.endswith(".py") or b"session=" in source or OTHER_EXEC.search(source):
        return False
    names = _template_names(source.decode("utf-8", errors="replace"))
    if names is None:
        return False
    import attnkit

    return not (names - PURE_MACROS - set(getattr(attnkit, "__all__", ())))


def _converted_key(page, config, files, source: bytes) -> str:
    if "shared" not in _per_build:
        _per_build["shared"] = key(sorted([f.src_uri, f.dest_uri, f.url] for f in files), _config_part(config),
                                   _site_digest(str(ROOT)), _distributions(), _book_inputs(),
                                   log.getEffectiveLevel() > logging.DEBUG)
    return key("converted", 3, page.file.src_uri, page.file.dest_uri, page.url, source, _counters(),
               _page_inputs(source), _exercise_inputs(source, config), _per_build["shared"])


def _exercise_inputs(source: bytes, config) -> list:
    """For a page that names ``exercise`` (the macros ``exercise`` and ``exercise_progress``):
    the exercise files and where the pages of its language embed them (exercise_pages.inputs)."""
    if b"exercise" not in source:
        return []
    lang = config.theme["language"]
    if ("exercises", lang) not in _per_build:
        from .exercise_pages import inputs

        _per_build["exercises", lang] = inputs(lang)
    return _per_build["exercises", lang]


def _cached_populate_page(original):
    def _populate_page(page, config, files, dirty=False):
        if dirty or _unknown_page_handlers(config):
            return original(page, config, files, dirty)
        try:
            source = page.file.content_bytes
        except (OSError, TypeError, ValueError):
            return original(page, config, files, dirty)
        # the key holds the page's bytes and this file's source: a page found under it was
        # cacheable when it was stored and still is, so _cacheable runs on misses only
        k = _converted_key(page, config, files, source)
        cached = CONVERTED.get(k)
        if cached is not None:
            entry = json.loads(cached)
            for name, (kind, data) in entry["attributes"].items():
                setattr(page, name, _decode(kind, data, files))
            _set_counters(entry["counters"])
            _converted_stats["hits"] += 1
            return None
        if not _cacheable(page, source):
            _converted_stats["skipped"] += 1
            return original(page, config, files, dirty)
        _converted_stats["misses"] += 1
        before = dict(vars(page))
        with _warnings() as warned:
            original(page, config, files, dirty)
        changed = {name: value for name, value in vars(page).items()
                   if name not in before or before[name] is not value}
        encoded = {name: _encode(name, value) for name, value in changed.items()}
        if warned or any(v is None for v in encoded.values()):
            return None
        CONVERTED.put(k, json.dumps({"attributes": encoded, "counters": _counters()}, ensure_ascii=False).encode("utf-8"))
        return None

    _populate_page.__wrapped__ = original
    return _populate_page
