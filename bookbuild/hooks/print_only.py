"""Print-only figures are not fetched on screen. (bookbuild/print_only.py)"""

from bookbuild.print_only import on_page_content  # noqa: F401
