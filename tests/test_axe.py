"""axe-core on every built page of both languages, light and dark, wide and phone-sized:
WCAG 2.0/2.1 A and AA rules, 0 violations, nothing excluded from the scan.

axe comes from npm (package.json pins it; `npm ci` installs it) and is injected offline with
Playwright's add_script_tag. The pages are discovered from the built site, so a new chapter is
scanned without touching this file. Folds (`??? note`, `??? question`) are opened before the scan
so that what a reader sees when they open one is checked too; tabbed blocks are scanned with
every tab shown in turn. One browser; one context and one page per palette; each page is loaded
once per palette, scanned at 1280 px, then resized to 375 px (Material's layout and the widgets
follow the width through CSS alone) and scanned again. A JSON report of what failed, and the
time each page took, goes to test-artifacts/axe/.
"""

from __future__ import annotations

import json
import time

import pytest

from book import ROOT
from browser import SITE, launch, serve_site

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


def scan(page, url: str) -> dict[int, list[dict]]:
    """axe's violations on one page at each width: {1280: [...], 375: [...]}."""
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    page.goto(url, wait_until="load")
    page.wait_for_function(SETTLE, timeout=30000)
    page.add_script_tag(path=str(AXE))
    found = {}
    for width in WIDTHS:
        if width != WIDTHS[0]:
            page.set_viewport_size({"width": width, "height": 900})
            # Material's drawer and nav slide into their phone layout: wait until the transitions end.
            page.wait_for_function("""() => document.getAnimations().every(
                a => a.playState !== "running" || a.effect.getTiming().iterations === Infinity)""")
        found[width] = page.evaluate(RUN, TAGS)
    return found


@pytest.fixture(scope="module")
def site():
    with serve_site() as base, launch() as browser:
        yield base, browser


def test_site_pages_are_discovered_from_the_build():
    urls = site_pages()
    for expected in ("/", "/en/", "/ch3/softmax/", "/en/ch3/softmax/", "/tour/", "/en/playground/", "/404.html"):
        assert expected in urls
    assert not [u for u in urls if "/assets/" in u]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_wcag_violation(site, dark):
    base, browser = site
    palette = "dark" if dark else "light"
    page = browser.new_page(width=WIDTHS[0], height=900, dark=dark)
    page.set_default_timeout(60000)  # generous: CI machines can be busy
    failures, seconds = {}, {}
    for path in site_pages():
        start = time.perf_counter()
        for width, found in scan(page, base + path).items():
            if found:
                failures[f"{path} @ {width} px"] = found
        seconds[path] = round(time.perf_counter() - start, 2)
    REPORT.mkdir(parents=True, exist_ok=True)
    (REPORT / f"{palette}.json").write_text(
        json.dumps({"violations": failures, "seconds": seconds}, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = []
    for where, found in failures.items():
        rules = {}
        for item in found:
            rules.setdefault(item["rule"], []).append(item)
        for rule, items in rules.items():
            lines.append(f"{where}: {rule} ×{len(items)}, e.g. {items[0]['target']} — "
                         f"{items[0]['summary'].splitlines()[-1].strip()}")
    assert not failures, (f"axe ({palette}): {sum(map(len, failures.values()))} violations "
                          f"(report: {REPORT / (palette + '.json')}):\n" + "\n".join(lines))
    assert not page.outside, f"requests to outside the site: {page.outside}"
