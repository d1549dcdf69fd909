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
A line whose measured width is not a number (a probe with no layout) counts as off.
"""

from __future__ import annotations


from attnkit.text import width

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


def column_problems(page, path: str) -> list[str]:
    """Code lines of the loaded page that do not take width(line) columns. tests/test_pages.py
    runs it on every page of both languages (folds open, fonts loaded), the print page aside."""
    return [f"{path}: {columns:.2f} columns, width() says {width(line)}: {line.strip()[:70]}"
            for line, columns in page.evaluate(MEASURE) if not abs(columns - width(line)) <= TOLERANCE]


def test_a_line_that_renders_wider_is_reported():
    class Page:   # what MEASURE returns: a line drawn a column too wide, one with no layout
        def evaluate(self, script):
            return [["x = 1", 5.0], ["分数 = 0.5", 11.0], ["y", float("nan")]]
    assert column_problems(Page(), "/p/") == ["/p/: 11.00 columns, width() says 10: 分数 = 0.5",
                                          "/p/: nan columns, width() says 1: y"]
