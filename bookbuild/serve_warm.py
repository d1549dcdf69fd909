"""Imported once by tools/serve.py's forkserver, before it forks a build: third-party libraries
that do not change while the server runs (never attnkit, never the hooks: each build imports
those fresh). Initialising jieba here saves every Chinese build about a second."""

import logging

import jieba
import matplotlib  # noqa: F401  (the figure hook's workers import it themselves; this is for the labs' kernel manager)
import nbconvert  # noqa: F401
from pygments.lexers import get_lexer_by_name

jieba.setLogLevel(logging.WARNING)
jieba.initialize()

# Pygments compiles a lexer's token regexes when the lexer is first made, once per process, and
# Python's re module compiles a module's patterns when it is imported: done here, once, not in
# every build (0.1 s of a build that converts one page with a listing). The Markdown extensions
# of mkdocs.yml that serve.py's PRELOAD does not name are imported for the same reason.
for _name in ("python", "pycon", "pytb", "bash", "console", "json", "yaml", "toml", "javascript", "html"):
    get_lexer_by_name(_name)
for _module in ("markdown.extensions.abbr", "markdown.extensions.admonition", "markdown.extensions.attr_list",
                "markdown.extensions.codehilite", "markdown.extensions.def_list", "markdown.extensions.fenced_code",
                "markdown.extensions.footnotes", "markdown.extensions.md_in_html", "markdown.extensions.tables",
                "markdown.extensions.toc", "pymdownx.blocks.caption", "pymdownx.blocks.html", "pymdownx.details",
                "pymdownx.inlinehilite", "pymdownx.saneheaders", "pymdownx.slugs", "pymdownx.tabbed", "jinja2.meta",
                "tinycss2", "tarfile", "tracemalloc"):
    __import__(_module)
