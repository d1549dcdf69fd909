"""The search index, compact: Material writes ``search/search_index.json`` with every non-ASCII
character escaped (``\\u6ce8`` for 注: six bytes instead of three); this hook writes it again
with the characters themselves (same JSON, about 40 % smaller for the Chinese book).

The index is fetched only when the reader opens search (overrides/assets/search-defer.js), so a
first visit does not download it.
"""

from __future__ import annotations

import json
from pathlib import Path


def compact_index(path: Path) -> tuple[int, int]:
    """Rewrite a search index in place with UTF-8 characters; return (bytes before, after)."""
    raw = path.read_bytes()
    data = json.loads(raw)
    out = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    path.write_bytes(out)
    return len(raw), len(out)


def on_post_build(config):  # after Material's search plugin wrote the index (hooks run after plugins)
    path = Path(config.site_dir) / "search" / "search_index.json"
    if path.is_file():
        compact_index(path)
