"""Compute the book's figures and widget data before MkDocs runs (`make data`; bookbuild/data.py).

    python tools/data.py               # both languages
    python tools/data.py --lang en     # one
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild

from bookbuild.data import main  # noqa: E402

if __name__ == "__main__":
    main()
