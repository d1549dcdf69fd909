"""A listing as one language's reader sees it (CONTRIBUTING.md, "Add a listing"): a line whose
comment ends with the marker ``[zh]`` belongs to the Chinese book only, ``[en]`` to the English
book only, every other line to both; :func:`for_language` keeps one language's lines, markers
removed. Only a marker at the very end of a real comment counts (Python's tokenizer finds them).
In the build, :func:`on_page_markdown` replaces a fence that includes ``snippets/chN/name.py`` with
the filtered file and what it prints (:func:`output`, run at build time and cached by content),
after the macros (no Jinja in listings) and the playground (which sees the include lines).
Only the standard library is imported at the top: tools/listings.py runs without MkDocs.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from pathlib import Path

LANGS = ("zh", "en")
# "# [zh]" alone (the marker is the whole comment) or "# some words [zh]" (it ends the comment).
_ALONE = re.compile(r"#\s*\[(?P<lang>zh|en)\]\s*$")
_ENDING = re.compile(r"\s+\[(?P<lang>zh|en)\]\s*$")


def markers(source: str) -> dict[int, tuple[str, int]]:
    """``{line number (1-based): (lang, column where the text to drop starts)}`` for marked lines."""
    found = {}
    if "[zh]" not in source and "[en]" not in source:
        return found
    lines = source.splitlines()
    # A listing may be unbalanced before filtering (the first line of a bracketed statement in a
    # [zh] and an [en] version): the tokenizer then stops at the end of the file, every comment read.
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            row, col = token.start
            if token.type != tokenize.COMMENT:
                continue
            if m := _ALONE.match(token.string):
                found[row] = (m["lang"], len(lines[row - 1][:col].rstrip()))   # the spaces before "# [zh]" too
            elif m := _ENDING.search(token.string):
                found[row] = (m["lang"], col + m.start())
    except (tokenize.TokenError, SyntaxError) as error:   # IndentationError is a SyntaxError
        if not (isinstance(error, tokenize.TokenError) and "EOF" in str(error)):
            raise ValueError(f"the listing cannot be tokenized, so its [zh]/[en] markers cannot be read: {error}") from None
    return found


@functools.lru_cache(maxsize=512)   # a build filters each listing 3 to 4 times: the tokenizer cost 0.1 s
def for_language(source: str, lang: str) -> str:
    """The listing ``source`` as the ``lang`` book shows and runs it (markers removed).

    >>> print(for_language('x = "猫"  # [zh]\\nx = "cat"  # [en]\\n# 打印 [zh]\\nprint(x)  # (1,)\\n', "en"), end="")
    x = "cat"
    print(x)  # (1,)
    >>> for_language("print(1)\\n", "zh")
    'print(1)\\n'
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    marked = markers(source)
    if not marked:
        return source
    out = []
    for number, line in enumerate(source.splitlines(keepends=True), 1):
        line_lang, start = marked.get(number, (lang, None))
        if line_lang == lang:   # a marked line: the text before the marker, and its line ending
            out.append(line if start is None else line[:start].rstrip() + line[len(line.rstrip("\r\n")):])
    return "".join(out)


# A listing on a page: an executed fence whose only line includes one file of snippets/.
FENCE = re.compile(r'^(?P<indent>[ \t]*)(?P<fence>`{3,})python exec="on"[^\n]*\n'
                   r'(?P=indent)--8<--\s+"(?P<path>[^"]+\.py)"\s*\n(?P=indent)(?P=fence)[ \t]*$', re.M)
SNIPPETS = Path(__file__).resolve().parents[1] / "snippets"


