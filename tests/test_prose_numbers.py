"""Numbers written into sentences by the page macros (bookbuild/macros.py) round as a reader does
and carry a real minus sign."""

import pytest

from bookbuild.macros import fixed


@pytest.mark.parametrize("x, digits, shown", [
    (6.25, 1, "6.3"),            # 100 * 1/16: Python's format rounds this exact tie to even, 6.2
    (0.125, 2, "0.13"),
    (2.675, 2, "2.68"),          # the float is a hair below 2.675; a reader who sees 2.675 rounds up
    (0.94649, 3, "0.946"),
    (-0.0015, 3, "\u22120.002"),  # a minus sign, not a hyphen
    (-0.0004, 3, "0.000"),       # no "−0.000"
    (-12.5, 0, "\u221213"),
    (3, 2, "3.00"),
])
def test_fixed_rounds_ties_away_from_zero_with_a_real_minus(x, digits, shown):
    assert fixed(x, digits) == shown


def test_fixed_leaves_what_is_not_a_number_readable():
    assert fixed(float("nan"), 2) == "nan" and fixed(float("inf"), 1) == "inf"
