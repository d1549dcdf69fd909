"""Each listing on a page shown and run in the page's language. (bookbuild/listings.py)"""

from bookbuild.listings import on_page_markdown  # noqa: F401
