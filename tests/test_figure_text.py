"""Labels readable on a phone: no label in a figure or a widget under 9 CSS px at 375 px.

Figures are matplotlib SVG with text drawn as outlines (svg.fonttype "path"), so their label
sizes are read from the SVG (each text is a group scaled by font size / 100, in pt) and turned
into CSS px with the size the browser gives the image (1 pt = 4/3 px at natural size). A figure
too small for its labels at 375 px must open at full size when tapped (bookbuild/a11y.py,
assets/figure-zoom.js): the test taps it, measures the labels there and closes it with Escape.
Widgets draw live SVG <text> and HTML: their rendered font sizes are measured directly.
The print page is left out: it is the PDF's source, where figures are printed at paper size.
tests/test_pages.py runs label_problems on every page of both languages, in the visit that
runs the other per-page checks.
"""

from __future__ import annotations

import re

import pytest

from bookbuild.browser import SITE
from test_axe import TAGS, inject_axe

MIN_PX = 9.0
# Figures a phone reader must be able to read where they stand, without tapping them open (issue
# 27: their text was 3-6 px at 375 px). They are drawn under 5 inches wide with text of 9 pt and
# more (attnkit/figures: ch0.py, ch8.py, ch9.py), and must show every label at MIN_PX inline.
INLINE = {"ch0-dot-signs", "ch8-attention", "ch9-causal", "ch9-kv-work"}
PT_TO_PX = 4 / 3
TEXT_SCALE = re.compile(r"scale\((?P<s>[\d.]+) -(?P=s)\)")   # a text group: scale(fontsize/100, -fontsize/100)
SVG_TEXT = re.compile(r'<text\b[^>]*font-size[:=]\s*"?(?P<size>[\d.]+)(?:px|pt)?')


def smallest_label_pt(svg: str) -> float:
    """The smallest font size (pt) of any label in a matplotlib SVG (text as paths or as <text>)."""
    sizes = [100 * float(m["s"]) for m in TEXT_SCALE.finditer(svg)]
    sizes += [float(m["size"]) for m in SVG_TEXT.finditer(svg)]
    if not sizes:
        raise ValueError("no text found in the SVG")
    return min(sizes)


def figure_label_pt() -> dict[str, float]:
    """{"/figures/ch3-softmax-amplify.svg": 9.5, "/en/figures/...": ...} for every built figure."""
    found = {}
    for svg in sorted(SITE.glob("figures/*.svg")) + sorted(SITE.glob("en/figures/*.svg")):
        found["/" + svg.relative_to(SITE).as_posix()] = smallest_label_pt(svg.read_text(encoding="utf-8"))
    return found


def test_label_sizes_are_read_from_matplotlib_svg():
    import matplotlib
    matplotlib.use("Agg")
    import io

    import matplotlib.pyplot as plt

    with plt.rc_context({"svg.fonttype": "path"}):
        fig, ax = plt.subplots()
        ax.set_title("title", fontsize=12)
        ax.text(0.5, 0.5, "small", fontsize=6.5, rotation=30)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
        plt.close(fig)
    assert smallest_label_pt(buffer.getvalue()) == pytest.approx(6.5)


def test_every_figure_is_readable_at_full_size():
    sizes = figure_label_pt()
    assert sizes, "no figures in the built site: run `make build` first"
    small = {path: pt for path, pt in sizes.items() if pt * PT_TO_PX < MIN_PX}
    assert not small, (f"labels under {MIN_PX} CSS px even at the figure's full size (font size in pt; "
                       f"{MIN_PX / PT_TO_PX:.2f} pt is the least): {small}")


# Every visible figure and its rendered size; every visible widget label and its size in CSS px.
MEASURE = """() => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const figures = [...document.querySelectorAll('img[src*="figures/"]')].filter(visible).map((img, index) => {
    const style = getComputedStyle(img);
    const width = img.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { index, src: new URL(img.src).pathname, width, natural: img.naturalWidth,
             zoom: !!img.closest("a.attn-zoom") };
  });
  const labels = [];
  for (const widget of document.querySelectorAll("[data-widget]")) {
    for (const text of widget.querySelectorAll("svg text")) {
      if (!visible(text) || !text.textContent.trim()) continue;
      const m = text.getScreenCTM();
      const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
      labels.push({ widget: widget.dataset.widget, text: text.textContent.trim().slice(0, 20), px,
                    svg: text.closest(".gpt-maps") ? "attention map" : "chart" });
    }
    const walker = document.createTreeWalker(widget, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || el.closest("svg") || !visible(el)) continue;
      if (el.closest(".attn-sr-only")) continue;   // read by screen readers, not drawn
      labels.push({ widget: widget.dataset.widget, text: node.textContent.trim().slice(0, 20),
                    px: parseFloat(getComputedStyle(el).fontSize) });
    }
  }
  return { figures, labels };
}"""


