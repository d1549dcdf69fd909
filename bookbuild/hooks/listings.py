"""Each listing on a page shown and run in the page's language, its output cached. (bookbuild/listings.py)"""

from bookbuild.listings import on_config, on_page_markdown  # noqa: F401
