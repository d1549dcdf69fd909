"""The grader, ``python -m attnkit.grade DIR`` (attnkit/grade.py), run as a teacher runs it.

A class folder with, for one student each: a right answer, answers that hard-code the page's cases
(ch5-layer-cost and ch8-causal-mask, the two the issue found passing, and ch3-softmax), a loop that
never ends, a crash, megabytes printed (through print and straight to the process's output), a
call of the book's own function, os._exit(), sys.exit(), code that changes Python, a memory hog and
a child process left running: each gets its row, with the columns student,exercise,passed,detail.
Then what a class hands in by mistake (names of no exercise, other files, empty, non-UTF-8, a BOM, a
coding line, too large, two copies, zips, a broken zip) and what a teacher types by mistake (a
missing DIR, a file, an empty folder, seed 0, an unknown --expect): a clear row or message, never a
traceback. Every exercise's reference solution passes in the grader and a wrong one fails.
"""

from __future__ import annotations

import csv
import io
import os
import runpy
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from attnkit import grade as G
from attnkit.exercise import PAGE_SEED
from bookbuild.listings import for_language

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = {ex.id: ex for ex in (runpy.run_path(str(p))["EXERCISE"] for p in sorted((ROOT / "exercises").glob("ch*/*.py")))}
SEED = 20_261_206


def run(args, **kwargs) -> subprocess.CompletedProcess:
    """python -m attnkit.grade, as a teacher runs it (this worktree's attnkit)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    return subprocess.run([sys.executable, "-m", "attnkit.grade", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=kwargs.pop("cwd", "/"), timeout=kwargs.pop("timeout", 300), **kwargs)


def rows_of(stdout: str) -> dict[tuple[str, str], dict]:
    reader = csv.DictReader(io.StringIO(stdout))
    assert reader.fieldnames == ["student", "exercise", "passed", "detail"], reader.fieldnames
    rows = {}
    for row in reader:
        key = (row["student"], row["exercise"])
        assert key not in rows, f"two rows for {key}"
        assert row["passed"] in ("0", "1"), row
        assert row["detail"].strip(), row
        assert "Traceback" not in row["detail"] and "attnkit/grade.py" not in row["detail"], row
        rows[key] = row
    return rows


def hard_coded(ex, by: str = "input") -> str:
    """An answer that knows only the page's listed cases (tests/test_exercises.py writes it from them)."""
    import test_exercises

    return test_exercises.hard_coded(ex, by)


def solution(exercise_id: str) -> str:
    return for_language(EXERCISES[exercise_id].solution, "en")


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


SOFTMAX_HEAD = "import numpy as np\n\ndef softmax(x):\n"
CLASS = {
    # student: (exercise id, source, passes, what the detail says)
    "right": ("ch3-softmax", solution("ch3-softmax"), True, "All 3 cases pass."),
    "hard-coded-cost": ("ch5-layer-cost", hard_coded(EXERCISES["ch5-layer-cost"]), False, "not listed under Hints"),
    "hard-coded-mask": ("ch8-causal-mask", hard_coded(EXERCISES["ch8-causal-mask"], "order"), False, "not listed under Hints"),
    "hard-coded-softmax": ("ch3-softmax", hard_coded(EXERCISES["ch3-softmax"]), False, "not listed under Hints"),
    "loops": ("ch3-softmax", SOFTMAX_HEAD + "    while True:\n        pass\n", False, "Stopped after 3 s"),
    "loops-at-the-top": ("ch3-softmax", "while True:\n    pass\n", False, "Stopped after 3 s"),
    "crashes": ("ch3-softmax", SOFTMAX_HEAD + "    return x / 0 + [1, 2]\n", False, "stopped at line 4"),
    "prints-megabytes": ("ch3-softmax", SOFTMAX_HEAD + "    print('x' * 3_000_000)\n"
                         "    e = np.exp(x - np.max(x))\n    return e / e.sum()\n", False, "printed more than 20,000"),
    "writes-megabytes": ("ch3-softmax", "import os\n" + SOFTMAX_HEAD + "    os.write(1, b'y' * 3_000_000)\n"
                         "    e = np.exp(x - np.max(x))\n    return e / e.sum()\n", False, "printed more than 20,000"),
    "prints-forever": ("ch3-softmax", SOFTMAX_HEAD + "    while True:\n        print('again and again')\n", False,
                       "Stopped after 3 s"),
    "writes-forever": ("ch3-softmax", "import sys\n" + SOFTMAX_HEAD + "    while True:\n"
                       "        sys.__stdout__.write('again and again\\n')\n", False, "printing all the while"),
    "calls-the-book": ("ch3-attention", "from attnkit.core import scaled_dot_product_attention as attention\n", False,
                       "the book's own function from attnkit"),
    "ends-python": ("ch3-softmax", "import os\n" + SOFTMAX_HEAD + "    os._exit(3)\n", False, "exit code 3"),
    "sys-exit": ("ch3-softmax", "import sys\nsys.exit(1)\n", False, "asked Python to stop"),
    "changes-python": ("ch3-softmax", "import numpy\nnumpy.allclose = lambda *a, **k: True\n" + SOFTMAX_HEAD
                       + "    return x\n", False, "numpy.allclose was replaced"),
    "memory-hog": ("ch3-softmax", SOFTMAX_HEAD + "    big = np.ones((60_000, 60_000))\n    return big\n", False,
                   "MemoryError"),
    "leaves-a-child": ("ch3-softmax", "import subprocess, sys\n"
                       "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)  # left-behind-by-a-hand-in'])\n"
                       + SOFTMAX_HEAD + "    e = np.exp(x - np.max(x))\n    return e / e.sum()\n", True, "All 3 cases pass."),
}


