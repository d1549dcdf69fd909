"""Accessibility fixes in the HTML itself: lang on quoted runs, figures that open full size. (bookbuild/a11y.py)"""

from bookbuild.a11y import on_page_content, on_post_page, on_post_template  # noqa: F401
