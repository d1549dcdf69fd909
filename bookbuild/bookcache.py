"""Content-keyed caches for the build: one helper that every hook uses (not a hook itself).

An entry is stored under the hash of *everything* that affects its output (:func:`key` of bytes,
strings, numbers, :func:`sources`, :func:`digest_for`, :func:`environment`), so it is never stale:
a changed input is a new key. Entries live in ``.cache/<name>/<key[:2]>/<key><suffix>`` (:class:`Store`),
are written atomically and never evicted by a build. :func:`memo`: a disk-memoized pure attnkit call.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib
import inspect
import json
import os
import pickle
import platform
import sys
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from importlib.util import resolve_name
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("BOOK_CACHE") or ROOT / ".cache")   # BOOK_CACHE: elsewhere (a cold build)
ATTNKIT = ROOT / "attnkit"
FONT_DIRS = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts",
             Path.home() / ".local/share/fonts"]


def key(*parts) -> str:
    """sha256 over ``parts`` (bytes, str, int, float, None, or lists/tuples of those)."""
    digest = hashlib.sha256()

    def feed(part):
        if isinstance(part, (list, tuple)):
            digest.update(b"[%d" % len(part))
            for p in part:
                feed(p)
            digest.update(b"]")
            return
        # tagged with its type (b"x" and "x" differ) and length; a str as UTF-8, not its repr (85 ms a build)
        if isinstance(part, bytes):
            tag, data = b"b", part
        elif isinstance(part, str):
            tag, data = b"s", part.encode("utf-8", errors="surrogatepass")
        elif isinstance(part, (int, float)) or part is None:
            tag, data = b"r", repr(part).encode()
        else:
            raise TypeError(f"cache key part must be bytes, str, number or None, got {type(part).__name__}")
        digest.update(b"%s%d:%s" % (tag, len(data), data))

    for part in parts:
        feed(part)
    return digest.hexdigest()


class Store:
    """A folder of content-keyed files: ``.cache/<name>/``."""

    def __init__(self, name: str, suffix: str = ""):
        self.dir = CACHE / name
        self.suffix = suffix

    def path(self, k: str) -> Path:
        return self.dir / k[:2] / f"{k}{self.suffix}"

    def get(self, k: str) -> bytes | None:
        path = self.path(k)
        return path.read_bytes() if path.is_file() else None

    def put(self, k: str, data: bytes) -> Path:
        return write_atomically(self.path(k), data)


def write_atomically(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file beside it: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def load_yaml(path: Path):
    """A YAML file, read with libyaml's C loader when PyYAML has it (the Python one: 40-190 ms a file)."""
    import yaml

    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


_TEXTS: dict[Path, tuple] = {}


def text_of(path: Path) -> str:
    """A file's text, read again only when its size or mtime changes (a build asks ~3,400 times: 0.2 s)."""
    if _TEXTS.get(path, (None,))[0] != (stamp := _stamp(path)):
        _TEXTS[path] = (stamp, path.read_text(encoding="utf-8"))
    return _TEXTS[path][1]


_DIGESTS: dict[tuple, str] = {}


