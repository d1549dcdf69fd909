"""Imported once by tools/serve.py's forkserver, before it forks a build: third-party libraries
that do not change while the server runs (never attnkit, never the hooks: each build imports
those fresh). Initialising jieba here saves every Chinese build about a second."""

import logging

import jieba
import matplotlib  # noqa: F401  (the figure hook's workers import it themselves; this is for the labs' kernel manager)
import nbconvert  # noqa: F401

jieba.setLogLevel(logging.WARNING)
jieba.initialize()
