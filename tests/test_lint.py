"""No unused import, undefined name or unused variable in the code: ruff's pyflakes rules (F).

Dead names are how a module starts lying about what it needs; nine had crept in (tests, bench
programs, attnkit) before this test. The listings (snippets/) and the exercises' starting code are
left out on purpose: they import NumPy for the reader, who edits them in the page.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["attnkit", "bookbuild", "tools", "bench", "tests", "questions"]


def test_no_unused_or_undefined_names():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.fail("ruff is not installed: `make setup` installs the test extras (pyproject.toml)")
    done = subprocess.run([ruff, "check", "--no-cache", "--select", "F", "--output-format", "concise", *CHECKED],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
