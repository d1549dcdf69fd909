"""The macros module of mkdocs-macros: numbers in the prose computed by attnkit. (bookbuild/macros.py)"""

from bookbuild.macros import define_env, on_post_page_macros  # noqa: F401
