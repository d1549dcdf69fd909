"""Per-page work that MkDocs repeats on every build, cached by content (docs/hooks/bookcache.py).

A one-sentence edit changes one page; a rebuild should not redo, for the 50 pages that did not
change, the work whose result is a pure function of a page's HTML. Two such pieces dominate a
warm one-language build (profiled with cProfile, December 2026):

* **Search entries.** Material's search plugin parses every page's final HTML with an
  ``HTMLParser`` and segments its Chinese text with jieba (which first loads a 2-second
  dictionary, in the English book too: a few English pages show Chinese). About a quarter of a
  warm build. The entries of a page are cached in ``.cache/search/`` under: the page's HTML, its
  table of contents (ids, urls, titles), url, title and front matter, the search plugin's configuration and source
  and Material's and jieba's versions. The cached entries are the exact dicts the plugin would
  have appended, in the same order, so ``search_index.json`` is byte-for-byte the same.
* **Compiled theme templates.** Jinja compiles Material's ~80 templates on every build. Jinja's
  own bytecode cache (``FileSystemBytecodeCache``) stores each compiled template under its
  name and source checksum; the folder ``.cache/jinja/<key>/`` is keyed by Jinja's and Python's
  versions and every environment option that changes the generated code.

Neither changes what a cold build writes (tests/test_build.py compares a warm build with the
site byte for byte, and tests/test_serve*.py the served tree with a cold build).
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

from bookcache import CACHE, Store, _version, key

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


def on_config(config):
    from material.plugins.search.plugin import SearchIndex

    if not hasattr(SearchIndex.add_entry_from_context, "__wrapped__"):
        SearchIndex.add_entry_from_context = _cached_entries(SearchIndex.add_entry_from_context)
    from mkdocs.theme import Theme

    if not hasattr(Theme.get_env, "__wrapped__"):
        Theme.get_env = _with_bytecode_cache(Theme.get_env)
    _stats.update(hits=0, misses=0)
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

