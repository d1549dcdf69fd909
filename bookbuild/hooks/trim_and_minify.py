"""A page loads only what it uses: plugin files off the pages, stylesheets purged, scripts minified. (bookbuild/trim_and_minify.py)"""

from bookbuild.trim_and_minify import on_post_page, on_post_template, on_post_build  # noqa: F401
