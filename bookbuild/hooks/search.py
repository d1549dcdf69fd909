"""The search index, compact. (bookbuild/search.py)"""

from bookbuild.search import on_post_build  # noqa: F401
