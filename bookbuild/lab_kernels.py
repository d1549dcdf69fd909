"""How the lab notebooks' kernels run (the labs are executed by mkdocs-jupyter, their output
cached by exec_cache.py): an IPython startup file that memoizes bookcache.MEMOIZED in every kernel,
with this repository's attnkit first on the path, and nbconvert's settings (a cell's printed lines
merged into one output), in a Jupyter config folder of their own: a contributor's ~/.jupyter does
not change the book. Both are written under the cache folder by :func:`configure`, every build.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.exceptions import PluginError

from .bookcache import CACHE, MEMOIZED, ROOT, write_atomically


KERNEL_STARTUP = """\
# Written by bookbuild/lab_kernels.py for the lab notebooks' kernels (IPYTHONDIR points here):
# this repository's attnkit, and the figure workers' disk memo of its expensive pure calls.
def _book_memoize():
    import sys
    sys.path.insert(0, {root!r})
    from bookbuild import bookcache
    bookcache.memoize({names!r})
_book_memoize()
del _book_memoize
"""


def nbconvert_config() -> str:
    """nbconvert's config file for the labs (read by mkdocs-jupyter's NbConvertApp): the installed
    nbconvert's preprocessors with CoalesceStreamsPreprocessor moved after ExecutePreprocessor,
    and enabled. (nbclient's own ``coalesce_streams`` cannot be set from a config.)"""
    import json

    from nbconvert.exporters.exporter import Exporter

    order = list(Exporter.class_traits()["default_preprocessors"].default())
    coalesce, execute = "nbconvert.preprocessors.CoalesceStreamsPreprocessor", "nbconvert.preprocessors.ExecutePreprocessor"
    if coalesce not in order or execute not in order:
        raise PluginError(f"lab_kernels: nbconvert's preprocessors changed ({order}); update bookbuild/lab_kernels.py")
    order.remove(coalesce)
    order.insert(order.index(execute) + 1, coalesce)
    return json.dumps({"Exporter": {"default_preprocessors": order}, "CoalesceStreamsPreprocessor": {"enabled": True}},
                      indent=1) + "\n"


def _write(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_atomically(path, text.encode("utf-8"))


def configure() -> str:
    """For the labs this build runs: the IPython startup file that memoizes :data:`MEMOIZED` in
    every kernel (``IPYTHONDIR``), and the Jupyter config folder with nbconvert's settings
    (``JUPYTER_CONFIG_DIR``: a contributor's own ~/.jupyter does not change the book). Kernels
    and nbconvert inherit the build's environment."""
    _write(CACHE / "ipython" / "profile_default" / "startup" / "00-book-memo.py",
           KERNEL_STARTUP.format(root=str(ROOT), names=MEMOIZED))
    nbconvert = nbconvert_config()
    _write(CACHE / "jupyter" / "jupyter_nbconvert_config.json", nbconvert)
    os.environ["IPYTHONDIR"] = str(CACHE / "ipython")
    os.environ["JUPYTER_CONFIG_DIR"] = str(CACHE / "jupyter")
    return nbconvert