def expand(markdown: str, lang: str, page: str = "a page") -> str:
    """Each listing fence replaced by two plain fences: the listing for ``lang`` and what it printed."""
    from mkdocs.exceptions import PluginError

    def replace(match):
        path = SNIPPETS / match["path"]
        if not path.is_file():
            return match[0]  # pymdownx.snippets reports the missing file itself
        try:
            code = for_language(path.read_text(encoding="utf-8"), lang)
        except ValueError as error:
            raise PluginError(f"listings: snippets/{match['path']}: {error}") from None
        printed = output(code, f"snippets/{match['path']} (included by {page})")
        indent = match["indent"]
        fence = "`" * max([3] + [len(run) + 1 for run in re.findall("`+", code + printed)])
        source = "".join(f"{indent}{line}".rstrip() + "\n" for line in f"{fence}python\n{code.rstrip()}\n{fence}".splitlines())
        if not printed.strip():
            return source.rstrip("\n")
        # what the listing printed, every space kept (a line may end in spaces that line up a column)
        result = "".join(f"{indent}{line}\n" if line else "\n" for line in f"{fence}text\n{printed.rstrip(chr(10))}\n{fence}".splitlines())
        return source + "\n" + result.rstrip("\n")

    return FENCE.sub(replace, markdown)


def output(code: str, where: str) -> str:
    """What ``code`` prints, cached in .cache/listings/ under the code, the part of attnkit it can run
    and the environment. A listing that raises is logged as an error with ``where`` and the lines the
    error passed through: the strict build fails at its end, after reporting every other problem."""
    import logging

    from mkdocs.exceptions import PluginError

    from .bookcache import Store, digest_for, environment, key

    store = Store("listings", ".txt")
    k = key("listing", 3, code, digest_for(code=code), environment())
    cached = store.get(k)
    if cached is None:
        try:
            cached = run(code, where).encode("utf-8")
        except PluginError as error:
            logging.getLogger("mkdocs.hooks.listings").error(str(error))
            return f"({error})"
        store.put(k, cached)
    return cached.decode("utf-8")


def run(code: str, where: str) -> str:
    """What ``code`` printed, run in a fresh namespace (NumPy's print options restored after it)."""
    import contextlib
    import sys
    import traceback

    import numpy as np
    from mkdocs.exceptions import PluginError

    had_figures = "attnkit.figures" in sys.modules
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), np.printoptions():
            exec(compile(code, where, "exec"), {"__name__": "__main__"})
    except (Exception, SystemExit) as error:   # sys.exit() too: a listing runs to its end
        lines = code.splitlines()
        frames = [f"  line {f.lineno}: {lines[f.lineno - 1].strip()}" for f in traceback.extract_tb(error.__traceback__)
                  if f.filename == where and f.lineno and f.lineno <= len(lines)]
        raise PluginError(f"Listing {where} failed: {type(error).__name__}: {error}\n" + "\n".join(frames)) from None
    if not had_figures and "attnkit.figures" in sys.modules and "figures" not in code:
        raise PluginError(f"Listing {where} imported attnkit.figures without naming it: "
                          "the listing cache (keyed by what the code imports) cannot see that dependency")
    return printed.getvalue()


def download_path(name: str) -> str:
    """Where ``chN/stem.py`` is served, in one language, from the language's site root: the download
    and the page's "edit and run" control (overrides/assets/widgets/listing.js) hold the page's text."""
    return f"listings/{name}"


def downloads(lang: str) -> dict[str, str]:
    """``{site path: the listing as the lang book shows it}`` for every file of snippets/."""
    return {download_path(path.relative_to(SNIPPETS).as_posix()): for_language(path.read_text(encoding="utf-8"), lang)
            for path in sorted(SNIPPETS.rglob("*.py"))}


def on_config(config):
    from .bookcache import MEMOIZED, freeze, memoize

    freeze()            # attnkit's sources are read, and the pages' exercises found, once per build
    memoize(MEMOIZED)   # the listings share the data step's training runs and measurements
    return config


def on_page_markdown(markdown, page, config, files):
    lang = config.theme["language"]
    return expand(markdown, lang, f"docs/{lang}/{page.file.src_uri}")
