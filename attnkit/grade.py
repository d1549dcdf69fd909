"""Grade a class's hand-ins: ``python -m attnkit.grade DIR``.

``DIR`` holds one folder per student, named after the student, with one ``<exercise-id>.py``
file per exercise (``alice/ch3-softmax.py``: what the page's "Download my code" saves), or one
zip per student (``alice.zip``: what "Download all my work" saves). The grader prints CSV on
standard output, one row per file, with the columns ``student,exercise,passed,detail``:
``passed`` is 1 or 0 (a spreadsheet sums it), ``detail`` says why, in the language of ``--lang``.

Each file is checked by :func:`attnkit.exercise.check` on cases drawn from ``--seed`` only
(``shown=False``), never on the cases the page lists: an answer that hard-codes the page's
cases fails. Choose a seed of your own and keep it to yourself (without ``--seed`` one is drawn
at random and printed on standard error, so that the same cases can be graded again); seed 0
is the one the page draws its own extra cases from, which a reader sees when one fails, so it
is refused.

Each file runs in a Python process of its own (the checker in the page can notice and undo what
code does to Python, :mod:`attnkit.guard`, but not everything: a process of its own forgets all
of it), with a time limit (``--timeout`` seconds, counted from when the check starts) and, where
the system allows it, a memory limit (``--memory``). Code that raises, loops, prints more than
the checker keeps, calls the book's own solution, ends Python or hard-codes the page's cases
each gets a row that says so. Files that are not UTF-8, empty, too large, not ``.py``, or named
after no exercise get a row too; a ``DIR`` that is missing or holds no student gets a message on
standard error and exit status 2. ``--expect ch3`` (exercise ids or whole chapters) adds a row
for each exercise a student did not hand in.

The students' code runs with your permissions, as any program of theirs would: grade hand-ins you
would run yourself, or grade inside an account or container made for it.

Example
-------
>>> exercise_id("ch3-softmax.py"), exercise_id("notes.txt")
('ch3-softmax', None)
>>> text, problem = decode(b"def f():\\n    return 1\\n")
>>> problem is None and text.startswith("def f")
True
>>> decode(b"x = '\\xff'\\n")[1]
('not_utf8', {'at': 6})
"""

from __future__ import annotations

import argparse
import csv
import difflib
import io
import json
import os
import runpy
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import tokenize
import zipfile
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from .exercise import LANGS, MAX_PRINTED, PAGE_SEED

__all__ = ["main", "grade", "exercise_id", "decode", "Row"]

TIMEOUT_SECONDS = 10          # a check still running after this long is stopped
STARTUP_SECONDS = 120         # how long Python may take to start and load the exercise (a busy machine)
MEMORY_MB = 2048              # the address space a submission may use (0: no limit)
MAX_FILE_BYTES = 1_000_000    # a hand-in larger than this is not run
OUTPUT_LIMIT = MAX_PRINTED    # characters a submission may print; the checker keeps as many
SKIPPED = {"__MACOSX", "__pycache__", ".ipynb_checkpoints"}
COLUMNS = ("student", "exercise", "passed", "detail")

