"""Content-keyed caches for the build: one helper that every hook uses (not a hook itself).

An entry is stored under the hash of *everything* that affects its output (:func:`key` of bytes,
strings, numbers, :func:`sources`, :func:`digest_for`, :func:`environment`), so it is never
stale: a changed input is a new key. Entries live in ``.cache/<name>/<key[:2]>/<key><suffix>``
(:class:`Store`), are written atomically and never evicted by a build (``make clean`` removes
them). :func:`memo` is a disk-memoized call of a pure attnkit function, shared by both languages.

    store = Store("figures", ".svg")
    svg = store.get(k := key("figure", "zh", fig_id, digest_for([module]), environment()))
    if svg is None:             # a miss
        store.put(k, svg := draw(...))
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pickle
import platform
import sys
from collections.abc import Iterable
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
        # each part tagged with its type (b"x" and "x" differ) and its length; a str as its
        # UTF-8 bytes, not its repr (repr of a page's 2 MB of HTML cost 85 ms per build)
        if isinstance(part, bytes):
            tag, data = b"b", part
        elif isinstance(part, str):
            tag, data = b"s", part.encode("utf-8", errors="surrogatepass")
        elif isinstance(part, (int, float)) or part is None:
            tag, data = b"r", repr(part).encode()
        else:
            raise TypeError(f"cache key part must be bytes, str, number or None, got {type(part).__name__}")
        digest.update(b"%s%d:" % (tag, len(data)))
        digest.update(data)

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
        try:
            return self.path(k).read_bytes()
        except FileNotFoundError:
            return None

    def put(self, k: str, data: bytes) -> Path:
        return write_atomically(self.path(k), data)


def write_atomically(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a reader never sees half a file (a temporary file
    beside it, then renamed); two processes may write the same path at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def load_yaml(path: Path):
    """A YAML file (docs/*.yml), read with libyaml's C loader when PyYAML has it: the pure-Python
    loader took 40-190 ms per file, in every build."""
    import yaml

    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


_TEXTS: dict[Path, tuple] = {}


def text_of(path: Path) -> str:
    """A file's text, read again only when its size or modification time changes: a build asks
    for the pages' Markdown and mkdocs.yml hundreds of times (3,400 reads, 0.2 s of a reload)."""
    stat = path.stat()
    stamp = (stat.st_size, stat.st_mtime_ns)
    if _TEXTS.get(path, (None,))[0] != stamp:
        _TEXTS[path] = (stamp, path.read_text(encoding="utf-8"))
    return _TEXTS[path][1]


_DIGESTS: dict[tuple, str] = {}


def sources(paths: Iterable[Path]) -> str:
    """Digest of files: their paths relative to the repository and their bytes. (Remembered
    per process under each file's size and mtime, so asking again costs only a stat.)"""
    paths = sorted(paths)
    stats = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)
    if stats not in _DIGESTS:
        _DIGESTS[stats] = key(*[(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in paths])
    return _DIGESTS[stats]


_LISTED: dict[tuple, list[Path]] = {}


def _attnkit_py() -> list[Path]:
    """Every attnkit/**.py, listed again only when a folder of attnkit changed (its mtime: a file
    added, removed or renamed in it), not on each of the ~300 calls of a build."""
    dirs = _LISTED.get("dirs") or [ATTNKIT]
    stamp = tuple((str(d), d.stat().st_mtime_ns if d.is_dir() else None) for d in dirs)
    if stamp not in _LISTED:
        _LISTED.clear()
        files = sorted(ATTNKIT.rglob("*.py"))
        dirs = sorted({ATTNKIT, *(p.parent for p in files)}
                      | {d for d in ATTNKIT.rglob("*") if d.is_dir() and "__pycache__" not in d.parts})
        _LISTED["dirs"] = dirs
        _LISTED[tuple((str(d), d.stat().st_mtime_ns) for d in dirs)] = files
        return files
    return _LISTED[stamp]


def attnkit_files(figures: bool = True) -> list[Path]:
    """attnkit/**.py and the corpus files attnkit reads (attnkit/corpus/*.txt): every output
    keyed by attnkit's sources changes when a book of the corpus does."""
    files = list(_attnkit_py()) + sorted((ATTNKIT / "corpus").glob("*.txt"))   # chapter 12's books
    if not figures:
        files = [p for p in files if "figures" not in p.relative_to(ATTNKIT).parts[:-1]]
    return files


_FROZEN: dict = {}   # attnkit's digests, read once per build (see freeze)


def freeze() -> None:
    """For the rest of this process, read attnkit's sources once: a build computes ~750 keys
    (0.3 s of stat calls). For a build (on_config): a process of its own, an edit is a new build."""
    _FROZEN.update({flag: attnkit_digest(flag) for flag in (True, False)}, frozen=True)


def attnkit_digest(figures: bool = True) -> str:
    """Digest of all of attnkit's sources (``figures=False``: without attnkit/figures/, which no
    other attnkit module imports: tests/test_build.py checks it)."""
    if figures in _FROZEN:
        return _FROZEN[figures]
    return sources(attnkit_files(figures))


# ---- what part of attnkit a piece of code can run ----
# Its static imports, followed through attnkit: ``import attnkit.x``, ``from attnkit import x``,
# ``from .x import y``, ``from . import x``, anywhere in the file (a function's own imports too),
# with the __init__.py of every package on the way. A file that imports another way (importlib)
# cannot be followed: then every attnkit file counts. attnkit/figures/__init__.py imports every
# figure module to register its figures, which does nothing else (tests/test_build.py checks it):
# that import is not followed. The corpus (attnkit/corpus/*.txt, chapter 12's books) always counts.

def _module_file(dotted: str) -> Path | None:
    """``attnkit.figures.ch3`` -> attnkit/figures/ch3.py (or a package's __init__.py); None if none."""
    parts = dotted.split(".")
    if parts[0] != "attnkit":
        return None
    base = ATTNKIT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


_IMPORT_LISTS = Store("imports", ".json")
_PARSER = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()   # this file parses them


def imports_of(source: str, package: str | None = None) -> list[str] | None:
    """:func:`parse_imports`, kept on disk under the source, its package, attnkit's file names and
    this file (parsing attnkit's files in each build cost 0.3 s of every reload)."""
    k = key("imports", _PARSER, [p.relative_to(ATTNKIT).as_posix() for p in _attnkit_py()], package, source)
    cached = _IMPORT_LISTS.get(k)
    if cached is not None:
        return json.loads(cached)
    found = parse_imports(source, package)
    _IMPORT_LISTS.put(k, json.dumps(found).encode())
    return found


def parse_imports(source: str, package: str | None = None) -> list[str] | None:
    r"""The attnkit files (relative to attnkit/) that ``source`` imports itself, or None if it
    imports modules in a way a reader of the code cannot follow (importlib). ``package``: the
    dotted package the source lives in (for its relative imports), None outside attnkit.

    >>> imports_of("from attnkit import softmax\nfrom attnkit.figures import render_svg\n")
    ['__init__.py', 'figures/__init__.py']
    >>> sorted(p.name for p in closure([ATTNKIT / "core.py"]))   # core imports _checks; attnkit/__init__ imports core
    ['__init__.py', '_checks.py', 'core.py']
    """
    import ast

    found: set[str] = set()

    def add(dotted: str) -> None:
        parts = dotted.split(".")
        for n in range(1, len(parts) + 1):   # every package on the way, then the module itself
            path = _module_file(".".join(parts[:n]))
            if path is not None:
                found.add(path.relative_to(ATTNKIT).as_posix())

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if package is None:
                    continue
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("attnkit"):
                continue
            add(module)
            for alias in node.names:
                if _module_file(f"{module}.{alias.name}") is not None:
                    add(f"{module}.{alias.name}")
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in
              ("import_module", "__import__") and package != "attnkit.figures"):
            return None
    return sorted(found)


_IMPORTS: dict[tuple, list[str] | None] = {}


def _file_imports(path: Path) -> list[str] | None:
    """:func:`imports_of` a file, remembered per process under its size and mtime (a build asks
    for ~900 keys; parsing the same files again for each cost 2 s of a 7 s build)."""
    stat = path.stat()
    stamp = (path, stat.st_size, stat.st_mtime_ns)
    if stamp not in _IMPORTS:
        inside = ATTNKIT in path.parents
        package = ".".join(("attnkit", *path.relative_to(ATTNKIT).parts[:-1])) if inside else None
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
    """Digest of the part of attnkit that ``files`` (and the Python ``code``) can run: the files
    they import, directly or not, and the corpus. Every file of attnkit when that cannot be told."""
    files = tuple(sorted(files))
    k = (files, code)
    if k in _FROZEN:
        return _FROZEN[k]
    starts = list(files)
    if code is not None:
        direct = imports_of(code)
        starts = None if direct is None else starts + [ATTNKIT / name for name in direct]
    found = None if starts is None else closure(starts)
    digest = attnkit_digest(True) if found is None else sources(sorted(found) + sorted((ATTNKIT / "corpus").glob("*.txt")))
    if _FROZEN.get("frozen"):
        _FROZEN[k] = digest
    return digest


def _version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module)
    except PackageNotFoundError:
        return "absent"


@functools.lru_cache(maxsize=1)
def environment() -> str:
    """Python, NumPy, matplotlib versions and the installed fonts (path, size, mtime)."""
    fonts = []
    for base in FONT_DIRS:
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.suffix.lower() in {".ttf", ".otf", ".ttc", ".pfb", ".woff", ".woff2"}:
                    st = path.stat()
                    fonts.append((str(path), st.st_size, st.st_mtime_ns))
    return key(sys.version, platform.machine(), _version("numpy"), _version("matplotlib"), fonts)


_MEMO = Store("memo", ".pickle")
# The expensive, pure attnkit computations (0.4-3.7 s each in a profile of the figures), memoized
# (:func:`memoize`) by the data step's workers, the build's listings and the labs' kernels, so the
# two languages compute each call once. Performance only: the outputs are the same bytes. Not
# attnkit.tiled.attention_peak_bytes (2.2 s): a tracemalloc measurement, not a pure function
# (whichever process measured first would decide the number 9.4's page prints).
MEMOIZED = ("attnkit.measure.scaling_experiment", "attnkit.measure.random_scores", "attnkit.heads.train_two_heads",
            "attnkit.cost.attention_influence_on_last", "attnkit.kvcache.demo_runs",
            "attnkit.induction.train_induction", "attnkit.induction.report", "attnkit.induction.seed_runs",
            "attnkit.induction.diversity", "attnkit.realtext.train_on",
            "attnkit.bpe.train_bpe")


def _arguments(fn, args: tuple, kwargs: dict):
    """The call as ``fn`` sees it, defaults filled in: ``f("same")``, ``f("same", seed=3)`` and
    ``f("same", 800, 5.0, 3)`` are one call (one memo entry) when those are the defaults."""
    import inspect

    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):   # no signature, or a call fn would reject: key it as given
        return args, sorted(kwargs.items())
    bound.apply_defaults()
    return list(bound.arguments.items())


def memo(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, cached on disk under the part of attnkit its module can run, the
    environment, the function's name and its arguments as it binds them (:func:`_arguments`), for
    pure, deterministic functions of attnkit (a training run from a seed, a measurement); what
    cannot be pickled is not cached. Two processes asking at once compute it once (:func:`locked`)."""
    if getattr(fn, "_memoized", False):   # already a memo of its function (memoize(), then a page's memo)
        return fn(*args, **kwargs)
    try:
        call = pickle.dumps(_arguments(fn, args, kwargs), protocol=5)
    except Exception:
        return fn(*args, **kwargs)
    module = _module_file(fn.__module__)
    k = key("memo", 2, attnkit_digest(figures=False) if module is None else digest_for([module]), environment(),
            fn.__module__, fn.__qualname__, call)
    cached = _MEMO.get(k)
    if cached is not None:
        return pickle.loads(cached)
    with locked(_MEMO.path(k)):
        cached = _MEMO.get(k)     # computed by another process while this one waited
        if cached is not None:
            return pickle.loads(cached)
        result = fn(*args, **kwargs)
        with contextlib.suppress(Exception):   # a result that cannot be pickled is not cached
            _MEMO.put(k, pickle.dumps(result, protocol=5))
    return result


@contextlib.contextmanager
def locked(path: Path):
    """An exclusive lock on ``<path>.lock`` (flock: released when the holder exits, however), for
    an entry two builds may compute at once: take it on a miss, look again, compute if still missing."""
    import fcntl

    lock = path.with_name(path.name + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as handle:   # closing it releases the lock
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


_MEMOIZED: dict[str, list[tuple]] = {}   # name -> [(module, global name, the function it held)]


def memoize(names: Iterable[str]) -> None:
    """Replace each attnkit function named ``"attnkit.module.function"`` (:data:`MEMOIZED`) by
    :func:`memo` of it, in its module and wherever a loaded attnkit module imported it by name
    (functions outside attnkit/figures/ only, which no other attnkit module imports)."""
    import importlib

    for name in names:
        if name in _MEMOIZED:
            continue
        module_name, _, attr = name.rpartition(".")
        if not module_name.startswith("attnkit.") or module_name.startswith("attnkit.figures"):
            raise ValueError(f"memoize: {name!r} is not a function of attnkit outside attnkit/figures/")
        module = importlib.import_module(module_name)
        fn = getattr(module, attr)
        if not callable(fn) or getattr(fn, "__module__", None) != module_name:
            raise ValueError(f"memoize: {name!r} is not a function defined in {module_name}")
        wrapper = functools.wraps(fn)(functools.partial(memo, fn))
        wrapper._memoized = True
        replaced = []
        for loaded in list(sys.modules.values()):
            if getattr(loaded, "__name__", "").startswith("attnkit"):
                for global_name, value in list(vars(loaded).items()):
                    if value is fn:
                        setattr(loaded, global_name, wrapper)
                        replaced.append((loaded, global_name, fn))
        _MEMOIZED[name] = replaced


def unmemoize() -> None:
    """Undo :func:`memoize` (tests/test_figures.py, in a process whose next tests train)."""
    for replaced in _MEMOIZED.values():
        for module, global_name, fn in replaced:
            setattr(module, global_name, fn)
    _MEMOIZED.clear()


def python(code: str) -> list[str]:
    """The command of a fresh interpreter that runs ``code`` with this repository's attnkit and
    bookbuild/ importable (a figure worker: nothing imported by the build process leaks in)."""
    return [sys.executable, "-c", f"import sys; sys.path[:0] = [{str(ROOT)!r}]\n{code}"]
