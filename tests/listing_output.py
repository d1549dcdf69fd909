"""What a reader sees wrong in a listing's printed output: ragged tables, and in the Chinese book
numbers written the Western way (2e-09, 11,000,000). test_listings.py runs every listing once per
language and asks :func:`output_problems`; test_listing_output.py tests the checks themselves."""

import re

from attnkit.text import width

# Chapters whose listings have been laid out with attnkit.text (pad/row/sci/wan). A chapter joins
# when its tables line up and its Chinese output writes numbers the Chinese way.
CHECKED_CHAPTERS = {"ch0", "ch1", "ch2", "ch3", "ch4", "ch5", "ch6", "ch7", "ch8", "ch9", "ch10"}

CELL = re.compile(r"\S+(?: \S+)*")  # in a printed table, cells are separated by two or more spaces
E_NOTATION = re.compile(r"\d(?:\.\d+)?e[+-]?\d+\b")
GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d.])")


def cells(line: str) -> list[tuple[int, int]]:
    """(first column, one past the last column) of each cell of ``line``, in display columns."""
    found = []
    for m in CELL.finditer(line):
        start = width(line[: m.start()])
        found.append((start, start + width(m.group())))
    return found


def table_problems(output: str) -> list[str]:
    """Lines of a printed table whose columns do not line up with the table's last row.

    A table is three or more consecutive lines with the same number (at least three) of cells,
    not counting NumPy array rows. A column lines up when each of its cells shares its left edge
    or its right edge with the last row's cell (left- or right-aligned), counted in display
    columns, where a Han character takes two."""
    problems = []
    lines = output.splitlines()
    i = 0
    while i < len(lines):
        n = len(cells(lines[i]))
        j = i
        while n >= 3 and j < len(lines) and len(cells(lines[j])) == n and not lines[j].lstrip().startswith("["):
            j += 1
        if j - i < 3:
            i += 1
            continue
        last = cells(lines[j - 1])
        for line in lines[i : j - 1]:
            for column, ((a, b), (c, d)) in enumerate(zip(cells(line), last), 1):
                if a != c and b != d:
                    problems.append(f"column {column} does not line up with the last row {lines[j - 1].strip()!r}: {line.rstrip()!r}")
                    break
        i = j
    return problems


def number_problems(output: str) -> list[str]:
    """Numbers in Chinese output written the Western way (use attnkit.text.sci / wan)."""
    problems = []
    for number, line in enumerate(output.splitlines(), 1):
        for name, pattern in (("e-notation", E_NOTATION), ("digit grouping", GROUPED)):
            if pattern.search(line):
                problems.append(f"output line {number} has {name}: {line.strip()}")
    return problems


def output_problems(name: str, output: str, lang: str) -> list[str]:
    """Everything above for listing ``name`` (``chN/stem.py``) as the ``lang`` book prints it."""
    if name.split("/")[0] not in CHECKED_CHAPTERS:
        return []
    problems = table_problems(output)
    if lang == "zh":
        problems += number_problems(output)
    return problems
