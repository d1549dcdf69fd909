"""One look for every figure: fonts that carry Chinese, a calm palette, deterministic SVG."""

from __future__ import annotations

LANGS = ("zh", "en")

# Colours chosen to read on white and, dimmed, in dark mode (the site dims figures there).
INK = "#263238"
MUTED = "#78909c"
ACCENT = "#e4572e"   # the query / the winner
BLUE = "#3f51b5"     # keys / weights
TEAL = "#17a398"     # values
GRID = "#cfd8dc"

# The smallest label: 7 pt is 9.3 CSS px when the figure is shown at full size (tests/test_figure_text.py).
MIN_LABEL_PT = 7

STYLE = {
    "font.family": ["Noto Sans CJK SC", "DejaVu Sans"],
    "font.size": 11,
    "axes.unicode_minus": False,     # CJK fonts lack U+2212; use the ASCII hyphen-minus
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": INK,
    "ytick.color": INK,
    "text.color": INK,
    "figure.facecolor": "white",
    "figure.dpi": 100,
    "svg.fonttype": "path",          # text as outlines: the SVG needs no font on the reader's side
    "svg.hashsalt": "seeing-attention",
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.15,
}


def tr(lang: str, zh: str, en: str) -> str:
    """Pick the label for ``lang``: ``tr(lang, "得分", "score")``."""
    return zh if lang == "zh" else en


def matrix_image(ax, values, *, aspect="equal", **kwargs):
    """Draw a matrix like ``ax.imshow`` (row 0 at the top, cell (i, j) centred at (j, i)), but as
    vector cells (``pcolormesh``), so the SVG and the PDF stay sharp. Returns the mesh, which
    ``fig.colorbar`` accepts."""
    import numpy as np

    values = np.asarray(values)                               # (rows, cols)
    rows, cols = values.shape
    kwargs.setdefault("edgecolors", "face")                   # no hairline seams between cells
    kwargs.setdefault("linewidth", 0.2)
    mesh = ax.pcolormesh(np.arange(cols + 1) - 0.5, np.arange(rows + 1) - 0.5, values, **kwargs)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect(aspect)
    return mesh


def weights_map(ax, w, rows, cols, *, fontsize=8.5, numbers=True, rotate=None):
    """Attention weights ``w`` (rows, cols) as a heatmap: query words down the side, key words
    along the bottom, and each weight as a percentage in its cell."""
    n_r, n_c = w.shape
    matrix_image(ax, w, cmap="Blues", vmin=0, vmax=1)
    rot = (60 if any(len(t) > 3 and t.isascii() for t in cols) else 0) if rotate is None else rotate
    ax.set_xticks(range(n_c), cols, rotation=rot, ha="right" if rot else "center", fontsize=fontsize)
    ax.set_yticks(range(n_r), rows, fontsize=fontsize)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if numbers:
        for i in range(n_r):
            for j in range(n_c):
                ax.text(j, i, f"{100 * w[i, j]:.0f}", ha="center", va="center", fontsize=max(fontsize - 2, MIN_LABEL_PT),
                        color="white" if w[i, j] > 0.5 else MUTED)
