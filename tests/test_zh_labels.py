"""Chinese labels in figures and widgets use Chinese punctuation.

The text of a figure is drawn as outlines (tests/test_typography.py cannot read it) and a widget's
labels are written by JavaScript, so their Chinese is checked where it is written: the Chinese
argument of every ``tr(lang, "中文", "English")`` in attnkit/figures/, and every string under a
``"zh"`` key in bookbuild/widgets.py, docs/widget-labels.yml, docs/labels.yml and attnkit/. A Chinese
label separates with ，：； as Chinese text does; "i = 12, j = 9：第 3 对" and "MHA: n_kv_heads = 8" were drawn that way.
"""

from __future__ import annotations

import ast
import re

import pytest

from book import ROOT

HAN = re.compile(r"[\u4e00-\u9fff]")
# a half-width comma, colon or semicolon between words: "i = 12, j = 9", "MHA: n", not "1, 2, 3" or
# the coordinates "(3, 5)"
HALF = re.compile(r"[,:;] (?=[A-Za-z\u4e00-\u9fff{])")
PARENTHESES = re.compile(r"\([^()]*\)")


def zh_labels(path) -> list[tuple[int, str]]:
    """(line, text) of each Chinese label in a Python file: tr()'s second argument, values under "zh"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def text(node) -> str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        return ""

    def strings(node):
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Constant, ast.JoinedStr)) and text(sub):
                yield sub.lineno, text(sub)

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and len(node.args) >= 2:
            found += list(strings(node.args[1]))
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "zh":
                    found += list(strings(value))
    return found


def half_width(path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in zh_labels(path) if wrong(text)]


def wrong(text: str) -> bool:
    return bool(HAN.search(text) and HALF.search(PARENTHESES.sub("", text)))


# attnkit/exercise.py's Chinese messages quote Python ("def f(...):", "return a, b"), which keeps
# Python's punctuation.
FILES = sorted([*(ROOT / "attnkit" / "figures").glob("*.py"), ROOT / "bookbuild" / "widgets.py",
                *(p for p in (ROOT / "attnkit").glob("*.py") if p.name != "exercise.py")])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_chinese_labels_use_chinese_punctuation(path):
    problems = half_width(path)
    assert not problems, "Chinese labels with half-width punctuation (use ，：；):\n" + "\n".join(problems)


def test_the_check_itself(tmp_path):
    source = tmp_path / "fig.py"
    source.write_text('tr(lang, f"i = {i}, j = {j}：第 {p} 对", "i, j")\nL = {"zh": {"a": "配置来源: x"}, "en": {"a": "b: c"}}\n'
                      'tr(lang, "MHA：n_kv_heads = 8", "MHA: n")\nt = tr(lang, "(n, n) 的表", "x")\n', encoding="utf-8")
    assert [t for _, t in zh_labels(source) if wrong(t)] == ["i = {}, j = {}：第 {} 对", "配置来源: x"]
    assert not wrong("直接数数：1, 2, 3, …") and not wrong("最低点：({}, {})") and wrong("MHA: n_kv_heads = {}（头）")


def leaves(value, where=""):
    """(place, text) of every string in a YAML value: a label may be a list or a mapping of labels."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in leaves(v, f"{where}[{i}]")]
    return [(where, value)]


@pytest.mark.parametrize("name", ["widget-labels.yml", "labels.yml"])
def test_the_words_in_chinese_use_chinese_punctuation(name):
    """docs/widget-labels.yml, the words the widgets show (bookbuild/widgets.py, exercise_pages.py read it), and
    docs/labels.yml, the words the build writes around the pages' content (course.py, slides.py, questions.py)."""
    import yaml

    words = yaml.safe_load((ROOT / "docs" / name).read_text(encoding="utf-8"))
    problems = [f"{part}.zh{where}: {text!r}" for part, langs in words.items()
                for where, text in leaves(langs["zh"]) if wrong(text)]
    assert not problems, "Chinese labels with half-width punctuation (use ，：；):\n" + "\n".join(problems)
    shape = lambda value: [where for where, _ in leaves(value)]   # noqa: E731
    assert all(shape(langs["zh"]) == shape(langs["en"]) for langs in words.values()), "the languages name different words"
