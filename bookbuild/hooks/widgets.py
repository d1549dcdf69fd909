"""The interactive widgets' data, computed by attnkit, written as JSON. (bookbuild/widgets.py)"""

from bookbuild.widgets import on_files  # noqa: F401
