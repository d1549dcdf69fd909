"""Fetch the Pyodide files the playground serves, check them, and cache them in .cache/pyodide/.

    python tools/vendor_pyodide.py            # fetch what is missing, verify everything
    python tools/vendor_pyodide.py --check    # verify the cache only (no network)

The work is done by bookbuild/vendor_pyodide.py (the build checks the same pins).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild
from bookbuild.vendor_pyodide import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
