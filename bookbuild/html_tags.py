"""The one HTML tag pattern of the build, for every module that walks a page's tags (a11y.py,
glossary.py and print_only.py through :func:`regions`, trim_and_minify.py): a comment, or a start
or end tag whose attribute values may hold ``>`` inside their quotes (``title="a > b"`` does not
end the tag). Groups: ``closing`` ("/" for an end tag), ``name``, ``attrs``, ``selfclosing``
("/" for ``<br/>``); a comment has none of them.

>>> [m.groups() for m in TAG.finditer('<p title="a > b">x</p><br/><!-- c -->')]
[('', 'p', ' title="a > b"', ''), ('/', 'p', '', ''), ('', 'br', '', '/'), (None, None, None, None)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

TAG = re.compile(r"<!--.*?-->"
                 r"|<(?P<closing>/?)(?P<name>[a-zA-Z][\w-]*)(?P<attrs>(?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(?P<selfclosing>/?)>",
                 re.S)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def regions(html: str, picks) -> Iterator[tuple[str, re.Match | None, bool]]:
    """``html`` as (text, None, inside) and (tag or comment, its match, inside), in order, where
    ``inside`` says whether it lies inside an element whose start tag ``picks(name, attrs)`` (an
    end tag closes the innermost open element of its name; a stray one is ignored).

    >>> [(text, inside) for text, _, inside in regions('<p>a<b>c<br></b></p>', lambda name, attrs: name == "b") if text]
    [('<p>', False), ('a', False), ('<b>', False), ('c', True), ('<br>', True), ('</b>', True), ('</p>', False)]
    """
    stack: list[tuple[str, bool]] = []   # open elements: (name, inside a picked one)
    pos, inside = 0, False
    for tag in TAG.finditer(html):
        yield html[pos:tag.start()], None, inside
        yield tag[0], tag, inside
        pos = tag.end()
        closing, name, attrs, selfclosing = tag.groups()
        if name and closing:
            name = name.lower()
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    inside = bool(stack) and stack[-1][1]
                    break
        elif name and name.lower() not in VOID and not selfclosing:
            inside = inside or picks(name.lower(), attrs)
            stack.append((name.lower(), inside))
    yield html[pos:], None, inside


def cached(name: str, html: str, lang: str, code: list[Path], make: Callable[[], str]) -> str:
    """``make()``, a pass over a page that depends only on ``html``, ``lang`` and the ``code`` that
    makes it (and this file): kept in .cache/<name>/ under them, so a warm build makes it only for
    the pages that changed."""
    from .bookcache import Store, key, sources

    store = Store(name, ".html")
    k = key(name, html, lang, sources([*code, Path(__file__).resolve()]))
    found = store.get(k)
    if found is not None:
        return found.decode("utf-8")
    out = make()
    store.put(k, out.encode("utf-8"))
    return out
