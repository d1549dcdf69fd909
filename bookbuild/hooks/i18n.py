"""The two languages: plugin defaults in the page's language; Chinese source lines joined. (bookbuild/i18n.py)"""

from bookbuild.i18n import on_config, on_page_content  # noqa: F401
