"""Chinese pages: the line breaks between the source's sentences removed. (bookbuild/cjk_lines.py)"""

from bookbuild.cjk_lines import on_page_content  # noqa: F401
