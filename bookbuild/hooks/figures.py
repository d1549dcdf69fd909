"""Every figure of attnkit.figures as SVG for this language, added to the site. (bookbuild/figures.py)"""

from bookbuild.figures import on_files  # noqa: F401