MESSAGES = {
    "zh": {
        "timeout": "运行了 {seconds} 秒还没有结束，已停止：是不是有一个停不下来的循环？没有一个用例得到结果。",
        "timeout_printing": "运行了 {seconds} 秒还没有结束，已停止，这期间一直在打印（已打印 {printed} 个字符）：是不是有一个停不下来的循环？",
        "startup": "检查程序在 {seconds} 秒内没能启动 Python（机器太忙？）。这一份没有评分：请再运行一次评分程序。",
        "died": "检查还没结束，Python 就退出了（{how}）。代码自己结束了进程（比如 os._exit()），或者用光了内存，或者让某个 C 库崩溃了。",
        "exit_code": "退出码 {code}",
        "signal": "被信号 {signal} 终止",
        "flood": "它打印了超过 {limit} 个字符（检查程序只保留前 {limit} 个）。练习的函数用 return 交回结果，不用打印；"
                 "删掉打印语句再交一次。除此之外，检查的结果是：{verdict}",
        "checker": "评分程序自己在这一份上出了错（{error}），这不是学生的问题，请报告这个错误。",
        "no_exercise": "评分程序没能载入这个练习（{error}）。",
        "not_utf8": "这个文件不是 UTF-8 文本（第 {at} 个字节起读不通）：请存成 UTF-8 编码再交。",
        "bad_cookie": "这个文件开头声明的编码（{error}）读不了它：请存成 UTF-8 编码再交。",
        "empty": "这个文件是空的。",
        "too_large": "这个文件有 {size} 字节，超过了一个练习用得着的 {limit} 字节，没有运行。",
        "unreadable": "这个文件读不出来（{error}）。",
        "unknown": "没有哪个练习的编号是“{stem}”：文件名应当是“练习编号.py”，比如 ch3-softmax.py。{suggest}",
        "suggest": "是不是想交 {name}？",
        "not_py": "这不是 .py 文件：每个练习交一个“练习编号.py”文件。",
        "duplicate": "这个练习交了不止一个文件：{files}。只留一个，再评一次。",
        "missing": "没有交。",
        "no_files": "这里面没有文件。",
        "bad_zip": "这个 zip 文件打不开（{error}）。",
        "sep": "、",
        # standard error
        "no_dir": "找不到要评分的文件夹：{dir}",
        "not_dir": "{dir} 不是文件夹：请给出一个文件夹，里面每个学生一个子文件夹（或一个 zip 文件）。",
        "no_students": "{dir} 里没有学生：每个学生应当有一个子文件夹（或一个 zip 文件），里面放“练习编号.py”文件。",
        "stray": "跳过了 {name}：它既不是学生的文件夹，也不是 zip 文件。",
        "no_exercises": "在 {dir} 里没有找到练习（exercises/chN/*.py）：用 --exercises 指出练习所在的文件夹。",
        "load_failed": "练习文件 {path} 载入失败：{error}",
        "page_seed": "种子 {seed} 是网页自己出额外用例时用的，读者在页面上看得到这些用例：请另选一个种子。",
        "unknown_expect": "--expect 里的“{item}”既不是练习编号，也不是章（比如 ch3）。",
        "seed_drawn": "这次用的种子是 {seed}（随机选的）；用 --seed {seed} 可以用同样的用例再评一次。",
        "summary": "{students} 个学生，{rows} 行，用时 {seconds:.1f} 秒，种子 {seed}：{passed} 行通过。",
        "failed": "评分程序自己出了错：{error}",
    },
    "en": {
        "timeout": "Stopped after {seconds} s: the code was still running (a loop that never ends?). No case was marked.",
        "timeout_printing": "Stopped after {seconds} s, printing all the while ({printed} characters): the code was "
                            "still running (a loop that never ends?). No case was marked.",
        "startup": "The grader could not start Python for this file within {seconds} s (a busy machine?). "
                   "Not graded: run the grader again.",
        "died": "Python ended before the check finished ({how}): the code ended the process itself (os._exit(), say), "
                "ran out of memory, or crashed a C library.",
        "exit_code": "exit code {code}",
        "signal": "killed by signal {signal}",
        "flood": "It printed more than {limit} characters (the check keeps the first {limit}). An exercise's function "
                 "hands its answer back with return; it need not print. Remove the prints and hand it in again. "
                 "What the check found otherwise: {verdict}",
        "checker": "The grader itself failed on this file ({error}); this is not the student's fault: please report it.",
        "no_exercise": "The grader could not load this exercise ({error}).",
        "not_utf8": "The file is not UTF-8 text (it cannot be read from byte {at} on): save it as UTF-8 and hand it in again.",
        "bad_cookie": "The encoding the file declares at its top ({error}) cannot read it: save it as UTF-8 and hand it in again.",
        "empty": "The file is empty.",
        "too_large": "The file has {size} bytes, more than the {limit} an exercise can need: it was not run.",
        "unreadable": "The file could not be read ({error}).",
        "unknown": "No exercise has the id \u201c{stem}\u201d: name the file <exercise id>.py, for example ch3-softmax.py.{suggest}",
        "suggest": " Did you mean {name}?",
        "not_py": "Not a .py file: hand in one <exercise id>.py file per exercise.",
        "duplicate": "More than one file for this exercise: {files}. Keep one and grade again.",
        "missing": "Not handed in.",
        "no_files": "No files in here.",
        "bad_zip": "This zip file cannot be opened ({error}).",
        "sep": ", ",
        "no_dir": "No such folder to grade: {dir}",
        "not_dir": "{dir} is not a folder: give a folder that holds one folder (or one zip file) per student.",
        "no_students": "{dir} holds no student: each student needs a folder (or a zip file) of <exercise id>.py files.",
        "stray": "Skipped {name}: it is neither a student's folder nor a zip file.",
        "no_exercises": "No exercises (exercises/chN/*.py) found in {dir}: use --exercises to say where they are.",
        "load_failed": "The exercise file {path} did not load: {error}",
        "page_seed": "Seed {seed} is the one the page draws its own extra cases from, and readers see those cases "
                     "in the page: choose another seed.",
        "unknown_expect": "\u201c{item}\u201d in --expect is neither an exercise id nor a chapter (such as ch3).",
        "seed_drawn": "Graded with seed {seed} (drawn at random); --seed {seed} grades the same cases again.",
        "summary": "{rows} rows for {students} students in {seconds:.1f} s with seed {seed}: {passed} passed.",
        "failed": "The grader itself failed: {error}",
    },
}


