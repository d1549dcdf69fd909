"""Make the built site the one to deploy, in place, check it, and print its size by part.

    python tools/publish.py [--site site] [--check]

`make publish` runs it after `make pdf`, CI after `make test`; what leaves the site and what is
checked: bookbuild/publish.py. It fails (exit 1) when a page, stylesheet or script names a file
the site does not have, or when the site holds a file nothing names. --check only checks (and prints).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the repository, for bookbuild (not installed)
from bookbuild import publish  # noqa: E402

MB = 1024 * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--check", action="store_true", help="only check the site and print its size")
    args = parser.parse_args()
    site = args.site
    if not (site / "index.html").is_file():
        sys.exit(f"{site} holds no built site: run `make pdf` (or `make publish`) first")
    before = publish.total(site)
    if not args.check:
        for reason, files in publish.lean(site).items():
            print(f"left the site ({reason}): {len(files)} files")
    found = publish.problems(site)
    print(f"{site}: {publish.total(site) / MB:.1f} MB" + ("" if args.check else f" (was {before / MB:.1f} MB)"))
    for part, size, count in publish.parts(site):
        print(f"  {part:<40s}{size / MB:7.2f} MB {count:6d} files")
    if found:
        sys.exit(f"{len(found)} problems:\n  " + "\n  ".join(found[:40]))


if __name__ == "__main__":
    main()
