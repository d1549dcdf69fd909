"""`python tools/vendor_pyodide.py [--check]`: bookbuild/vendor_pyodide.py's command line (see its docstring)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild
from bookbuild.vendor_pyodide import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