def sources(paths: Iterable[Path]) -> str:
    """Digest of files, their paths relative to the repository and their bytes (remembered under their stats)."""
    paths = sorted(paths)
    stats = tuple((str(p), *_stamp(p)) for p in paths)
    if stats not in _DIGESTS:
        _DIGESTS[stats] = key(*[(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in paths])
    return _DIGESTS[stats]


_LISTED: dict = {"dirs": [ATTNKIT], "stamp": None}


def _attnkit_py() -> list[Path]:
    """Every attnkit/**.py, listed again only when a folder of attnkit changed (its mtime)."""
    stamp = [d.stat().st_mtime_ns if d.is_dir() else None for d in _LISTED["dirs"]]
    if stamp != _LISTED["stamp"]:
        dirs = [ATTNKIT, *sorted(d for d in ATTNKIT.rglob("*") if d.is_dir() and "__pycache__" not in d.parts)]
        _LISTED.update(dirs=dirs, stamp=[d.stat().st_mtime_ns for d in dirs], files=sorted(ATTNKIT.rglob("*.py")))
    return _LISTED["files"]


def _corpus() -> list[Path]:
    return sorted((ATTNKIT / "corpus").glob("*.txt"))   # chapter 12's books


_FROZEN: dict = {}   # attnkit's digests, read once per build (see freeze)


def freeze() -> None:
    """For the rest of this process (a build's: an edit is a new build), read attnkit's sources once
    (a build computes ~750 keys: 0.3 s of stat calls); :func:`frozen` tells other modules so."""
    _FROZEN.update({flag: attnkit_digest(flag) for flag in (True, False)}, frozen=True)


def frozen() -> bool:
    """Whether this process is a build that called :func:`freeze` (its sources stay as they are)."""
    return bool(_FROZEN.get("frozen"))


def attnkit_digest(figures: bool = True) -> str:
    """Digest of all of attnkit's sources and corpus (``figures=False``: without attnkit/figures/, which
    no other attnkit module imports: tests/test_build.py checks it)."""
    if figures in _FROZEN:
        return _FROZEN[figures]
    return sources([p for p in _attnkit_py() if figures or "figures" not in p.relative_to(ATTNKIT).parts[:-1]]
                   + _corpus())


# ---- what part of attnkit a piece of code can run ----
# Its static imports anywhere in the file, followed through attnkit (``import attnkit.x``, ``from .x import y``,
# ``from . import x``...), with the __init__.py of every package on the way. An import through importlib
# cannot be followed: then every attnkit file counts, except attnkit/figures/__init__.py's imports of the
# figure modules, which only register their figures (tests/test_build.py checks it). The corpus always counts.

def _module_file(dotted: str) -> Path | None:
    """``attnkit.figures.ch3`` -> attnkit/figures/ch3.py (or a package's __init__.py); None if none."""
    parts = dotted.split(".")
    if parts[0] != "attnkit":
        return None
    base = ATTNKIT.joinpath(*parts[1:])
    return next((path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()), None)


_IMPORT_LISTS = Store("imports", ".json")
_PARSER = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()   # this file parses them


def imports_of(source: str, package: str | None = None) -> list[str] | None:
    """:func:`parse_imports`, kept on disk under the source, its package, attnkit's file names and this
    file (parsing attnkit in each build cost 0.3 s of every reload)."""
    k = key("imports", _PARSER, [p.relative_to(ATTNKIT).as_posix() for p in _attnkit_py()], package, source)
    cached = _IMPORT_LISTS.get(k)
    if cached is not None:
        return json.loads(cached)
    found = parse_imports(source, package)
    _IMPORT_LISTS.put(k, json.dumps(found).encode())
    return found


def parse_imports(source: str, package: str | None = None) -> list[str] | None:
    """The attnkit files (relative to attnkit/) that ``source`` imports itself, or None if it cannot be
    told (importlib). ``package``: the source's dotted package (for relative imports), None outside attnkit."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (package or not node.level):
            module = resolve_name("." * node.level + (node.module or ""), package) if node.level else node.module
            names += [f"{module}.{alias.name}".split(".") for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in
              ("import_module", "__import__") and package != "attnkit.figures"):
            return None
    # each module and every package on the way to it
    found = {_module_file(".".join(parts[:n])) for parts in names for n in range(1, len(parts) + 1)} - {None}
    return sorted(path.relative_to(ATTNKIT).as_posix() for path in found)


_IMPORTS: dict[tuple, list[str] | None] = {}


def _file_imports(path: Path) -> list[str] | None:
    """:func:`imports_of` a file, remembered under its stats (parsing again for each of a build's ~900
    keys cost 2 s of a 7 s build)."""
    stamp = (path, *_stamp(path))
    if stamp not in _IMPORTS:
        package = ".".join(("attnkit", *path.relative_to(ATTNKIT).parts[:-1])) if ATTNKIT in path.parents else None
        _IMPORTS[stamp] = imports_of(path.read_text(encoding="utf-8"), package)
    return _IMPORTS[stamp]


def closure(files: Iterable[Path]) -> set[Path] | None:
    """The attnkit files that ``files`` import, directly or not (see above); None: all of attnkit."""
    todo, seen = list(files), set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        found = _file_imports(path)
        if found is None:
            return None
        todo += [ATTNKIT / name for name in found]
    return {p for p in seen if ATTNKIT in p.parents}


def digest_for(files: Iterable[Path] = (), code: str | None = None) -> str:
    """Digest of the part of attnkit that ``files`` (and the Python ``code``) can run: the files they
    import, directly or not, and the corpus. Every file of attnkit when that cannot be told."""
    k = (files := tuple(sorted(files)), code)
    if k not in _FROZEN:
        direct = [] if code is None else imports_of(code)
        found = None if direct is None else closure([*files, *(ATTNKIT / name for name in direct)])
        digest = attnkit_digest(True) if found is None else sources(sorted(found) + _corpus())
        if not frozen():
            return digest
        _FROZEN[k] = digest
    return _FROZEN[k]


def _version(module: str) -> str:
    try:
        return version(module)
    except PackageNotFoundError:
        return "absent"


@functools.lru_cache(maxsize=1)
def environment() -> str:
    """Python, NumPy, matplotlib versions and the installed fonts (path, size, mtime)."""
    fonts = [(str(path), *_stamp(path)) for base in FONT_DIRS if base.is_dir() for path in sorted(base.rglob("*"))
             if path.suffix.lower() in {".ttf", ".otf", ".ttc", ".pfb", ".woff", ".woff2"}]
    return key(sys.version, platform.machine(), _version("numpy"), _version("matplotlib"), fonts)


_MEMO = Store("memo", ".pickle")
# The expensive, pure attnkit computations (0.4-3.7 s each), memoized (:func:`memoize`) by the data step's
# workers, the listings and the labs' kernels: the two languages compute each call once, the same bytes.
# Not attnkit.tiled.attention_peak_bytes: a tracemalloc measurement, not a pure function.
MEMOIZED = ("attnkit.measure.scaling_experiment", "attnkit.measure.random_scores", "attnkit.heads.train_two_heads",
            "attnkit.cost.attention_influence_on_last", "attnkit.kvcache.demo_runs",
            "attnkit.induction.train_induction", "attnkit.induction.report", "attnkit.induction.seed_runs",
            "attnkit.induction.diversity", "attnkit.realtext.train_on",
            "attnkit.bpe.train_bpe")


def memo(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` of a pure, deterministic attnkit function, cached on disk under the part of
    attnkit its module can run, the environment, its name and its arguments as it binds them (defaults
    filled in: ``f("a")`` and ``f("a", seed=3)`` are one entry when 3 is the default). What cannot be
    pickled is not cached. Two processes asking at once compute it once (:func:`locked`)."""
    if getattr(fn, "_memoized", False):   # already a memo of its function (memoize(), then a page's memo)
        return fn(*args, **kwargs)
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
        bound.apply_defaults()
        call = list(bound.arguments.items())
    except (TypeError, ValueError):   # no signature, or a call fn would reject: keyed as given
        call = args, sorted(kwargs.items())
    try:
        call = pickle.dumps(call, protocol=5)
    except Exception:
        return fn(*args, **kwargs)
    module = _module_file(fn.__module__)
    k = key("memo", 2, attnkit_digest(figures=False) if module is None else digest_for([module]), environment(),
            fn.__module__, fn.__qualname__, call)
    cached = _MEMO.get(k)
    if cached is None:
        with locked(_MEMO.path(k)):
            cached = _MEMO.get(k)     # computed by another process while this one waited
            if cached is None:
                result = fn(*args, **kwargs)
                with contextlib.suppress(Exception):   # a result that cannot be pickled is not cached
                    _MEMO.put(k, pickle.dumps(result, protocol=5))
                return result
    return pickle.loads(cached)


@contextlib.contextmanager
def locked(path: Path):
    """An exclusive lock on ``<path>.lock`` (flock: released when the holder exits, however), for an
    entry two builds may compute at once: take it on a miss, look again, compute if still missing."""
    import fcntl

    lock = path.with_name(path.name + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as handle:   # closing it releases the lock
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


_MEMOIZED: dict[str, list[tuple]] = {}   # name -> [(module, global name, the function it held)]


def memoize(names: Iterable[str]) -> None:
    """Replace each attnkit function ``"attnkit.module.function"`` (:data:`MEMOIZED`) by :func:`memo` of it,
    in its module and wherever a loaded attnkit module imported it by name (outside attnkit/figures/ only)."""
    for name in names:
        if name in _MEMOIZED:
            continue
        module_name, _, attr = name.rpartition(".")
        if not module_name.startswith("attnkit.") or module_name.startswith("attnkit.figures"):
            raise ValueError(f"memoize: {name!r} is not a function of attnkit outside attnkit/figures/")
        fn = getattr(importlib.import_module(module_name), attr)
        if not callable(fn) or getattr(fn, "__module__", None) != module_name:
            raise ValueError(f"memoize: {name!r} is not a function defined in {module_name}")
        wrapper = functools.wraps(fn)(functools.partial(memo, fn))
        wrapper._memoized = True
        _MEMOIZED[name] = [(loaded, global_name, fn) for loaded in list(sys.modules.values())
                           if getattr(loaded, "__name__", "").startswith("attnkit")
                           for global_name, value in list(vars(loaded).items()) if value is fn]
        for loaded, global_name, _ in _MEMOIZED[name]:
            setattr(loaded, global_name, wrapper)


def unmemoize() -> None:
    """Undo :func:`memoize` (tests/test_figures.py, in a process whose next tests train)."""
    for replaced in _MEMOIZED.values():
        for module, global_name, fn in replaced:
            setattr(module, global_name, fn)
    _MEMOIZED.clear()


def python(code: str) -> list[str]:
    """The command of a fresh interpreter that runs ``code`` with this repository's attnkit and bookbuild/
    importable (a figure worker: nothing imported by the build process leaks in)."""
    return [sys.executable, "-c", f"import sys; sys.path[:0] = [{str(ROOT)!r}]\n{code}"]
