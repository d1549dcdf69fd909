"""Numbers written into sentences by the page macros (bookbuild/macros.py) round as a reader does
and carry a real minus sign."""

import pytest

from bookbuild.macros import fixed, sci, zhnum


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


def test_chinese_and_scientific_numbers_carry_a_real_minus_too():
    assert zhnum(-23000) == "\u22122.3 万" and zhnum(-0.25) == "\u22120.25" and zhnum(1100e4) == "1100 万"
    assert sci(-2.1e-9) == "\u22122.1×10⁻⁹" and sci(3e5, 1) == "3×10⁵"