def test_a_class_gets_one_clear_row_per_hand_in(tmp_path):
    """The CI class: a right answer passes on drawn cases only; hard-coded answers, loops, crashes,
    megabytes, the book's function, os._exit, sys.exit, a changed Python and a memory hog fail, each
    with its own detail; the time limit holds; nothing is left running."""
    for student, (exercise_id, source, _, _) in CLASS.items():
        write(tmp_path / student, f"{exercise_id}.py", source)
    started = time.perf_counter()
    done = run([tmp_path, "--seed", SEED, "--timeout", 3, "--jobs", 2, "--lang", "en"])
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    rows = rows_of(done.stdout)
    assert set(rows) == {(s, e) for s, (e, *_rest) in CLASS.items()}, sorted(rows)
    for student, (exercise_id, _, passes, says) in CLASS.items():
        row = rows[(student, exercise_id)]
        assert row["passed"] == ("1" if passes else "0"), (student, row["detail"])
        assert says in row["detail"], (student, row["detail"])
    # the drawn cases, never the listed ones: the right answer's detail counts the drawn cases
    drawn = len(EXERCISES["ch3-softmax"].draw(SEED))
    assert rows[("right", "ch3-softmax")]["detail"] == f"All {drawn} cases pass."
    # three loops of 3 s on two workers, and the rest: well under the time a runaway would take
    assert seconds < 120, f"the class took {seconds:.0f} s"
    assert list(csv.reader(io.StringIO(done.stdout)))[1][0] == sorted(CLASS)[0], "rows are sorted by student"
    assert f"seed {SEED}" in done.stderr
    left = subprocess.run(["pgrep", "-f", "left-behind-by-a-hand-in"], capture_output=True, text=True)
    assert left.returncode == 1, f"a hand-in's child process is still running: {left.stdout}"


def test_the_same_class_in_chinese(tmp_path):
    """--lang zh: the details are the checker's and the grader's Chinese sentences."""
    for student in ("right", "loops", "prints-megabytes", "hard-coded-cost"):
        exercise_id, source, *_ = CLASS[student]
        write(tmp_path / student, f"{exercise_id}.py", source)
    done = run([tmp_path, "--seed", SEED, "--timeout", 2, "--jobs", 2, "--lang", "zh"])
    rows = rows_of(done.stdout)
    assert rows[("right", "ch3-softmax")]["detail"].startswith("全部") and rows[("right", "ch3-softmax")]["passed"] == "1"
    assert "运行了 2 秒还没有结束" in rows[("loops", "ch3-softmax")]["detail"]
    assert "打印了超过 20,000 个字符" in rows[("prints-megabytes", "ch3-softmax")]["detail"]
    assert "提示里没有列出" in rows[("hard-coded-cost", "ch5-layer-cost")]["detail"]


def test_another_seed_draws_other_cases_and_the_same_seed_the_same(tmp_path):
    """A wrong answer's detail names a drawn case: the same with the same seed, another with another."""
    write(tmp_path / "amy", "ch5-layer-cost.py", hard_coded(EXERCISES["ch5-layer-cost"]))
    details = [rows_of(run([tmp_path, "--seed", seed, "--jobs", 1]).stdout)[("amy", "ch5-layer-cost")]["detail"]
               for seed in (11, 11, 12)]
    assert details[0] == details[1] != details[2]