class Row(NamedTuple):
    """One line of the CSV."""

    student: str
    exercise: str
    passed: int
    detail: str


class HandIn(NamedTuple):
    """A file a student handed in: where (for messages), its name, and its bytes (or why not)."""

    where: str
    name: str
    data: bytes | None
    problem: tuple | None = None       # (message key, its values) when the file could not be read


def exercise_id(name: str) -> str | None:
    """The exercise id a hand-in's file name claims (``ch3-softmax.py`` -> ``ch3-softmax``), or None
    for a file that is not ``.py``."""
    path = PurePosixPath(name)
    return path.stem if path.suffix == ".py" else None


def decode(data: bytes) -> tuple[str | None, tuple | None]:
    """A hand-in's text as Python reads a source file (UTF-8, a BOM or a coding line honoured), or
    why it cannot be read: ``(text, None)`` or ``(None, (message key, values))``."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:                        # an unknown coding line, or bad bytes on line 1 or 2
        encoding = "utf-8"
        if "unknown encoding" in str(error):
            return None, ("bad_cookie", {"error": str(error).split(":")[-1].strip()})
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        if isinstance(error, UnicodeDecodeError):
            return None, ("not_utf8" if encoding.startswith("utf") else "bad_cookie",
                          {"at": error.start + 1} if encoding.startswith("utf") else {"error": encoding})
        return None, ("bad_cookie", {"error": encoding})
    return text.removeprefix("\ufeff"), None


# --- finding the hand-ins ---------------------------------------------------------------------------

def _skipped(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED or name.startswith("~$")


def _read_file(path: Path, where: str) -> HandIn:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return HandIn(where, path.name, None, ("too_large", {"size": size, "limit": MAX_FILE_BYTES}))
        with path.open("rb") as file:
            return HandIn(where, path.name, file.read(MAX_FILE_BYTES + 1))
    except OSError as error:
        return HandIn(where, path.name, None, ("unreadable", {"error": error.strerror or type(error).__name__}))


def _folder(folder: Path) -> list[HandIn]:
    found = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not _skipped(d))
        for name in sorted(files):
            if not _skipped(name):
                path = Path(top) / name
                found.append(_read_file(path, path.relative_to(folder.parent).as_posix()))
    return found


def _zip(archive: Path) -> list[HandIn]:
    found = []
    try:
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                parts = PurePosixPath(info.filename.replace("\\", "/")).parts
                if info.is_dir() or not parts or any(_skipped(p) for p in parts):
                    continue
                where = f"{archive.name}:{info.filename}"
                if info.file_size > MAX_FILE_BYTES:
                    found.append(HandIn(where, parts[-1], None, ("too_large", {"size": info.file_size,
                                                                                "limit": MAX_FILE_BYTES})))
                    continue
                try:
                    with zipped.open(info) as member:
                        found.append(HandIn(where, parts[-1], member.read(MAX_FILE_BYTES + 1)))
                except Exception as error:  # noqa: BLE001  (encrypted, an unknown compression, a damaged member)
                    found.append(HandIn(where, parts[-1], None, ("bad_zip", {"error": _error_text(error)})))
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, NotImplementedError, EOFError) as error:
        return [HandIn(archive.name, archive.name, None, ("bad_zip", {"error": _error_text(error)}))]
    return found


def _error_text(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def students_in(folder: Path, say) -> dict[str, list[HandIn]]:
    """{student: their hand-ins} for every folder and zip file in ``folder`` (others are named by ``say``)."""
    students: dict[str, list[HandIn]] = {}
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if _skipped(entry.name):
            continue
        if entry.is_dir():
            students.setdefault(entry.name, []).extend(_folder(entry))
        elif entry.is_file() and entry.suffix.lower() == ".zip":
            students.setdefault(entry.stem, []).extend(_zip(entry))
        else:
            say("stray", name=entry.name)
    return students


# --- the exercises ----------------------------------------------------------------------------------

def default_exercises() -> Path:
    """exercises/ next to the attnkit package (the book's repository)."""
    return Path(__file__).resolve().parents[1] / "exercises"


def _chapter_order(exercise: str) -> tuple:
    chapter, _, rest = exercise.partition("-")
    number = chapter[2:]
    return (int(number) if number.isdigit() else 10**6, chapter, rest)


def load_exercises(folder: Path, say) -> dict[str, Path]:
    """{exercise id: its file} for every exercises/ch*/*.py that loads (the others are named by ``say``)."""
    found = {}
    for path in sorted(folder.glob("ch*/*.py")):
        try:
            exercise = runpy.run_path(str(path))["EXERCISE"]
            found[exercise.id] = path
        except Exception as error:  # noqa: BLE001  (a broken exercise file is named, the others still grade)
            say("load_failed", path=path, error=_error_text(error))
    return dict(sorted(found.items(), key=lambda item: _chapter_order(item[0])))


# --- one submission, in a process of its own ------------------------------------------------------------

CHILD = "import sys; from attnkit.grade import _child; _child(sys.argv[1:])"


def _child(argv: list[str]) -> None:
    """Inside the process of one submission: load the exercise, say "ready" on the result pipe,
    check the source on the drawn cases, write the result as JSON, and end at once (no code of
    the submission's runs at exit)."""
    exercise_path, source_path, seed, lang, fd, memory = argv
    out = os.fdopen(int(fd), "wb", buffering=0)
    try:
        from .exercise import check

        exercise = runpy.run_path(exercise_path)["EXERCISE"]
        source = Path(source_path).read_text(encoding="utf-8")
        _limit(int(memory))
        out.write(b"R")
        result = check(exercise, source, lang, seed=int(seed), shown=False)
        payload = {"passed": bool(result.passed), "message": result.message, "kind": result.kind,
                   "cut": bool(result.cut)}
    except BaseException as error:  # noqa: BLE001  (the checker itself failed: the parent says so)
        payload = {"error": _error_text(error)}
    try:
        out.write(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
        out.close()
    finally:
        sys.stdout.flush()
        os._exit(0)


def _limit(memory_mb: int) -> None:
    """Limit this process's address space (and the size of files it writes), where the system can."""
    try:
        import resource
    except ImportError:            # not on this system (Windows): the time limit still holds
        return
    if memory_mb > 0:
        limit = memory_mb * 2**20
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 2**20, 16 * 2**20))


