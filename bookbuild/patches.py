"""The private code of MkDocs, Material, markdown-exec and print-site that the build wraps or
replaces, each with the digest of the source it was written from: the build's tripwire.

:func:`patch` wraps (or replaces) a function only while the installed package holds exactly the
code recorded in :data:`PATCHED`. Another version is left alone: the build then runs that
package's own code (slower, or uncached, never wrong) until someone compares the new code with
its wrapper and adds the new digest here; meanwhile
tests/test_build.py::test_patched_internals_are_the_code_they_were_written_from fails, so an
upgrade cannot switch a cache off unnoticed. CONTRIBUTING.md ("How the build is put together")
says what each wrapper does.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect

# "module:Class.function" -> the digests (source_digest) of the versions its wrapper was checked against
PATCHED = {
    # bookbuild/pagecache.py: the converted-page, search-entry and template caches
    "material.plugins.search.plugin:SearchIndex.add_entry_from_context": {"4ca78ac4321f7704"},
    "mkdocs.theme:Theme.get_env": {"9c26120fb96f9204"},
    "mkdocs.commands.build:_build_page": {"adcdbd14b2361126"},
    "mkdocs.commands.build:_populate_page": {"31a70ea4caef1e12"},
    # bookbuild/exec_cache.py: the listing cache (markdown-exec 1.12.6)
    "markdown_exec._internal.formatters.python:_run_python": {"b9f63cf4c7d33095"},
    # not wrapped: called by that wrapper on a hit, to number the block as _run_python would
    "markdown_exec._internal.formatters.python:_code_block_id": {"1cff2436d2c615c2"},
    # bookbuild/print_site_fix.py: a linear anchor renaming for the print page (print-site 2.9)
    "mkdocs_print_site_plugin.urls:update_anchor_ids": {"0aee9101114eb8e4"},
}


def source_digest(function) -> str:
    try:
        return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
    except (OSError, TypeError):
        return "?"


def _owner_and_name(target: str):
    """``"module:Class.attr"`` -> (the module or class that holds it, the attribute's name)."""
    module, _, path = target.partition(":")
    owner = importlib.import_module(module)
    *classes, name = path.split(".")
    for cls in classes:
        owner = getattr(owner, cls)
    return owner, name


def installed(target: str):
    """The function ``target`` names, as the installed package defines it (unwrapped)."""
    owner, name = _owner_and_name(target)
    function = getattr(owner, name)
    return getattr(function, "__wrapped__", function)


def known(target: str) -> bool:
    """Whether the installed ``target`` is code its wrapper was written from."""
    return source_digest(installed(target)) in PATCHED[target]


def patch(target: str, wrapper) -> bool:
    """Put ``wrapper(original)`` in ``target``'s place, once, if the installed code is known.
    Returns whether ``target`` is now wrapped."""
    owner, name = _owner_and_name(target)
    current = getattr(owner, name)
    if hasattr(current, "__wrapped__"):
        return True
    if not known(target):
        return False
    new = wrapper(current)
    new.__wrapped__ = current
    setattr(owner, name, new)
    return True