def test_every_reference_solution_passes_in_the_grader_and_a_wrong_one_fails(tmp_path):
    """Under the grader's limits (its own process, the memory limit, the drawn cases alone)."""
    for exercise_id, ex in EXERCISES.items():
        write(tmp_path / "reference", f"{exercise_id}.py", for_language(ex.solution, "zh"))
        write(tmp_path / "mistaken", f"{exercise_id}.py", next(iter(ex.wrong.values())).source)
    done = run([tmp_path, "--seed", SEED, "--jobs", 2, "--lang", "en"])
    rows = rows_of(done.stdout)
    for exercise_id in EXERCISES:
        assert rows[("reference", exercise_id)]["passed"] == "1", rows[("reference", exercise_id)]
        assert rows[("mistaken", exercise_id)]["passed"] == "0", rows[("mistaken", exercise_id)]
    order = [row["exercise"] for row in csv.DictReader(io.StringIO(done.stdout)) if row["student"] == "reference"]
    assert order.index("ch2-weighted-mix") < order.index("ch10-kv-bytes"), "chapters in the book's order"


def test_what_a_class_hands_in_by_mistake_gets_a_clear_row(tmp_path):
    ex = EXERCISES["ch3-softmax"]
    write(tmp_path / "ann", "ch3-softmax (1).py", ex.solution)                    # a browser's second download
    write(tmp_path / "ann", "CH3-Softmax.py", ex.solution)
    write(tmp_path / "ann", "notes.txt", "my notes")
    write(tmp_path / "ann", "solution.ipynb", "{}")
    write(tmp_path / "ann", ".DS_Store", b"\x00\x01")                            # hidden: not a hand-in
    write(tmp_path / "ann", "__pycache__/ch3-softmax.cpython-311.pyc", b"\x00")
    write(tmp_path / "ben", "ch3-softmax.py", "")                                  # empty
    write(tmp_path / "ben", "ch3-attention.py", "   \n\n")                         # blank
    write(tmp_path / "ben", "ch4-split-heads.py", "# 注释\n".encode("gbk") + b"def split_heads(x, h):\n    return x\n")
    write(tmp_path / "ben", "ch5-layer-cost.py", b"\x89PNG\r\n\x1a\n\x00\x00")       # not text
    write(tmp_path / "cat", "ch3-softmax.py", "\ufeff" + ex.solution)              # a BOM (Windows Notepad)
    write(tmp_path / "cat", "ch4-split-heads.py",                                  # GBK with its coding line
          ("# -*- coding: gbk -*-\n# 切分成头\n" + for_language(EXERCISES["ch4-split-heads"].solution, "en")).encode("gbk"))
    write(tmp_path / "cat", "ch5-layer-cost.py", b"# -*- coding: klingon -*-\nx = 1\n")
    write(tmp_path / "dan", "ch3-softmax.py", ex.solution)
    write(tmp_path / "dan", "week3/ch3-softmax.py", ex.solution)                   # two copies
    write(tmp_path / "dan", "week3/ch3-attention.py", solution("ch3-attention"))   # a subfolder is fine
    write(tmp_path / "eve", "ch8-causal-mask.py", "x = 1\n" * 200_000)             # 1.2 MB
    (tmp_path / "fay").mkdir()                                                     # nothing handed in
    write(tmp_path, "README.txt", "the class of 2026")                              # not a student
    done = run([tmp_path, "--seed", SEED, "--jobs", 2, "--lang", "en"])
    assert done.returncode == 0, done.stderr
    rows = rows_of(done.stdout)
    detail = {key: (row["passed"], row["detail"]) for key, row in rows.items()}
    assert "Did you mean ch3-softmax.py?" in detail[("ann", "ch3-softmax (1).py")][1]
    assert "Did you mean ch3-softmax.py?" in detail[("ann", "CH3-Softmax.py")][1]
    assert "Not a .py file" in detail[("ann", "notes.txt")][1] and "Not a .py file" in detail[("ann", "solution.ipynb")][1]
    assert not any(".DS_Store" in key[1] or "pyc" in key[1] for key in rows)
    assert detail[("ben", "ch3-softmax")] == ("0", "The file is empty.")
    assert detail[("ben", "ch3-attention")] == ("0", "The file is empty.")
    assert "not UTF-8 text (it cannot be read from byte 5 on)" in detail[("ben", "ch4-split-heads")][1]
    assert "not UTF-8" in detail[("ben", "ch5-layer-cost")][1]
    assert detail[("cat", "ch3-softmax")][0] == "1", detail[("cat", "ch3-softmax")]
    assert detail[("cat", "ch4-split-heads")][0] == "1", detail[("cat", "ch4-split-heads")]
    assert "klingon" in detail[("cat", "ch5-layer-cost")][1]
    assert "More than one file" in detail[("dan", "ch3-softmax")][1] and "dan/week3/ch3-softmax.py" in detail[("dan", "ch3-softmax")][1]
    assert detail[("dan", "ch3-attention")][0] == "1"
    assert "more than the 1000000 an exercise can need" in detail[("eve", "ch8-causal-mask")][1]
    assert detail[("fay", "")] == ("0", "No files in here.")
    assert "Skipped README.txt" in done.stderr