class _Drain(threading.Thread):
    """Reads a pipe to its end, keeping at most ``keep`` bytes and counting them all."""

    def __init__(self, pipe, keep: int, on_first=None):
        super().__init__(daemon=True)
        self.pipe, self.keep, self.on_first = pipe, keep, on_first
        self.kept = bytearray()
        self.total = 0

    def run(self):
        try:
            while True:
                chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") else self.pipe.read(65536)
                if not chunk:
                    break
                if self.on_first is not None and not self.total:
                    self.on_first()
                self.total += len(chunk)
                room = self.keep - len(self.kept)
                if room > 0:
                    self.kept += chunk[:room]
        except (OSError, ValueError):
            pass


def _kill(process: subprocess.Popen) -> None:
    """End the submission's process and everything in its process group (POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, 9)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def run_one(exercise_path: Path, source: str, seed: int, lang: str, timeout: float, memory: int,
            startup: float = STARTUP_SECONDS) -> tuple[int, str]:
    """Check one submission's ``source`` in a fresh Python: (passed, detail)."""
    m = MESSAGES[lang]
    with tempfile.TemporaryDirectory(prefix="attnkit-grade-") as work:
        source_path = Path(work) / "submission.txt"        # not .py: nothing in here can be imported
        source_path.write_text(source, encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).resolve().parents[1])] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
        read_end, write_end = os.pipe()
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(exercise_path), str(source_path), str(seed), lang,
                 str(write_end), str(memory)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=work, env=env,
                pass_fds=(write_end,), start_new_session=(os.name == "posix"))
        finally:
            os.close(write_end)
        ready = threading.Event()
        result_pipe = os.fdopen(read_end, "rb")
        result = _Drain(result_pipe, 1_000_000, on_first=ready.set)
        out, err = _Drain(process.stdout, OUTPUT_LIMIT), _Drain(process.stderr, OUTPUT_LIMIT)
        for reader in (result, out, err):
            reader.start()
        timed_out = started_late = False
        deadline = time.monotonic() + startup
        while not ready.is_set() and process.poll() is None and time.monotonic() < deadline:
            ready.wait(0.05)
        if not ready.is_set() and process.poll() is None:
            started_late = True
            _kill(process)
        else:
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill(process)
        _kill(process)              # whatever it left behind in its process group (a child holding the pipes)
        for reader in (result, out, err):
            reader.join(timeout=5)
        for pipe in (result_pipe, process.stdout, process.stderr):
            try:
                pipe.close()
            except OSError:
                pass
    printed = out.total + err.total
    if started_late:
        return 0, m["startup"].format(seconds=_seconds(startup))
    if timed_out:
        if printed > OUTPUT_LIMIT:
            return 0, m["timeout_printing"].format(seconds=_seconds(timeout), printed=f"{printed:,}")
        return 0, m["timeout"].format(seconds=_seconds(timeout))
    payload = bytes(result.kept[1:]) if result.kept[:1] == b"R" else bytes(result.kept)
    try:
        outcome = json.loads(payload.decode("utf-8")) if payload else None
    except (UnicodeDecodeError, ValueError):
        outcome = None
    if not isinstance(outcome, dict) or not ("error" in outcome or "message" in outcome):
        code = process.returncode
        how = (m["signal"].format(signal=_signal_name(-code)) if code is not None and code < 0
               else m["exit_code"].format(code=code))
        if not ready.is_set():          # it ended before the exercise loaded: the grader's side
            tail = bytes(err.kept).decode("utf-8", "replace").strip().splitlines()[-1:] or [how]
            return 0, m["no_exercise"].format(error=tail[0])
        return 0, m["died"].format(how=how)
    if "error" in outcome:
        return 0, m["checker"].format(error=outcome["error"])
    message = str(outcome["message"])
    if outcome.get("cut") or printed > OUTPUT_LIMIT:
        return 0, m["flood"].format(limit=f"{OUTPUT_LIMIT:,}", verdict=message)
    return int(bool(outcome["passed"])), message


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _seconds(value: float) -> str:
    return f"{value:g}"


