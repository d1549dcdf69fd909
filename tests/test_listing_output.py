"""The checks test_listings.py applies to every listing's output (see listing_output.py)."""

from listing_output import number_problems, output_problems, table_problems

# Before attnkit.text: f"{s:<8}" counts a Han character as one column, so the header drifts.
RAGGED = (
    "第几步    w       损失\n"
    "   0    0.000   76.0200\n"
    "  30    4.036    0.0140\n"
)
ALIGNED = (
    "第几步        w      损失\n"
    "     0    0.000   76.0200\n"
    "    30    4.036    0.0140\n"
)


def test_a_ragged_chinese_table_is_seen_and_an_aligned_one_is_not():
    assert table_problems(RAGGED) == [
        "column 1 does not line up with the last row '30    4.036    0.0140': '第几步    w       损失'"]
    assert table_problems(ALIGNED) == []


def test_left_aligned_columns_line_up_too_and_numpy_rows_and_prose_are_not_tables():
    assert table_problems("起点      损失\n完全相同  0.31\n随机      0.24\n") == []
    assert table_problems("[[0.   0.5  0.5]\n [0.1  0.2  0.7]\n [1.   0.   0. ]]\n") == []
    assert table_problems("权重： (6, 6)  每行加起来是 1： True\n变了： True\n") == []


def test_western_numbers_are_seen_in_chinese_output():
    assert number_problems("第 40 步 1.33e-07\n分数 10,000,000,000\n比 0.5 小\n") == [
        "output line 1 has e-notation: 第 40 步 1.33e-07",
        "output line 2 has digit grouping: 分数 10,000,000,000"]
    assert number_problems("第 40 步 1.33×10⁻⁷\n分数 100 亿\n(3, 5) 处的损失\n") == []


def test_english_output_may_use_e_notation_and_unchecked_chapters_are_skipped():
    assert output_problems("ch1/x.py", "t=40 1.33e-07 10,000\n", "en") == []
    assert output_problems("ch1/x.py", "t=40 1.33e-07\n", "zh") == ["output line 1 has e-notation: t=40 1.33e-07"]
    assert output_problems("ch9/x.py", "t=40 1.33e-07\n", "zh") == ["output line 1 has e-notation: t=40 1.33e-07"]
    assert output_problems("ch99/x.py", "t=40 1.33e-07\n", "zh") == []   # a chapter not yet in CHECKED_CHAPTERS


def test_a_reader_can_run_a_listing_in_one_language():
    """The home page tells readers to run listings with tools/listings.py: as the page shows them."""
    import subprocess
    import sys

    from book import ROOT
    for lang, first in (("zh", "猫："), ("en", "cat:")):
        result = subprocess.run([sys.executable, "tools/listings.py", "snippets/ch0/vectors.py", "--lang", lang],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(first), result.stdout
