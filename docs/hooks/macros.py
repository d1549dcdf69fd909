"""Numbers in the prose come from attnkit, computed while the page is built.

Pages write a computation instead of typing its result, for example
``{{ pct(softmax([5, 2, 0])[0]) }}`` renders as ``94.6%``. Available names:
``np`` (NumPy), ``attnkit``, every public attnkit function, and the formatters below.
"""

from __future__ import annotations

import numpy as np

import attnkit


def define_env(env):
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
