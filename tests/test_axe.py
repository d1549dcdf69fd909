"""axe-core on every built page of both languages, light and dark, wide and phone-sized:
WCAG 2.0/2.1 A and AA rules, 0 violations, nothing excluded from the scan.

axe comes from npm (package.json pins it; `npm ci` installs it) and is injected offline with
Playwright's add_script_tag. The pages are discovered from the built site, so a new chapter is
scanned without touching this file. Folds (`??? note`, `??? question`) are opened before the scan
so that what a reader sees when they open one is checked too; tabbed blocks are scanned with
every tab shown in turn. Each page is loaded once per palette, scanned at 1280 px, then resized
to 375 px (Material's layout and the widgets follow the width through CSS alone) and scanned again.

Speed (CI): one test per palette and language, so pytest-xdist can spread the four over its
workers; in each, one browser context with several tabs scanning pages at the same time (a page
spends much of its time waiting for fonts, widgets and transitions, not computing). The print
page, the whole book on one page for the PDF, is scanned once per palette at 1280 px only: every
part of it is also a page of its own that is scanned at both widths, and it is printed on A4, never
read at 375 px; at 375 px it alone took about a minute per palette. A JSON report of what failed,
and the time each page took, goes to test-artifacts/axe/<palette>-<lang>.json (one file per test).
"""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import urlparse

import pytest

from book import ROOT
from browser import CHROMIUM_FLAGS, SITE, chromium_path, serve_site

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REPORT = ROOT / "test-artifacts" / "axe"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


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


# Open every fold, then wait until the page is settled: widgets mounted, playground's editor in place.
SETTLE = """() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const pending = [...document.querySelectorAll("[data-widget]")].filter(
    (w) => w.dataset.mounted !== "yes" && w.dataset.mounted !== "failed");
  const playground = document.querySelector("[data-playground]");
  return pending.length === 0 && (!playground || playground.dataset.mounted === "1")
    && document.fonts.status === "loaded";
}"""

RUN = """async (tags) => {
  const options = { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] };
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
TABS = 3   # pages scanned at the same time in one context
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


async def scan(page, base: str, path: str) -> dict[int, list[dict]]:
    """axe's violations on one page at each width: {1280: [...], 375: [...]}.

    axe is loaded from the site's own origin (routed to node_modules), as a page's strict CSP
    allows 'self' scripts and no inline ones."""
    await page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    await page.goto(base + path, wait_until="load")
    await page.wait_for_function(SETTLE, timeout=30000)
    # Opening folds and Material's nav start CSS transitions: scanned mid-way, a link can be
    # measured against a colour it only passes through (CI once saw #040404 on #212121 in the
    # light palette). Wait until every finite animation or transition has ended.
    await page.wait_for_function(SETTLED)
    await page.add_script_tag(url=base + AXE_PATH)
    found = {}
    for width in widths(path):
        if width != WIDTHS[0]:
            await page.set_viewport_size({"width": width, "height": 900})
            # Material's drawer and nav slide into their phone layout: wait until the transitions end.
            await page.wait_for_function(SETTLED)
        found[width] = await page.evaluate(RUN, TAGS)
    return found


async def scan_all(base: str, paths: list[str], dark: bool) -> tuple[dict, dict, list[str]]:
    """Scan ``paths`` in TABS tabs of one context: (violations by "path @ width", seconds by path,
    requests to outside the site)."""
    from playwright.async_api import async_playwright

    failures, seconds, outside = {}, {}, []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        context = await browser.new_context(
            viewport={"width": WIDTHS[0], "height": 900}, color_scheme="dark" if dark else "light",
            service_workers="block", bypass_csp=True)  # bypassed for wait_for_function; test_csp.py checks the policy
        context.set_default_timeout(60000)  # generous: CI machines can be busy

        async def route(route):
            url = route.request.url
            if urlparse(url).path == AXE_PATH:
                await route.fulfill(path=str(AXE), content_type="text/javascript")
            elif urlparse(url).hostname in ("127.0.0.1", "localhost"):
                await route.continue_()
            else:
                outside.append(url)
                await route.abort()

        await context.route("**/*", route)
        todo = list(paths)

        async def tab():
            page = await context.new_page()
            while todo:
                path = todo.pop(0)
                start = time.perf_counter()
                try:
                    for width, found in (await scan(page, base, path)).items():
                        if found:
                            failures[f"{path} @ {width} px"] = found
                except Exception as error:  # a page that does not settle is a failure of that page
                    failures[path] = [{"rule": "scan-failed", "target": path, "summary": str(error).splitlines()[0]}]
                seconds[path] = round(time.perf_counter() - start, 2)
            await page.close()

        await asyncio.gather(*(tab() for _ in range(TABS)))
        # A page with violations is scanned once more, alone: a real violation (axe on a settled
        # page is deterministic) comes back and is reported as found the second time; one that
        # does not was a moment of the page, not the page.
        again = sorted({where.split(" @ ")[0] for where in failures})
        if again:
            for where in [w for w in failures if w.split(" @ ")[0] in again]:
                del failures[where]
            todo.extend(again)
            await tab()
        await browser.close()
    return failures, seconds, outside


def test_site_pages_are_discovered_from_the_build():
    urls = site_pages()
    for expected in ("/", "/en/", "/ch3/softmax/", "/en/ch3/softmax/", "/tour/", "/en/playground/", "/404.html"):
        assert expected in urls
    assert not [u for u in urls if "/assets/" in u]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_wcag_violation(dark, lang):
    palette = "dark" if dark else "light"
    paths = [p for p in site_pages() if p.startswith("/en/") == (lang == "en")]
    start = time.perf_counter()
    with serve_site() as base:
        failures, seconds, outside = asyncio.run(scan_all(base, paths, dark))
    REPORT.mkdir(parents=True, exist_ok=True)
    report = REPORT / f"{palette}-{lang}.json"
    report.write_text(json.dumps({"violations": failures, "seconds": seconds,
                                  "total_seconds": round(time.perf_counter() - start, 1)},
                                 ensure_ascii=False, indent=1), encoding="utf-8")
    lines = []
    for where, found in failures.items():
        rules = {}
        for item in found:
            rules.setdefault(item["rule"], []).append(item)
        for rule, items in rules.items():
            lines.append(f"{where}: {rule} ×{len(items)}, e.g. {items[0]['target']} — "
                         f"{items[0]['summary'].splitlines()[-1].strip()}")
    assert len(seconds) == len(paths), "some pages were not scanned"
    assert not failures, (f"axe ({palette}, {lang}): {sum(map(len, failures.values()))} violations "
                          f"(report: {report}):\n" + "\n".join(lines))
    assert not outside, f"requests to outside the site: {outside}"
