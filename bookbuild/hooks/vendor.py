"""KaTeX's stylesheet and fonts copied from node_modules/ into the site (no CDN). (bookbuild/vendor.py)"""

from bookbuild.vendor import on_files  # noqa: F401