def test_zips_as_the_page_saves_them_are_graded(tmp_path):
    """alice.zip is alice's work (the page's "Download all my work"); a broken zip gets its row."""
    with zipfile.ZipFile(tmp_path / "alice.zip", "w") as z:
        z.writestr("ch3-softmax.py", solution("ch3-softmax"))
        z.writestr("ch3-attention.py", "def attention(q, k, v):\n    return q\n")
        z.writestr("__MACOSX/._ch3-softmax.py", b"\x00\x05")
    (tmp_path / "bob.zip").write_bytes(b"PK\x03\x04 this is not really a zip")
    with zipfile.ZipFile(tmp_path / "cid.zip", "w") as z:
        z.writestr("seeing-attention/ch4-split-heads.py", solution("ch4-split-heads"))   # unzipped into a folder
    done = run([tmp_path, "--seed", SEED, "--jobs", 2, "--expect", "ch3-softmax,ch4"])
    rows = rows_of(done.stdout)
    assert rows[("alice", "ch3-softmax")]["passed"] == "1"
    assert rows[("alice", "ch3-attention")]["passed"] == "0"
    assert "cannot be opened" in rows[("bob", "bob.zip")]["detail"]
    assert rows[("cid", "ch4-split-heads")]["passed"] == "1"
    # --expect: a row for each expected exercise not handed in
    assert rows[("cid", "ch3-softmax")]["detail"] == "Not handed in."
    assert rows[("alice", "ch4-positional-encoding")]["detail"] == "Not handed in."
    assert ("alice", "ch3-attention") in rows and ("cid", "ch3-attention") not in rows


@pytest.mark.parametrize("case", ["missing", "file", "empty", "only-files", "page-seed", "expect", "bad-timeout",
                                  "no-exercises"])
def test_what_a_teacher_types_by_mistake_gets_a_message(tmp_path, case):
    folder = tmp_path / "class"
    folder.mkdir()
    write(folder / "amy", "ch3-softmax.py", solution("ch3-softmax"))
    args = {
        "missing": [tmp_path / "nowhere"],
        "file": [folder / "amy" / "ch3-softmax.py"],
        "empty": [tmp_path / "empty"],
        "only-files": [folder / "amy"],
        "page-seed": [folder, "--seed", PAGE_SEED],
        "expect": [folder, "--expect", "ch3,chapter-three"],
        "bad-timeout": [folder, "--timeout", 0],
        "no-exercises": [folder, "--exercises", tmp_path],
    }[case]
    (tmp_path / "empty").mkdir()
    done = run(args)
    says = {
        "missing": "No such folder to grade", "file": "is not a folder", "empty": "holds no student",
        "only-files": "holds no student", "page-seed": "Seed 0 is the one the page", "expect": "chapter-three",
        "bad-timeout": "--timeout must be positive", "no-exercises": "No exercises",
    }[case]
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == ""


def test_without_a_seed_one_is_drawn_and_said(tmp_path):
    write(tmp_path / "amy", "ch3-softmax.py", solution("ch3-softmax"))
    done = run([tmp_path, "--lang", "zh"])
    assert done.returncode == 0 and "随机选的" in done.stderr and "--seed " in done.stderr, done.stderr
    assert rows_of(done.stdout)[("amy", "ch3-softmax")]["passed"] == "1"


def test_a_bom_for_excel_on_request(tmp_path):
    write(tmp_path / "amy", "ch3-softmax.py", solution("ch3-softmax"))
    done = run([tmp_path, "--seed", SEED, "--bom"])
    assert done.stdout.startswith("\ufeffstudent,exercise,passed,detail\n")


def test_decode_reads_as_python_reads_a_source_file():
    assert G.decode("x = '注意力'\n".encode("utf-8")) == ("x = '注意力'\n", None)
    assert G.decode(b"\xef\xbb\xbfx = 1\n") == ("x = 1\n", None)
    assert G.decode("# coding: gbk\nx = '注意'\n".encode("gbk"))[0].endswith("'注意'\n")
    assert G.decode(b"x = 1\n\xff\n")[1] == ("not_utf8", {"at": 7})
    assert G.decode(b"# coding: nope\n")[1][0] == "bad_cookie"
    assert G.exercise_id("a/b/ch3-softmax.py") == "ch3-softmax" and G.exercise_id("ch3-softmax.PY") is None