# --- a class -------------------------------------------------------------------------------------------

def _rows_for(student: str, hand_ins: list[HandIn], exercises: dict[str, Path], lang: str):
    """The rows that need no Python (and the jobs that do: (student, id, path, source))."""
    m = MESSAGES[lang]
    rows, jobs, by_id = [], [], {}
    if not hand_ins:
        rows.append(Row(student, "", 0, m["no_files"]))
    for hand_in in hand_ins:
        if hand_in.problem is not None and hand_in.problem[0] == "bad_zip" and hand_in.name.endswith(".zip"):
            rows.append(Row(student, hand_in.name, 0, m["bad_zip"].format(**hand_in.problem[1])))
            continue
        stem = exercise_id(hand_in.name)
        if stem is None:
            rows.append(Row(student, hand_in.name, 0, m["not_py"]))
        elif stem not in exercises:
            close = difflib.get_close_matches(stem.lower(), list(exercises), n=1, cutoff=0.6)
            suggest = m["suggest"].format(name=close[0] + ".py") if close else ""
            rows.append(Row(student, hand_in.name, 0, m["unknown"].format(stem=stem, suggest=suggest)))
        else:
            by_id.setdefault(stem, []).append(hand_in)
    for stem, copies in by_id.items():
        if len(copies) > 1:
            rows.append(Row(student, stem, 0, m["duplicate"].format(files=m["sep"].join(c.where for c in copies))))
            continue
        hand_in = copies[0]
        if hand_in.problem is not None:
            rows.append(Row(student, stem, 0, m[hand_in.problem[0]].format(**hand_in.problem[1])))
            continue
        if len(hand_in.data) > MAX_FILE_BYTES:
            rows.append(Row(student, stem, 0, m["too_large"].format(size=f"> {MAX_FILE_BYTES}", limit=MAX_FILE_BYTES)))
            continue
        text, problem = decode(hand_in.data)
        if problem is not None:
            rows.append(Row(student, stem, 0, m[problem[0]].format(**problem[1])))
        elif not text.strip():
            rows.append(Row(student, stem, 0, m["empty"]))
        else:
            jobs.append((student, stem, exercises[stem], text))
    return rows, jobs, set(by_id)


