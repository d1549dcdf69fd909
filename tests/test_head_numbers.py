"""The book numbers attention heads from 1 (issue 14, §4): "head 1", "头 1", never "head A" / "头 B".

Read from the sources a reader meets: the pages, the listings (their code and the labels they
print) and the figure and widget labels attnkit defines.
"""

from __future__ import annotations

import re

import pytest

from book import DOCS, ROOT

LETTER_HEAD = re.compile(r"\b[Hh]eads? [A-H]\b(?![-\w])|头 ?[A-H](?![A-Za-z_])")
SOURCES = sorted([*DOCS.glob("**/*.md"), *DOCS.glob("**/*.yml"), *(ROOT / "snippets").glob("**/*.py"),
                  *(ROOT / "attnkit").glob("**/*.py")])


@pytest.mark.parametrize("text, hit", [
    ("head A: the animal before me", True), ("heads A and B", True), ("头 B：我后面的动物", True),
    ("头A", True), ("head 1: the animal before me", False), ("头 1、头 2", False),
    ("a head A_1 matrix", False), ("ahead A", False), ("Head-A-style", False),
])
def test_the_pattern_itself(text, hit):
    assert bool(LETTER_HEAD.search(text)) == hit


def test_heads_are_numbered_not_lettered():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in SOURCES
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if LETTER_HEAD.search(line)]
    assert not found, "heads are numbered from 1 (head 1, 头 1):\n" + "\n".join(found)
