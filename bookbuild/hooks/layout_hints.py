"""An over-estimate of each paragraph's height, so the browser can skip laying out those off screen. (bookbuild/layout_hints.py)"""

from bookbuild.layout_hints import on_page_content  # noqa: F401
