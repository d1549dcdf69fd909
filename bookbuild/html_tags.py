"""The one HTML tag pattern of the build, for every module that walks a page's tags (a11y.py,
glossary.py and print_only.py through :func:`regions`, trim_and_minify.py): a comment, or a start
or end tag whose attribute values may hold ``>`` inside their quotes (``title="a > b"`` does not
end the tag).

Groups, by name and number: ``closing`` (1, "/" for an end tag), ``name`` (2), ``attrs`` (3),
``selfclosing`` (4, "/" for ``<br/>``); a comment has none of them.

>>> [(m["closing"], m["name"], m["attrs"], m["selfclosing"]) for m in TAG.finditer('<p title="a > b">x</p><br/><!-- c -->')]
[('', 'p', ' title="a > b"', ''), ('/', 'p', '', ''), ('', 'br', '', '/'), (None, None, None, None)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

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
    pos = 0
    for tag in TAG.finditer(html):
        inside = bool(stack) and stack[-1][1]
        yield html[pos:tag.start()], None, inside
        yield tag[0], tag, inside
        pos = tag.end()
        name = (tag["name"] or "").lower()
        if name and tag["closing"]:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    break
        elif name and name not in VOID and not tag["selfclosing"]:
            stack.append((name, inside or picks(name, tag["attrs"])))
    yield html[pos:], None, bool(stack) and stack[-1][1]
