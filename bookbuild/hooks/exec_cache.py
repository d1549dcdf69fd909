"""Executed code cached by content: listings and lab notebooks; the lab kernels' settings. (bookbuild/exec_cache.py)"""

from bookbuild.exec_cache import on_config, on_page_markdown, on_post_build  # noqa: F401
