"""A page loads only what it uses: stylesheets trimmed, scripts minified. (bookbuild/trim_and_minify.py)"""

from bookbuild.trim_and_minify import on_config, on_files, on_post_page, on_post_template, on_post_build  # noqa: F401
