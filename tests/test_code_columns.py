"""Code and listing output line up in the browser: every line of every code block on every page
is as wide as attnkit.text.width says, in columns of the page's code font.

Listings lay out their tables with attnkit.text.pad, which counts a Han character or a
full-width mark as two columns and everything else as one. tests/listing_output.py checks the
printed text; this test checks what a reader sees, which also depends on the fonts:
overrides/assets/book.css takes the "ambiguous width" symbols (× · … “ ”) and the superscripts
of 10⁻⁹ from a Latin monospace font in the Chinese book, and stops Chromium from trimming
full-width punctuation inside code. Without those rules a Chinese table drifts by up to half a
character per cell (measured: 4.2×10⁻⁶ took 8.4 columns, "（…）：" one column less).
The print page is left out: it is every page again, for the PDF.
"""

from __future__ import annotations

import pytest

from attnkit.text import width
from browser import launch, serve_site
from test_axe import site_pages

pytestmark = pytest.mark.browser

TOLERANCE = 0.05   # columns; a wrong glyph is off by 0.2 or more

# Every line of every code block, as [text, columns it takes]; a column is the width of "x".
MEASURE = """async () => {
  const blocks = [...document.querySelectorAll('pre > code')].filter(c => !c.closest('.print-only'));
  const probes = blocks.map(code => {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
    probe.textContent = code.textContent;          // every glyph once, so its font loads first
    code.appendChild(probe);
    return probe;
  });
  await document.fonts.ready;
  const out = [];
  blocks.forEach((code, i) => {
    const probe = probes[i], lines = probe.textContent.split('\\n');
    probe.textContent = 'x'.repeat(40);
    const column = probe.getBoundingClientRect().width / 40;
    for (const line of lines) {
      if (!line.trim()) continue;
      probe.textContent = line;
      out.push([line, probe.getBoundingClientRect().width / column]);
    }
    probe.remove();
  });
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_code_line_takes_the_columns_attnkit_counts(lang):
    paths = [p for p in site_pages() if p.startswith("/en/") == (lang == "en") and "print_page" not in p]
    assert paths, "no built pages: run make build first"
    off = []
    with serve_site() as base, launch() as browser:
        page = browser.new_page()
        for path in paths:
            page.goto(base + path)
            for line, columns in page.evaluate(MEASURE):
                if abs(columns - width(line)) > TOLERANCE:
                    off.append(f"{path}: {columns:.2f} columns, width() says {width(line)}: {line.strip()[:70]}")
    assert not off, f"{len(off)} code lines are not as wide as attnkit.text.width counts:\n" + "\n".join(off[:30])
