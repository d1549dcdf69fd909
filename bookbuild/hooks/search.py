"""The search index: each page's entries cached by content, written compact. (bookbuild/search.py)"""

from bookbuild.search import on_config, on_page_content, on_page_context, on_post_build  # noqa: F401