def expected_ids(items: list[str], exercises: dict[str, Path]) -> list[str] | str:
    """The exercise ids ``--expect`` names (ids or chapters, "all"), or the first item it does not know."""
    chosen = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        if item == "all":
            matches = list(exercises)
        elif item in exercises:
            matches = [item]
        else:
            matches = [e for e in exercises if e.split("-")[0] == item]
        if not matches:
            return item
        chosen += [e for e in matches if e not in chosen]
    return sorted(chosen, key=_chapter_order)


def grade(folder: Path, *, seed: int, lang: str = "en", timeout: float = TIMEOUT_SECONDS, memory: int = MEMORY_MB,
          jobs: int = 1, exercises: dict[str, Path], expect: list[str] = (), startup: float = STARTUP_SECONDS,
          say=lambda key, **values: None) -> list[Row]:
    """Every row for the hand-ins in ``folder`` (one folder or zip per student), sorted by student
    and by exercise in the book's order. ``exercises`` maps ids to their files (:func:`load_exercises`)."""
    m = MESSAGES[lang]
    rows, work = [], []
    for student, hand_ins in students_in(folder, say).items():
        fixed, jobs_here, handed = _rows_for(student, hand_ins, exercises, lang)
        rows += fixed
        work += jobs_here
        rows += [Row(student, e, 0, m["missing"]) for e in expect if e not in handed]
    results: dict[int, tuple[int, str]] = {}

    def one(i):
        student, stem, path, text = work[i]
        results[i] = run_one(path, text, seed, lang, timeout, memory, startup)

    if work:
        threads = max(1, min(jobs, len(work)))
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(one, range(len(work))))
    rows += [Row(student, stem, *results[i]) for i, (student, stem, _, _) in enumerate(work)]
    order = {e: n for n, e in enumerate(exercises)}
    return sorted(rows, key=lambda r: (r.student, order.get(r.exercise, len(order)), r.exercise))


