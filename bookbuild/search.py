"""The search index: each page's entries cached by content, the index written compact.

A page whose entries are cached (``.cache/search/``, keyed by all the plugin reads: :func:`entries_key`)
is left out of Material's indexing (jieba's segmenting, a quarter of a warm build) with its own front
matter, ``search: {exclude: true}``, and its entries put back after the build. The index is rewritten
with its characters unescaped (40 % smaller in Chinese), and lunr's language packs leave the site.
"""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

from mkdocs.plugins import event_priority

from .bookcache import Store, _version, key
from .course import fill

ENTRIES = Store("search", ".json")
_pages: list = []        # (url, key, cached entries or None), in the order Material saw the pages
_meta: dict = {}         # url -> the front matter a cached page had before it was excluded


@functools.cache
def _plugin_version() -> str:
    import material.plugins.search.plugin as search

    return key(_version("mkdocs-material"), _version("jieba"), search.jieba is not None)


def _toc(items) -> list:
    return [[item.id, item.url, item.title, item.level, _toc(item.children)] for item in items]


def entries_key(page, settings: dict) -> str:
    """Everything Material's search plugin reads to index ``page`` (``settings``: its config)."""
    def text(value):
        return json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False)

    return key("search-entries", 3, page.content, _toc(page.toc), page.url, str(page.title), text(page.meta),
               text(settings), _plugin_version())


def on_config(config):
    _pages.clear()
    _meta.clear()
    return config


@event_priority(-200)   # the page's HTML is final (after offline_pdf, -100); Material's plugin reads it next
def on_page_content(html, page, config, files):
    search = config.plugins.get("material/search")
    if search is not None:
        page.content = html
        k = entries_key(page, dict(search.config))
        cached = ENTRIES.get(k)
        _pages.append((page.url, k, None if cached is None else json.loads(cached)))
        if cached is not None:
            _meta[page.url] = page.meta
            page.meta = {**page.meta, "search": {**(page.meta.get("search") or {}), "exclude": True}}
    return html


def on_page_context(context, page, config, nav):   # hooks run after plugins: Material's search read the page
    if page.url in _meta:
        page.meta = _meta.pop(page.url)
    return context


def merge(docs: list[dict]) -> list[dict]:
    """The index's entries with every cached page's entries in its place; fresh ones are cached."""
    fresh: dict[str, list] = {}
    for entry in docs:
        fresh.setdefault(entry["location"].split("#", 1)[0], []).append(entry)
    merged = []
    for url, k, cached in _pages:
        if cached is None:
            cached = fresh.pop(url, [])
            ENTRIES.put(k, json.dumps(cached, ensure_ascii=False).encode("utf-8"))
        merged.extend(cached)
    return merged + [entry for left in fresh.values() for entry in left]   # of no page this hook saw (none today)


def on_post_build(config):  # after Material's search plugin wrote the index (hooks run after plugins)
    path = Path(config.site_dir) / "search" / "search_index.json"
    if path.is_file():
        data = json.loads(path.read_bytes())
        data["docs"] = [{k: fill(v) if isinstance(v, str) else v for k, v in entry.items()}   # the chapters' times
                        for entry in merge(data["docs"])]
        path.write_bytes(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        if data["config"]["lang"] == ["en"]:   # its search worker then loads none of lunr's language packs
            shutil.rmtree(Path(config.site_dir) / "assets" / "javascripts" / "lunr", ignore_errors=True)
