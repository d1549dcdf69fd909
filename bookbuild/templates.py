"""Jinja compiles once: Material's templates through Jinja's own bytecode cache for the theme's
environment (compiling ~80 templates cost 1.5 s a build), in ``.cache/jinja/<key>/``, and each page's
macros (:func:`compiled`, for macros.py) in ``.cache/jinja-pages/``; both keyed by Jinja's and
Python's versions and every environment option that changes the generated code.
"""

from __future__ import annotations

import marshal
import sys

from jinja2 import FileSystemBytecodeCache

from .bookcache import CACHE, Store, _version, key

_PAGES = Store("jinja-pages", ".marshal")   # a page's Markdown as Jinja compiles it (a code object)


def folder_key(env) -> str:
    autoescape = env.autoescape if isinstance(env.autoescape, bool) else getattr(env.autoescape, "__qualname__", "?")
    options = (env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
               env.comment_start_string, env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
               env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
               env.optimized, autoescape, sorted(env.extensions), env.is_async, env.finalize is not None)
    return key("jinja", 2, _version("jinja2"), sys.version, [repr(o) for o in options])[:24]


def on_env(env, config, files):
    folder = CACHE / "jinja" / folder_key(env)
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return env


def compiled(env, source: str):
    """``env.from_string(source)``, with the compiled code kept under the source and :func:`folder_key`."""
    k = key("page", source, folder_key(env))
    data = _PAGES.get(k)
    code = marshal.loads(data) if data else env.compile(source)
    if not data:
        _PAGES.put(k, marshal.dumps(code))
    return env.template_class.from_code(env, code, env.make_globals(None))
