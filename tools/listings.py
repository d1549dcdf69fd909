"""Run a listing as one book shows it, on your own computer (plain ``python`` prints both languages' lines):

    python tools/listings.py snippets/ch3/softmax_cake.py --lang zh

The ``# [zh]`` / ``# [en]`` filter is the build's (bookbuild/listings.py, standard library only).
"""

import argparse
import runpy
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repository, for bookbuild
from bookbuild.listings import LANGS, for_language  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run a listing of snippets/ in one language.")
    parser.add_argument("listing", type=Path, help="e.g. snippets/ch3/softmax_cake.py")
    parser.add_argument("--lang", choices=LANGS, default="zh", help="which book's lines to keep (default zh)")
    args = parser.parse_args(argv)
    if not args.listing.is_file():
        parser.error(f"no such listing: {args.listing}")
    source = for_language(args.listing.read_text(encoding="utf-8"), args.lang)
    with tempfile.TemporaryDirectory() as tmp:   # a file, so that a traceback shows the lines that ran
        script = Path(tmp) / args.listing.name
        script.write_text(source, encoding="utf-8")
        sys.argv = [str(script)]
        runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
