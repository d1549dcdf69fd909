"""A strict Content-Security-Policy on every page. (bookbuild/csp.py)"""

from bookbuild.csp import on_config, on_post_page, on_post_template, on_post_build  # noqa: F401
