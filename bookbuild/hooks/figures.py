"""Every figure of attnkit.figures drawn as SVG for this language and added to the site. (bookbuild/figures.py)"""

from bookbuild.figures import on_files, on_post_build, on_build_error  # noqa: F401
