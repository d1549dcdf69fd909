"""axe-core on every built page of both languages, light and dark, wide and phone-sized:
WCAG 2.0/2.1 A and AA rules and axe's best practices, 0 violations, nothing excluded from the scan.

axe comes from npm (package.json pins it; `npm ci` installs it) and is loaded from the site's own
origin (routed to node_modules), so it runs under each page's strict CSP. The pages are discovered
from the built site, so a new chapter is scanned without touching this file. Folds (`??? note`,
`??? question`) are opened before the scan so that what a reader sees when they open one is
checked too; tabbed blocks are scanned with every tab shown in turn. Each page is scanned at
1280 px, then resized to 375 px (Material's layout and the widgets follow the width through CSS
alone) and scanned again.

The light palette is scanned by tests/test_pages.py, in the visit that runs its other per-page
checks; this module holds the scanner and scans every page in the dark palette, loaded with
prefers-color-scheme: dark. (Scanning dark in the same visit, after a click on the palette
switch, took as long: the switch and its transitions cost what a load saves.) In the dark
palette only colours differ, so every page is scanned with the rules that read colours
(PALETTE_RULES) and each language's home page, which shows the header, the palette switch
and the footer every page shares, with all of them: an axe run with every rule took about
twice as long as one with the colour rules (measured on six pages, 1.4-4.1 s against
0.5-2.5 s), and the dark sweeps were two of the four longest tests of CI. The print page,
the whole book on one page for the PDF, is scanned at 1280 px only and in the light palette
only: every part of it is also a page of its own that is scanned at both widths in both
palettes, and it is printed on A4 in the light palette, never read at 375 px.
A JSON report of what failed, and the time each page took, goes to test-artifacts/axe/<palette>-<lang>.json.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
import time
from pathlib import Path

import pytest

from book import ROOT, _config, nav_files, not_in_nav, page_url
from bookbuild.browser import SITE, launch, serve_site

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REPORT = ROOT / "test-artifacts" / "axe"
# WCAG 2.0/2.1 A and AA, and axe's best practices (landmark-unique, region, heading-order, ...)
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
EVERY_RULE = {"type": "tag", "values": TAGS}
# the rules whose outcome depends on the palette: text against its background, and a link told
# from the text around it by colour alone
PALETTE_RULES = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}


def site_pages() -> list[str]:
    """Every HTML page the build wrote (both languages), as URL paths: "/", "/en/ch3/softmax/", "/404.html"."""
    found = []
    for html in sorted(SITE.rglob("*.html")):
        relative = html.relative_to(SITE)
        if relative.parts[0] == "assets" or (len(relative.parts) > 1 and relative.parts[:2] == ("en", "assets")):
            continue  # vendored files (e.g. KaTeX's or Pyodide's own), not pages of the book
        if html.name == "index.html":
            found.append("/" + "".join(part + "/" for part in relative.parts[:-1]))
        else:
            found.append("/" + relative.as_posix())
    return found


def chosen(paths: list[str], only: list[str]) -> list[str]:
    """``paths`` that contain one of ``only`` (all of them when ``only`` is empty)."""
    return [p for p in paths if not only or any(part in p for part in only)]


def swept(lang: str, only: list[str]) -> list[str]:
    """The pages of ``lang`` a whole-book sweep visits: all of them, or those whose path contains
    one of ``only`` (pytest's ``--pages`` option, tests/conftest.py); skips the test when none does."""
    paths = chosen([p for p in site_pages() if p.startswith("/en/") == (lang == "en")], only)
    if only and not paths:
        pytest.skip(f"--pages {','.join(only)}: no {lang} page matches")
    assert paths, "no built pages: run make build first"
    return paths


ELEMENT = re.compile(r'<([a-z][\w-]*)\b[^>]*?\bclass="([^"]*)"|data-widget="([^"]+)"')


def signature(path: str) -> set[str]:
    """What a page is made of, as its built HTML says: each ``tag.class`` of its content and each
    widget it embeds."""
    html = (SITE / path.lstrip("/") / ("index.html" if path.endswith("/") else "")).read_text(encoding="utf-8")
    content = html[html.find('<div class="md-content"'):]
    return {f"widget:{m[3]}" if m[3] else f"{m[1]}.{cls}" for m in ELEMENT.finditer(content) for cls in (m[2] or "-").split()}


@functools.cache
def kinds(lang: str) -> dict[str, str]:
    """{URL path: kind of page} for every page of ``lang`` the build wrote, from the config the
    build read (book.py): a page of the nav at the top is a kind of its own ("home" for index.md,
    "tour", "playground", "teach", "glossary", "references"); in a chapter's folder, its index is
    a "chapter opening", a page mkdocs-jupyter converts (its ``include`` patterns) a "lab", any
    other nav page a "section"; a page kept out of the nav on purpose (``not_in_nav``) is named by
    its file ("slides"); a page the build writes from no source is named by its file ("404.html",
    "print_page"). A page of a new kind (a new top-level page, a new unlisted file) is a new kind
    without anyone touching this function."""
    jupyter = [pattern for plugin in _config(lang, "plugins") or [] if isinstance(plugin, dict)
               for pattern in (plugin.get("mkdocs-jupyter") or {}).get("include", [])]
    unlisted = not_in_nav(lang)
    found = {}
    for source in nav_files(lang) + sorted(unlisted):
        stem = Path(source).with_suffix("")
        if source in unlisted:
            kind = stem.name
        elif len(stem.parts) == 1:
            kind = "home" if stem.name == "index" else stem.name
        elif stem.name == "index":
            kind = "chapter opening"
        elif any(fnmatch.fnmatch(source, pattern) for pattern in jupyter):
            kind = "lab"
        else:
            kind = "section"
        found[page_url(lang, source)] = kind
    for path in site_pages():
        if path.startswith("/en/") == (lang == "en") and path not in found:
            found[path] = path.rstrip("/").rsplit("/", 1)[-1]
    return found


def page_types(paths: list[str]) -> list[str]:
    """The fewest of ``paths`` (in their order, greedily) that together hold every kind of page
    (:func:`kinds`), every ``tag.class`` and every widget the others hold (:func:`signature`): one
    page per kind of page and per kind of element, for a sweep whose outcome depends on what a page
    is made of, not on its words. tests/test_axe.py's test_every_kind_of_page_is_sampled proves it."""
    return fewest({path: signature(path) | {"kind:" + kinds("en" if path.startswith("/en/") else "zh")[path]}
                   for path in paths})


def fewest(features: dict) -> list:
    """The fewest keys of ``features`` (greedily, in their order) whose sets together hold every
    feature any of them holds. ``fewest({"a": {1, 2}, "b": {2}, "c": {3}}) == ["a", "c"]``."""
    left = dict(features)
    wanted, chosen = set().union(*left.values()) if left else set(), set()
    while wanted:
        best = max(left, key=lambda key: len(left[key] & wanted))
        chosen.add(best)
        wanted -= left.pop(best)
    return [key for key in features if key in chosen]


# Open every fold, then wait until the page is settled: widgets mounted, playground's editor in place.
SETTLE = """() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const pending = [...document.querySelectorAll("[data-widget]")].filter(
    (w) => w.dataset.mounted !== "yes" && w.dataset.mounted !== "failed");
  // (the print page leaves its playground unmounted: overrides/assets/playground/loader.js)
  const playground = document.querySelector("[data-playground]:not(#print-site-page [data-playground])");
  return pending.length === 0 && (!playground || playground.dataset.mounted === "1")
    && document.fonts.status === "loaded";
}"""

# Lay out every block the stylesheet lets the browser skip while it is off screen
# (content-visibility: auto, overrides/assets/book.css), as a reader who scrolls past it sees it,
# so that what is measured and scanned is the whole page. Returns the blocks that, drawn, are
# larger than the block by more than its overflow-clip-margin (on screen they would be clipped),
# or taller than the height they hold while skipped (overrides/assets/book.css: a short estimate
# puts their content over the next blocks for axe-core, axe-core#2768). With ``again`` true it only
# measures the blocks revealed before (after a resize).
REVEAL = """(again) => {
  const problems = [];
  for (const el of document.querySelectorAll("body *")) {
    if (again ? el.dataset.revealed !== "yes" : getComputedStyle(el).contentVisibility !== "auto") continue;
    el.style.contentVisibility = "visible";
    el.dataset.revealed = "yes";
    const style = getComputedStyle(el);
    const margin = parseFloat(style.overflowClipMargin) || 0;
    const what = `${el.tagName.toLowerCase()}.${el.className || ""} "${el.textContent.trim().slice(0, 40)}"`;
    if (el.scrollWidth > el.clientWidth + margin + 1 || el.scrollHeight > el.clientHeight + margin + 1) {
      problems.push(`${what}: content ${el.scrollWidth}x${el.scrollHeight} px in ${el.clientWidth}x${el.clientHeight}`);
    }
    const held = parseFloat(style.containIntrinsicBlockSize.replace("auto", ""));
    if (held && el.getBoundingClientRect().height > held + 1) {
      problems.push(`${what}: ${Math.round(el.getBoundingClientRect().height)} px tall, holds ${Math.round(held)} px ` +
                    `while skipped (${el.getAttribute("style")}): raise its --held in overrides/assets/book.css`);
    }
  }
  return problems;
}"""


def reveal(page, again: bool = False) -> list[str]:
    """Run REVEAL on the page: the blocks that would be clipped or hold too little, with the width."""
    return [f"@ {page.viewport_size['width']} px: {c}" for c in page.evaluate(REVEAL, again)]


RUN = """async (runOnly) => {
  const options = { runOnly, resultTypes: ["violations"] };
  const found = [];
  const collect = (results) => {
    for (const v of results.violations) for (const node of v.nodes) {
      found.push({ rule: v.id, impact: v.impact, target: node.target.join(" "),
                   html: node.html.slice(0, 200), summary: node.failureSummary });
    }
  };
  collect(await axe.run(document, options));
  // Tabbed blocks (pymdownx.tabbed): the first tab is scanned above; show each other tab in turn.
  for (const set of document.querySelectorAll(".tabbed-set")) {
    const inputs = [...set.querySelectorAll(":scope > input")];
    for (const input of inputs.slice(1)) {
      input.checked = true;
      collect(await axe.run(set, options));
    }
    if (inputs.length) inputs[0].checked = true;
  }
  return found;
}"""


WIDTHS = (1280, 375)
AXE_PATH = "/__axe__/axe.min.js"
SETTLED = """() => document.getAnimations().every(
    a => a.playState !== "running" || a.effect.getTiming().iterations === Infinity)"""


def inject_axe(page, base: str) -> None:
    """Load axe into a (sync Playwright) page from the site's own origin (the page's strict CSP
    allows 'self' scripts and no inline ones, so add_script_tag(path=...) would be blocked); the
    file comes from node_modules. tests/test_figure_text.py uses it."""
    if not getattr(page, "axe_routed", False):
        page.route("**" + AXE_PATH, lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
        page.axe_routed = True
    page.add_script_tag(url=base + AXE_PATH)


def widths(path: str) -> tuple[int, ...]:
    """The print page at 1280 px only (see the module docstring); every other page at both widths."""
    return WIDTHS[:1] if path.rstrip("/").endswith("print_page") else WIDTHS


def open_settled(page, base: str, path: str) -> list[str]:
    """Load ``path`` at 1280 px and settle it (see settle)."""
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    page.goto(base + path, wait_until="load")
    return settle(page)


def settle(page, transitions: bool = True) -> list[str]:
    """Open every fold, wait for widgets and fonts, lay out every block (REVEAL), then wait for
    transitions to end (unless ``transitions`` is false: for a visit that scans no colours).
    Returns the blocks whose content would be clipped on screen."""
    # The print page (the whole book, 57 widgets) settles in about 22 s on a quiet machine.
    page.wait_for_function(SETTLE, timeout=180_000 if "print_page" in page.url else 30_000)
    clipped = reveal(page)
    # Opening folds and Material's nav start CSS transitions: scanned mid-way, a link can be
    # measured against a colour it only passes through (CI once saw #040404 on #212121 in the
    # light palette). Wait until every finite animation or transition has ended. (Sizes do not
    # wait for them: REVEAL and the label sizes of tests/test_figure_text.py measured the same
    # on the 102 pages test_pages.py loads without axe, right after a resize and once it ended.)
    if transitions:
        page.wait_for_function(SETTLED)
    return clipped


def scan(page, base: str, path: str, rules: dict = EVERY_RULE) -> dict[int, list[dict]]:
    """axe's violations on a loaded, settled page at each width: {1280: [...], 375: [...]}, with
    axe's ``runOnly`` option ``rules`` (every WCAG A/AA and best-practice rule by default).
    Leaves the page at the last width scanned."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        inject_axe(page, base)
    found = {}
    for width in widths(path):
        if page.viewport_size["width"] != width:
            page.set_viewport_size({"width": width, "height": 900})
            # Material's drawer and nav slide into their phone layout: wait until the transitions end.
            page.wait_for_function(SETTLED)
        found[width] = page.evaluate(RUN, rules)
    return found


def confirmed(page, base: str, path: str, found: dict[int, list[dict]], rules: dict = EVERY_RULE) -> dict[int, list[dict]]:
    """A page with violations is loaded and scanned once more: a real violation (axe on a settled
    page is deterministic) comes back and is reported as found the second time; one that does not
    was a moment of the page, not the page."""
    if not any(found.values()):
        return found
    open_settled(page, base, path)
    return scan(page, base, path, rules)


def report(palette: str, lang: str, failures: dict, seconds: dict, total: float) -> str:
    """Write test-artifacts/axe/<palette>-<lang>.json; return the failure message (or "")."""
    REPORT.mkdir(parents=True, exist_ok=True)
    path = REPORT / f"{palette}-{lang}.json"
    path.write_text(json.dumps({"violations": failures, "seconds": seconds, "total_seconds": round(total, 1)},
                               ensure_ascii=False, indent=1), encoding="utf-8")
    lines = []
    for where, found in failures.items():
        rules = {}
        for item in found:
            rules.setdefault(item["rule"], []).append(item)
        for rule, items in rules.items():
            lines.append(f"{where}: {rule} ×{len(items)}, e.g. {items[0]['target']} — "
                         f"{items[0]['summary'].splitlines()[-1].strip()}")
    if not lines:
        return ""
    return (f"axe ({palette}, {lang}): {sum(map(len, failures.values()))} violations (report: {path}):\n"
            + "\n".join(lines))


def test_site_pages_are_discovered_from_the_build():
    urls = site_pages()
    for expected in ("/", "/en/", "/ch3/softmax/", "/en/ch3/softmax/", "/tour/", "/en/playground/", "/404.html"):
        assert expected in urls
    assert not [u for u in urls if "/assets/" in u]


# The kinds of page the book has today: a classification that lost one (a renamed config key,
# a nav read wrongly) fails here, before a sweep quietly stops visiting it.
KINDS = {"home", "tour", "playground", "teach", "glossary", "references", "chapter opening", "section", "lab",
         "slides", "404.html", "print_page"}


def test_every_kind_of_page_is_sampled():
    """page_types, the sample of the sweeps (light, dark, touch): in each language one page at
    least of every kind (kinds: from the nav and the config), with every widget, tag.class and
    kind of page of the book; every built page has a kind."""
    for lang in ("zh", "en"):
        paths = swept(lang, [])
        assert set(kinds(lang)) == set(paths), set(kinds(lang)) ^ set(paths)
        assert KINDS <= set(kinds(lang).values()), KINDS - set(kinds(lang).values())
        book = [p for p in paths if "print_page" not in p]
        sample = page_types(book)
        assert {kinds(lang)[p] for p in sample} == {kinds(lang)[p] for p in book}
        assert set().union(*map(signature, sample)) == set().union(*map(signature, book))
        widgets = {w for p in book for w in signature(p) if w.startswith("widget:")}
        assert {"widget:exercise", "widget:question", "widget:rope"} <= widgets
        assert len(sample) < len(book) / 3, (len(sample), len(book))


def test_fewest_covers_every_feature_with_the_fewest_keys():
    assert fewest({"a": {1, 2}, "b": {2}, "c": {3}}) == ["a", "c"]
    assert fewest({"b": {2}, "a": {1, 2, 3}}) == ["a"] and fewest({}) == []


def test_the_pages_option_keeps_the_pages_whose_path_contains_a_part():
    paths = ["/", "/ch9/kv-cache/", "/en/", "/en/ch9/kv-cache/", "/en/tour/", "/404.html"]
    assert chosen(paths, []) == paths
    assert chosen(paths, ["ch9/kv-cache"]) == ["/ch9/kv-cache/", "/en/ch9/kv-cache/"]
    assert chosen(paths, ["en/tour", "404"]) == ["/en/tour/", "/404.html"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_axe_finds_no_wcag_violation_in_the_dark_palette(lang, only_pages):
    # the print page is made to be printed, in the light palette (tools/pdf.py); each of its
    # chapters is a page of its own (it took 54-60 s of each dark sweep). The light sweep
    # (test_pages.py) scans every page; here the palette's colours meet each kind of element once:
    # one page per kind of page (page_types), or the pages --pages names.
    paths = [p for p in swept(lang, only_pages) if "print_page" not in p]
    # (and the home page, scanned with every rule: below)
    paths = paths if only_pages else [p for p in paths if p in page_types(paths) or p in ("/", "/en/")]
    failures, seconds, schemes = {}, {}, {}
    start = time.perf_counter()
    with serve_site() as base, launch() as browser:
        page = browser.new_page(dark=True)
        page.set_default_timeout(60000)  # generous: CI machines can be busy
        for path in paths:
            began = time.perf_counter()
            try:
                open_settled(page, base, path)
                rules = EVERY_RULE if path in ("/", "/en/") else PALETTE_RULES
                found = confirmed(page, base, path, scan(page, base, path, rules), rules)
            except Exception as error:  # a page that does not settle is a failure of that page
                found = {0: [{"rule": "scan-failed", "target": path, "summary": str(error).splitlines()[0]}]}
            failures.update({f"{path} @ {width} px": items for width, items in found.items() if items})
            seconds[path] = round(time.perf_counter() - began, 2)
            schemes[path] = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        # every book page took the dark palette; a chapter's slides are light only, made for a projector
        assert all(scheme == ("default" if path.endswith("/slides/") else "slate") for path, scheme in schemes.items()), schemes
        # every rule of TAGS that speaks of colour or contrast is one PALETTE_RULES runs (a new
        # version of axe may add one)
        colour_rules = page.evaluate("""(tags) => axe.getRules(tags).filter(
            r => /colou?r|contrast/i.test(r.description + " " + r.help)).map(r => r.ruleId).sort()""", TAGS)
        assert colour_rules == sorted(PALETTE_RULES["values"]), colour_rules
    message = report("dark", lang, failures, seconds, time.perf_counter() - start)
    assert not message, message
    assert not page.outside, f"requests to outside the site: {page.outside}"
