"""Material's templates compiled once, cached by Jinja. (bookbuild/templates.py)"""

from bookbuild.templates import on_env  # noqa: F401
