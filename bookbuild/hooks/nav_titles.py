"""The nav's titles: each section's from its index page's H1, the home page's from a table. (bookbuild/nav_titles.py)"""

from bookbuild.nav_titles import on_env, on_nav  # noqa: F401
