"""Numbers in the prose come from attnkit, computed while the page is built.

Pages write a computation instead of typing its result, for example
``{{ pct(softmax([5, 2, 0])[0]) }}`` renders as ``94.6%``. Available names:
``np`` (NumPy), ``attnkit``, every public attnkit function, and the formatters below.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from pathlib import Path

import numpy as np

import attnkit

# Make every submodule reachable as attnkit.<name> in pages (attnkit.toy, attnkit.rnn, ...),
# except the figure module, which pages embed as pictures instead.
for _info in pkgutil.iter_modules(attnkit.__path__):
    if not _info.name.startswith("_") and _info.name != "figures":
        importlib.import_module(f"attnkit.{_info.name}")


def define_env(env):
    # glossary() and concept_table(), generated from docs/glossary.yml by docs/hooks/glossary.py
    _spec = importlib.util.spec_from_file_location("book_glossary", Path(__file__).with_name("glossary.py"))
    _glossary = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_glossary)
    _glossary.register_macros(env)

    env.variables["np"] = np
    env.variables["attnkit"] = attnkit
    for name in attnkit.__all__:
        env.variables[name] = getattr(attnkit, name)

    @env.macro
    def num(x, digits: int = 3) -> str:
        """A number rounded to ``digits`` decimals, trailing zeros kept: num(0.94649, 3) -> 0.946."""
        return f"{float(x):.{digits}f}"

    @env.macro
    def pct(x, digits: int = 1) -> str:
        """A share as a percentage: pct(0.94649) -> 94.6%."""
        return f"{100 * float(x):.{digits}f}%"

    @env.macro
    def vec(xs, digits: int = 3) -> str:
        """A vector as [a, b, c] with ``digits`` decimals."""
        return "[" + ", ".join(f"{float(x):.{digits}f}" for x in np.ravel(xs)) + "]"
