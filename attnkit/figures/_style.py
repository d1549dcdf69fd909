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


def matrix_image(ax, values, *, aspect="equal", cmap=None, vmin=None, vmax=None, levels=64):
    """Draw a matrix like ``ax.imshow`` (row 0 at the top, cell (i, j) centred at (j, i)), but as
    vector shapes, so the SVG and the PDF stay sharp, and small: the colour map is cut into
    ``levels`` steps (64: no banding the eye can see) and each step is one path made of
    rectangles, neighbouring cells of the same step merged into one. Non-finite cells stay blank.
    Returns a ScalarMappable with the stepped colour map, which ``fig.colorbar`` accepts.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> matrix_image(ax, [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]], cmap="Blues").cmap.N
    64
    >>> len(ax.patches)   # two colours, two paths (four cells of 0 merged into one rectangle)
    2
    >>> plt.close(fig)
    """
    import matplotlib as mpl
    import numpy as np
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    values = np.asarray(values, dtype=float)                      # (rows, cols)
    rows, cols = values.shape
    finite = np.isfinite(values)
    norm = mpl.colors.Normalize(vmin, vmax)
    norm.autoscale_None(values[finite] if finite.any() else [0.0, 1.0])
    stepped = mpl.colormaps[cmap or mpl.rcParams["image.cmap"]].resampled(levels)
    step = np.clip((np.nan_to_num(norm(values), nan=0.0) * levels).astype(int), 0, levels - 1)
    step[~finite] = -1                                            # (rows, cols): colour step per cell
    # Runs of one step along each row, then runs stacked over consecutive rows: rectangles.
    rects: dict[int, list[tuple[int, int, int, int]]] = {}        # step -> [(c0, c1, r0, r1)]
    open_: dict[tuple[int, int, int], int] = {}                   # (step, c0, c1) -> first row
    for r in range(rows + 1):
        runs = set()
        if r < rows:
            bounds = np.flatnonzero(np.diff(step[r])) + 1
            for c0, c1 in zip(np.r_[0, bounds], np.r_[bounds, cols]):
                if step[r, c0] >= 0:
                    runs.add((int(step[r, c0]), int(c0), int(c1)))
        for key in [k for k in open_ if k not in runs]:
            rects.setdefault(key[0], []).append((key[1], key[2], open_.pop(key), r))
        for key in runs:
            open_.setdefault(key, r)
    for k in sorted(rects):
        vertices, codes = [], []
        for c0, c1, r0, r1 in rects[k]:
            x0, x1, y0, y1 = c0 - 0.5, c1 - 0.5, r0 - 0.5, r1 - 0.5
            vertices += [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
            codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
        colour = stepped(k)
        # The thin edge in the fill colour hides hairline seams between neighbouring shapes.
        ax.add_patch(PathPatch(Path(vertices, codes), facecolor=colour, edgecolor=colour, linewidth=0.2))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect(aspect)
    return mpl.cm.ScalarMappable(norm=norm, cmap=stepped)


def _luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour given as three numbers in [0, 1]."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours (anything matplotlib reads): 1 to 21.

    >>> round(contrast("white", "black"), 1), round(contrast("#78909c", "#6baed6"), 2)
    (21.0, 1.38)
    """
    import matplotlib.colors as mcolors
    la, lb = sorted((_luminance(mcolors.to_rgb(a)), _luminance(mcolors.to_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour_on(background) -> str:
    """INK or white, whichever reads better on ``background`` (the higher WCAG contrast).

    >>> text_colour_on("white"), text_colour_on("#08306b")
    ('#263238', 'white')
    """
    return max((INK, "white"), key=lambda c: contrast(c, background))


def weights_map(ax, w, rows, cols, *, fontsize=8.5, numbers=True, rotate=None, number_size=None):
    """Attention weights ``w`` (rows, cols) as a heatmap: query words down the side, key words
    along the bottom, and each weight as a percentage in its cell, in ink or white, whichever
    reads better on the cell's blue (WCAG contrast: the grey it used read at 1.4:1 on a half-weight cell)."""
    n_r, n_c = w.shape
    shown = matrix_image(ax, w, cmap="Blues", vmin=0, vmax=1)
    rot = (60 if any(len(t) > 3 and t.isascii() for t in cols) else 0) if rotate is None else rotate
    ax.set_xticks(range(n_c), cols, rotation=rot, ha="right" if rot else "center", fontsize=fontsize)
    ax.set_yticks(range(n_r), rows, fontsize=fontsize)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if numbers:
        for i in range(n_r):
            for j in range(n_c):
                ax.text(j, i, f"{100 * w[i, j]:.0f}", ha="center", va="center",
                        fontsize=number_size or max(fontsize - 2, MIN_LABEL_PT),
                        color=text_colour_on(shown.to_rgba(w[i, j])))
