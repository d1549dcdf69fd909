"""Run a listing as one book shows it, on your own computer:

    python tools/listings.py snippets/ch3/softmax_cake.py --lang zh

The ``# [zh]`` / ``# [en]`` filter itself is bookbuild/listings.py (the build uses it too).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild
from bookbuild.listings import main  # noqa: E402

if __name__ == "__main__":
    main()