class Seen:
    """What the label check met on the pages of one language, to prove it was not vacuous."""

    def __init__(self):
        self.figures = 0      # figures shown on screen
        self.zoomed = 0       # opened full size by a tap
        self.widgets = set()  # every widget on the pages
        self.measured_in = set()   # widgets whose labels were measured
        self.svg_text = set()      # (widget, "chart" / "attention map") drawn as SVG text and measured

    def problems(self, lang: str) -> list[str]:
        found = []
        if not (self.figures and self.zoomed):
            found.append(f"{lang}: figures shown: {self.figures}, opened full size: {self.zoomed}")
        if not self.widgets or not self.widgets <= self.measured_in:
            found.append(f"{lang}: widgets whose labels were not measured: {self.widgets - self.measured_in}")
        # The drawn labels (SVG text) include the train-gpt widget's attention maps (the letters
        # of the sequence, drawn from data.before on load).
        expected = {("train-gpt", "attention map"), ("train-gpt", "chart"), ("positions", "chart")}
        if not expected <= self.svg_text:
            found.append(f"{lang}: SVG labels not measured: {expected - self.svg_text}")
        return found


def label_problems(page, base: str, path: str, label_pt: dict[str, float], seen: Seen) -> list[str]:
    """Labels under 9 CSS px on the loaded, settled page at 375 px (figures tapped open full size
    when they are too small inline). tests/test_pages.py runs it on every page but the print page."""
    problems = []
    measured = page.evaluate(MEASURE)
    seen.widgets.update(page.evaluate("() => [...document.querySelectorAll('[data-widget]')].map((w) => w.dataset.widget)"))
    for label in measured["labels"]:
        seen.measured_in.add(label["widget"])
        if label.get("svg"):
            seen.svg_text.add((label["widget"], label["svg"]))
        if label["px"] < MIN_PX:
            problems.append(f"{path} widget {label['widget']}: {label['text']!r} at {label['px']:.1f} px")
    for fig in measured["figures"]:
        seen.figures += 1
        pt = label_pt[fig["src"]]
        inline = pt * PT_TO_PX * fig["width"] / fig["natural"]
        if inline >= MIN_PX:
            continue
        if fig["src"].rsplit("/", 1)[1].removesuffix(".svg") in INLINE:
            problems.append(f"{path} {fig['src']}: labels at {inline:.1f} px where the figure stands "
                            f"(it must be readable without zooming: INLINE)")
        if not fig["zoom"]:
            problems.append(f"{path} {fig['src']}: labels at {inline:.1f} px and no full-size view")
            continue
        # Tap the figure as a reader would; the full-size view must show the labels at ≥ 9 px.
        link = page.locator('a.attn-zoom:has(img[src*="figures/"])').filter(
            has=page.locator(f'img[src$="{fig["src"].rsplit("/", 1)[1]}"]')).first
        link.scroll_into_view_if_needed()
        link.click()
        dialog = page.locator("dialog.attn-zoom-dialog[open]")
        dialog.wait_for()
        page.wait_for_function("() => document.querySelector('dialog[open] img').complete")
        big = dialog.evaluate("""d => { const img = d.querySelector("img"), frame = d.querySelector(".attn-zoom-dialog__frame");
          const s = getComputedStyle(img);
          return { width: img.getBoundingClientRect().width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
                   natural: img.naturalWidth, scrolls: frame.scrollWidth > frame.clientWidth,
                   frameWidth: frame.clientWidth }; }""")
        if not page.evaluate("() => typeof axe !== 'undefined'"):
            inject_axe(page, base)
        found = page.evaluate("""async (tags) => (await axe.run(document.querySelector("dialog[open]"),
            { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })).violations.map(v => v.id)""", TAGS)
        if found:
            problems.append(f"{path} {fig['src']}: axe in the full-size view: {found}")
        full = pt * PT_TO_PX * big["width"] / big["natural"]
        if full < MIN_PX:
            problems.append(f"{path} {fig['src']}: labels at {full:.1f} px in the full-size view")
        if big["width"] > big["frameWidth"] and not big["scrolls"]:
            problems.append(f"{path} {fig['src']}: the full-size view is cut off and does not scroll")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('dialog.attn-zoom-dialog[open]')")
        if not page.evaluate("() => document.activeElement && document.activeElement.matches('a.attn-zoom')"):
            problems.append(f"{path} {fig['src']}: focus did not return to the figure after Escape")
        seen.zoomed += 1
    return problems
