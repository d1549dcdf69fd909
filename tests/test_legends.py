"""A heat map's legend tells the truth in both palettes.

The training widget (8.5), the induction replay (11.2) and the playground's heat map say "the
darker the cell, the more weight" (「格子越深，权重越大」). In the dark palette they drew a heavy
weight as a bright cell on the dark page, the opposite of what their legends say. Here each heat
map is drawn as a reader sees it, in the light and the dark palette, both languages: the colour of
every cell is composed over what lies behind it, and the legend's claim (darker, or lighter,
means more weight) must hold between the heaviest and the lightest cell.
"""

from __future__ import annotations

import re

import pytest

from bookbuild.browser import launch, serve_site

pytestmark = pytest.mark.browser

CLAIM_DARKER = re.compile(r"darker|越深")
CLAIM_LIGHTER = re.compile(r"lighter|brighter|越浅|越亮")

# Each cell of the heat maps under `root`: its weight and the relative luminance (WCAG) of its
# colour composed over the colours behind it; and the legend sentences around it.
CELLS = """([rootSelector, cellSelector]) => {
  const root = document.querySelector(rootSelector);
  if (!root) return null;
  const rgba = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const parts = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => top.slice(0, 3).map((c, i) => top[3] * c + (1 - top[3]) * bottom[i]);
  const behind = (el) => {           // what lies behind an element: its ancestors' backgrounds, composed
    const layers = [];
    for (let e = el.parentElement; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] === 1) break;
    }
    let colour = [255, 255, 255];
    for (const c of layers.reverse()) colour = over(c, colour);
    return colour;
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const cells = [...root.querySelectorAll(cellSelector)].map((cell) => {
    const style = getComputedStyle(cell);
    let colour, weight;
    if (cell instanceof SVGElement) {
      const fill = rgba(style.fill);
      const alpha = Number(style.fillOpacity) * Number(style.opacity);
      colour = over([...fill.slice(0, 3), alpha * fill[3]], behind(cell));
      weight = Number(cell.getAttribute("fill-opacity"));
    } else {
      colour = over(rgba(style.backgroundColor), behind(cell));
      weight = Math.abs(parseFloat(cell.textContent));
    }
    return { weight, lum: luminance(colour) };
  });
  const hints = [...root.querySelectorAll(".attn-hint"), ...document.querySelectorAll("article p")]
    .map((p) => p.textContent);
  return { cells, hints };
}"""

CASES = {
    "train-gpt": ("/ch8/train-in-browser/", "[data-widget='train-gpt']", ".gpt-cell"),
    "induction-replay": ("/ch11/phase-change/", "[data-widget='induction-replay']", ".gpt-cell"),
    "playground": ("/playground/", "[data-playground]", "table.pg-heatmap tbody td"),
}


def contradiction(found: dict | None) -> str | None:
    """What is wrong between a heat map's cells and its legend (CELLS' answer), or None."""
    if not found or len(found["cells"]) < 2:
        return "no heat map drawn"
    legend = next((h for h in found["hints"] if CLAIM_DARKER.search(h) or CLAIM_LIGHTER.search(h)), None)
    if legend is None:
        return "no legend says what a cell's colour means"
    heavy = max(found["cells"], key=lambda c: c["weight"])
    light = min(found["cells"], key=lambda c: c["weight"])
    if heavy["weight"] <= light["weight"]:
        return "every cell has the same weight"
    darker = heavy["lum"] < light["lum"]
    if CLAIM_DARKER.search(legend) and not darker:
        return (f"the legend says darker means more ({legend.strip()[:80]}…), but the heaviest cell "
                f"(luminance {heavy['lum']:.2f}) is lighter than the lightest one ({light['lum']:.2f})")
    if CLAIM_LIGHTER.search(legend) and darker:
        return f"the legend says lighter means more ({legend.strip()[:80]}…), but the heaviest cell is darker"
    return None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_heat_map_legends_hold_in_both_palettes(lang):
    problems = []
    with serve_site() as base, launch() as browser:
        for dark in (False, True):
            page = browser.new_page(dark=dark)
            page.set_default_timeout(120_000)
            for name, (path, root, cells) in CASES.items():
                page.goto(base + ("/en" if lang == "en" else "") + path)
                if name == "playground":       # its welcome code draws a heat map when it runs
                    page.wait_for_selector(".cm-content")
                    page.click(".pg-run")
                    page.wait_for_selector("table.pg-heatmap")
                else:
                    page.wait_for_selector(f"{root}[data-mounted='yes'] {cells}")
                if why := contradiction(page.evaluate(CELLS, [root, cells])):
                    problems.append(f"{name} ({'dark' if dark else 'light'} palette): {why}")
            assert not page.errors and not page.outside, (page.errors, page.outside)
            page.context.close()
    assert not problems, "\n".join(problems)


def test_the_check_itself():
    cells = [{"weight": 0.9, "lum": 0.05}, {"weight": 0.1, "lum": 0.8}]
    assert contradiction({"cells": cells, "hints": ["the darker the cell, the more weight"]}) is None
    bright = [{"weight": 0.9, "lum": 0.8}, {"weight": 0.1, "lum": 0.05}]
    assert "heaviest cell" in contradiction({"cells": bright, "hints": ["格子越深，权重越大"]})
    assert contradiction({"cells": bright, "hints": ["the brighter the cell, the more weight"]}) is None
    assert contradiction({"cells": cells, "hints": ["nothing"]}) == "no legend says what a cell's colour means"
    assert contradiction({"cells": [], "hints": []}) == "no heat map drawn"
