"""A strict Content-Security-Policy on every built page (bookbuild/csp.py), and no page breaks it."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser

from book import ROOT

SITE = ROOT / "site"
META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


def built_pages():
    found = sorted(SITE.rglob("*.html"))
    assert found, "no built site: run make build"
    return found


def directives(text: str) -> dict[str, list[str]]:
    found = META.findall(text)
    assert len(found) == 1, f"expected one CSP meta tag, found {len(found)}"
    return {part.split()[0]: part.split()[1:] for part in found[0].split("; ")}


def test_every_page_has_a_strict_policy_before_any_script():
    problems = []
    for path in built_pages():
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(SITE)
        try:
            csp = directives(text)
        except AssertionError as error:
            problems.append(f"{name}: {error}")
            continue
        script = csp["script-src"]
        if "'unsafe-inline'" in script or "'unsafe-eval'" in script:
            problems.append(f"{name}: script-src allows inline code or eval: {script}")
        for key, want in (("connect-src", ["'self'"]), ("object-src", ["'none'"]), ("base-uri", ["'self'"])):
            if csp.get(key) != want:
                problems.append(f"{name}: {key} is {csp.get(key)}, expected {want}")
        runs_python = re.search(r"<[a-zA-Z][^>]*\sdata-python[\s=>]", text) is not None
        if ("'wasm-unsafe-eval'" in script) != runs_python:
            problems.append(f"{name}: 'wasm-unsafe-eval' {'missing' if runs_python else 'granted'} (data-python: {runs_python})")
        if text.find("<script") < text.find("Content-Security-Policy"):
            problems.append(f"{name}: a script comes before the policy")
    assert not problems, "\n".join(problems[:30])


class Inline(HTMLParser):
    """What a page's policy must allow or would block, read by an HTML parser (not by the build's
    regular expression): the text of every inline script, every inline event handler
    (``onclick="..."``) and every ``javascript:`` address."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.scripts, self.handlers, self.current = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and "src" not in attrs:
            self.current = []
        self.handlers += [f"<{tag} {name}=...>" for name, value in attrs.items()
                          if name.startswith("on") or (value or "").strip().lower().startswith("javascript:")]

    def handle_data(self, data):
        if self.current is not None:
            self.current.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self.current is not None:
            self.scripts.append("".join(self.current))
            self.current = None


def test_every_inline_script_of_every_page_is_one_its_policy_allows():
    """What the browser sweep (tests/test_pages.py) would see as a blocked inline script or handler,
    on every page, without a browser: the sweep loads one page of each kind (test_axe.page_types)."""
    problems = []
    for path in built_pages():
        text = path.read_text(encoding="utf-8")
        found = Inline()
        found.feed(text)
        allowed = set(directives(text)["script-src"])
        for body in found.scripts:
            digest = "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
            if digest not in allowed:
                problems.append(f"{path.relative_to(SITE)}: inline script not in script-src: {body.strip()[:80]!r}")
        problems += [f"{path.relative_to(SITE)}: {handler} (the policy blocks it)" for handler in found.handlers]
    assert len(built_pages()) > 100
    assert not problems, "\n".join(problems[:30])


def test_the_inline_reader_finds_scripts_and_handlers():
    found = Inline()
    found.feed('<script>a<b</script><script src="x.js"></script><button onclick="f()">x</button><a href="javascript:f()">y</a>')
    assert found.scripts == ["a<b"] and len(found.handlers) == 2


def test_the_playground_may_run_webassembly_and_a_chapter_may_not():
    assert "'wasm-unsafe-eval'" in directives((SITE / "playground" / "index.html").read_text(encoding="utf-8"))["script-src"]
    assert "'wasm-unsafe-eval'" not in directives((SITE / "ch3" / "qkv" / "index.html").read_text(encoding="utf-8"))["script-src"]


RECORD = """() => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
}"""


def record_violations(page) -> list[str]:
    """Make a (csp=True) page record what its policy blocks, from its next load on: the
    securitypolicyviolation events of each page, and Chromium's console reports. Returns the list
    the console reports go to; read a page's events with ``violations(page)`` after it settles.
    tests/test_pages.py loads every page of both languages this way."""
    page.add_init_script(f"({RECORD})()")
    console = []
    page.on("console", lambda m: "Content Security Policy" in m.text and console.append(m.text))
    return console


def violations(page) -> list[str]:
    """What the policy blocked on the page loaded last (see record_violations)."""
    return page.evaluate("window.__violations")
