"""Figures: drawn by attnkit, in both languages, byte-identical across runs (the site's are the
ones drawn here), no missing glyphs."""

import functools
import re

import pytest

from attnkit.figures import FIGURES, figure, render_svg
from book import DOCS, FIGURE, LANGS, ROOT, pages
from bookbuild import bookcache

SITE = ROOT / "site"


@pytest.fixture(scope="module", autouse=True)
def the_builds_training_runs():
    """Draw with the build's memo of training runs (bookcache.MEMOIZED, keyed by attnkit's sources
    and the arguments), as the build's figure workers do: a figure of a trained model is then
    drawn from the weights the build trained, not trained again here (chapter 12's figures
    retrained its model: 10 minutes of CI). That training is deterministic is tested where
    it is defined (tests/test_induction.py, test_text_model.py, ...)."""
    bookcache.memoize(bookcache.MEMOIZED)
    yield
    bookcache.unmemoize()


@functools.cache
def referenced_ids(lang):
    return {fig_id for page in pages(lang) for fig_id in FIGURE.findall((DOCS / lang / page).read_text(encoding="utf-8"))}


@pytest.mark.parametrize("lang", LANGS)
def test_every_referenced_figure_is_registered(lang):
    unknown = sorted(referenced_ids(lang) - set(FIGURES))
    assert not unknown, f"pages in docs/{lang} embed figures attnkit.figures does not define: {unknown}"


def test_every_registered_figure_is_used():
    unused = sorted(set(FIGURES) - referenced_ids("zh") - referenced_ids("en"))
    assert not unused, f"figures no page embeds: {unused}"


@pytest.mark.slow   # two renders of every figure: a minute of CPU (make check leaves it to make test)
@pytest.mark.parametrize("fig_id", sorted(FIGURES))
def test_figure_is_deterministic_labelled_per_language_and_current_in_the_site(fig_id):
    """Drawn here, each figure must be byte-identical to the one the build drew (in another
    process, perhaps from the figure cache long ago): that proves it deterministic and the site
    current (not stale, not missing) at once."""
    zh, en = render_svg(fig_id, "zh"), render_svg(fig_id, "en")
    assert zh != en, f"{fig_id}: the zh and en figures are identical (labels not translated?)"
    assert b"<svg" in zh and b"<text" not in zh, "text should be drawn as outlines (svg.fonttype=path)"
    assert b"<image" not in zh, f"{fig_id} embeds a bitmap: draw matrices with _style.matrix_image, not imshow"
    for lang, drawn in (("zh", zh), ("en", en)):
        if fig_id not in referenced_ids(lang):
            continue
        built = SITE / ("en" if lang == "en" else "") / "figures" / f"{fig_id}.svg"
        assert built.is_file(), f"{built} is missing: run make build"
        assert built.read_bytes() == drawn, f"{built} differs from the figure drawn now: stale, or not deterministic"


def test_missing_glyph_fails_loudly():
    @figure("test-missing-glyph")
    def broken(lang):
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots()
        ax.set_title("\U000F0000")  # a private-use character no font draws
        return fig

    try:
        with pytest.raises(RuntimeError, match="draws characters no installed font has") as error:
            render_svg("test-missing-glyph", "zh")
        assert "U+F0000" in str(error.value), "the message names the character"
        assert "fontlist-" in str(error.value) and "fonts-noto-cjk" in str(error.value), "and says how to fix it"
    finally:
        FIGURES.pop("test-missing-glyph")


def test_chinese_labels_use_a_cjk_font():
    """A Chinese label renders through Noto Sans CJK, not DejaVu's empty boxes."""
    from matplotlib import font_manager

    path = font_manager.findfont(font_manager.FontProperties(family=["Noto Sans CJK SC"]), fallback_to_default=False)
    assert re.search(r"NotoSansCJK|NotoSerifCJK", path), path
