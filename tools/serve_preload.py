"""Imported last by make serve's forkserver (tools/serve.py: PRELOAD), so that no build does it again:
jieba's dictionary is read (0.6 s), then everything imported is frozen out of the garbage collector's
reach (gc.freeze, as Python's documentation advises before fork()), so that no build walks it again."""

import gc
import logging

import jieba

jieba.setLogLevel(logging.WARNING)
jieba.initialize()
gc.freeze()
