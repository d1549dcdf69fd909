"""Per-page search entries, converted pages, whole pages and compiled templates, cached by content. (bookbuild/pagecache.py)"""

from bookbuild.pagecache import on_config, on_post_build  # noqa: F401
