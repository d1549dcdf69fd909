"""The chapters' times written into each page once every page is rendered. (bookbuild/course.py)"""

from bookbuild.course import on_config, on_post_page  # noqa: F401