def _default_lang() -> str:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m attnkit.grade",
        description="Grade the book's coding exercises handed in by a class. DIR holds one folder (or one zip "
                    "file) per student, with <exercise id>.py files. Prints CSV (student,exercise,passed,detail).",
        epilog="Each file is checked on cases drawn from --seed, never on the cases the page shows, in a Python "
               "process of its own with a time limit. The students' code runs with your permissions.")
    parser.add_argument("dir", metavar="DIR", help="one folder (or zip file) per student")
    parser.add_argument("--seed", type=int, help="the seed the cases are drawn from (default: one drawn at random, "
                        "printed on standard error); keep it to yourself")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS,
                        help=f"seconds one check may run (default {TIMEOUT_SECONDS})")
    parser.add_argument("--memory", type=int, default=MEMORY_MB,
                        help=f"megabytes of address space one check may use, 0 for no limit (default {MEMORY_MB})")
    parser.add_argument("--lang", choices=LANGS, default=_default_lang(),
                        help="the language of the details (default: zh if the locale is Chinese, else en)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="files checked at once (default: the number of processors)")
    parser.add_argument("--expect", default="",
                        help="exercise ids or chapters, comma-separated (ch3,ch4-split-heads or all): "
                             "a row for each one a student did not hand in")
    parser.add_argument("--exercises", type=Path, default=None,
                        help="the folder of the exercises (default: exercises/ next to attnkit)")
    parser.add_argument("--bom", action="store_true",
                        help="start the CSV with a UTF-8 byte order mark (for Excel)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line: CSV on standard output, messages on standard error; returns the exit status
    (0: graded, 2: nothing to grade or a bad option)."""
    args = _parser().parse_args(argv)
    lang = args.lang
    m = MESSAGES[lang]

    def say(key, **values):
        print(m[key].format(**values), file=sys.stderr)

    if args.timeout <= 0 or args.memory < 0 or args.jobs < 1:
        _parser().error("--timeout must be positive, --memory 0 or more, --jobs 1 or more")
    if args.seed is not None and args.seed < 0:
        _parser().error("--seed must be a non-negative integer")
    if args.seed == PAGE_SEED:
        say("page_seed", seed=PAGE_SEED)
        return 2
    folder = Path(args.dir)
    if not folder.exists():
        say("no_dir", dir=folder)
        return 2
    if not folder.is_dir():
        say("not_dir", dir=folder)
        return 2
    try:
        if not any(not _skipped(p.name) and (p.is_dir() or p.suffix.lower() == ".zip") for p in folder.iterdir()):
            say("no_students", dir=folder)
            return 2
    except OSError as error:
        say("no_dir", dir=f"{folder} ({error.strerror})")
        return 2
    exercises_dir = args.exercises or default_exercises()
    exercises = load_exercises(exercises_dir, say) if exercises_dir.is_dir() else {}
    if not exercises:
        say("no_exercises", dir=exercises_dir)
        return 2
    expect = expected_ids(args.expect.split(","), exercises) if args.expect else []
    if isinstance(expect, str):
        say("unknown_expect", item=expect)
        return 2
    seed = args.seed
    if seed is None:
        seed = secrets.randbelow(2**31 - 1) + 1
        say("seed_drawn", seed=seed)
    started = time.perf_counter()
    rows = grade(folder, seed=seed, lang=lang, timeout=args.timeout, memory=args.memory, jobs=args.jobs,
                 exercises=exercises, expect=expect, say=say)
    try:
        sys.stdout.reconfigure(encoding="utf-8", newline="")
    except (AttributeError, ValueError):
        pass
    if args.bom:
        sys.stdout.write("\ufeff")
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    sys.stdout.flush()
    say("summary", rows=len(rows), students=len({r.student for r in rows}), seconds=time.perf_counter() - started,
        seed=seed, passed=sum(r.passed for r in rows))
    return 0


def _run() -> int:
    """main(), with a message instead of a traceback if the grader itself fails (exit status 3)."""
    try:
        return main()
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001  (the last resort: a teacher gets a sentence, not a traceback)
        lang = _default_lang()
        print(MESSAGES[lang]["failed"].format(error=_error_text(error)), file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(_run())
