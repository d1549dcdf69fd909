"""Glossary tooltips on every page, from docs/glossary.yml. (bookbuild/glossary.py)"""

from bookbuild.glossary import on_page_content  # noqa: F401
