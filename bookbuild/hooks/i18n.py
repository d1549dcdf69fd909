"""The two languages: the English site's URL, plugin defaults in the page's language. (bookbuild/i18n.py)"""

from bookbuild.i18n import on_config  # noqa: F401
