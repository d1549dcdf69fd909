"""The KV-cache calculator of 10.1 (overrides/assets/widgets/kv-calculator.js): its data comes from
attnkit.kv_bytes, and in headless Chromium the bytes it shows for every model, every number
format and several context lengths are attnkit's, exactly, for each variant; it is worked by
keyboard, announces its result, fits a phone in dark mode, and prints a static table."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from attnkit.kv_bytes import DTYPE_BYTES, MODELS, kv_bytes_per_token, kv_cache_bytes, kv_cache_bytes_if
from attnkit.serving import DISPLAY_NAMES, binary_size
from book import LANGS, ROOT
from test_axe import reveal

import bookbuild.widgets as hook

SITE = Path(os.environ.get("BOOK_SITE", ROOT / "site"))
PAGE = {"zh": "/ch10/kv-bill/", "en": "/en/ch10/kv-bill/"}
CONTEXTS = [1024, 4096, 8192, 131072, 1048576]   # below, at and beyond the windows and the stated contexts


def expected(name, variant, context, dtype):
    """attnkit's bytes for one row of the calculator: (per token, whole context)."""
    if variant == "own":
        return kv_bytes_per_token(name, dtype), kv_cache_bytes(name, context, dtype)
    return kv_cache_bytes_if(name, variant, 1, dtype), kv_cache_bytes_if(name, variant, context, dtype)


# --------------------------------------------------------------------------
# the data (no browser)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_data_is_attnkits(lang):
    data = hook.kv_calculator_data(lang)
    assert [m["id"] for m in data["models"]] == list(MODELS)
    assert {d["id"]: d["bytes"] for d in data["dtypes"]} == DTYPE_BYTES
    assert data["default"]["context"] in data["contexts"]
    for m in data["models"]:
        config = MODELS[m["id"]]
        assert m["name"] == DISPLAY_NAMES[m["id"]] and m["source"] == config.source
        ids = [v["id"] for v in m["variants"]]
        assert ids == (["own", "mha"] if config.attention == "mla" else ["own", "mha", "mqa"])
        for v in m["variants"]:
            # the widget's product, done here as the JavaScript does it, equals attnkit's
            for context in CONTEXTS:
                for dtype, itemsize in DTYPE_BYTES.items():
                    full = m["layers"] - m["slidingLayers"] if v["windowed"] else m["layers"]
                    sliding = m["slidingLayers"] if v["windowed"] else 0
                    whole = v["perLayer"] * itemsize * (full * context + sliding * min(context, m["window"]))
                    assert (v["perLayer"] * itemsize * m["layers"], whole) == expected(m["id"], v["id"], context, dtype)


def test_labels_in_each_language_only():
    zh, en = hook.kv_calculator_data("zh"), hook.kv_calculator_data("en")
    assert zh["labels"].keys() == en["labels"].keys()
    for m in zh["models"]:
        for v in m["variants"]:
            assert re.search(r"[\u4e00-\u9fff]", v["label"]) and not re.search(r"\b(if|keys|heads|as built)\b", v["label"])
    for m in en["models"]:
        for v in m["variants"]:
            assert not re.search(r"[\u4e00-\u9fff]", v["label"])
    mistral = next(m for m in en["models"] if m["id"] == "mistral-7b")
    assert "32 of 32 layers keep only the last 4096 tokens" in mistral["variants"][0]["label"]


# --------------------------------------------------------------------------
# in the browser
# --------------------------------------------------------------------------

browser_only = pytest.mark.browser


@pytest.fixture(scope="module")
def site():
    from bookbuild.browser import launch, serve_site

    with serve_site(SITE) as base, launch() as browser:
        yield base, browser


def open_page(site, lang, width=1280, dark=False):
    base, browser = site
    page = browser.new_page(width=width, dark=dark)
    page.goto(base + PAGE[lang])
    page.wait_for_function("document.querySelector('[data-widget=\"kv-calculator\"]').dataset.mounted === 'yes'")
    reveal(page)
    return page


def shown(widget):
    """{variant: (per-token bytes, whole bytes, per-token text, whole text)} as the widget shows them."""
    rows = widget.locator("tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        token, whole = row.locator('[data-role="per-token"]'), row.locator('[data-role="whole"]')
        out[row.get_attribute("data-variant")] = (int(token.get_attribute("data-bytes")), int(whole.get_attribute("data-bytes")),
                                                  token.inner_text().strip(), whole.inner_text().strip())
    return out


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_every_model_dtype_and_context_shows_attnkits_bytes(site, lang):
    page = open_page(site, lang)
    widget = page.locator('[data-widget="kv-calculator"]')
    select, slider = widget.locator("select"), widget.locator('input[type="range"]')
    dtypes = widget.locator('[role="radio"]')
    contexts = hook.KV_CONTEXTS
    # as the page opens: Llama 3 8B, 128K tokens, bf16
    assert select.input_value() == "llama-3-8b" and contexts[int(slider.input_value())] == 131072
    assert shown(widget)["own"][1] == kv_cache_bytes("llama-3-8b", 131072) == 16 * 2 ** 30
    for name in MODELS:
        select.select_option(name)
        for d, dtype in enumerate(DTYPE_BYTES):
            dtypes.nth(d).click()
            for context in CONTEXTS:
                slider.fill(str(contexts.index(context)))
                rows = shown(widget)
                for variant, (token, whole, token_text, whole_text) in rows.items():
                    want = expected(name, variant, context, dtype)
                    assert (token, whole) == want, (name, dtype, context, variant)
                    assert (token_text, whole_text) == (binary_size(want[0]), binary_size(want[1]))
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_and_screen_reader(site, lang):
    page = open_page(site, lang)
    widget = page.locator('[data-widget="kv-calculator"]')
    select = widget.locator("select")
    # every control has a label a screen reader reads
    assert widget.locator(f'label[for="{select.get_attribute("id")}"]').inner_text() == hook.LABELS["kv-calculator"][lang]["model"]
    slider = widget.locator('input[type="range"]')
    assert widget.locator(f'label[for="{slider.get_attribute("id")}"]').inner_text() == hook.LABELS["kv-calculator"][lang]["context"]
    assert widget.locator('[role="radiogroup"]').get_attribute("aria-label") == hook.LABELS["kv-calculator"][lang]["dtype"]
    # the slider by keys: one step down is half the context
    slider.focus()
    page.keyboard.press("ArrowLeft")
    assert shown(widget)["own"][1] == kv_cache_bytes("llama-3-8b", 65536)
    assert "65536" in slider.get_attribute("aria-valuetext")
    # the number formats by arrow keys (a radio group)
    widget.locator('[role="radio"][aria-checked="true"]').focus()
    page.keyboard.press("ArrowRight")
    checked = widget.locator('[role="radio"][aria-checked="true"]').inner_text()
    assert shown(widget)["own"][1] == kv_cache_bytes("llama-3-8b", 65536, checked)
    # the model by keyboard
    select.focus()
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('[data-widget=\"kv-calculator\"] select').value === 'deepseek-v3'")
    live = widget.locator('[aria-live="polite"]').inner_text()
    assert "DeepSeek-V3" in live and binary_size(kv_cache_bytes("deepseek-v3", 65536, checked)) in live
    assert bool(re.search(r"[\u4e00-\u9fff]", live)) == (lang == "zh"), live     # the page's language only
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_phone_dark_and_print(site, lang):
    page = open_page(site, lang, width=375, dark=True)
    widget = page.locator('[data-widget="kv-calculator"]')
    assert not reveal(page, again=True)
    overflow = widget.evaluate("e => e.scrollWidth - e.clientWidth")
    assert overflow <= 1, f"the calculator is {overflow}px wider than a 375px phone"
    colour = widget.locator("tbody th").first.evaluate("e => getComputedStyle(e).color")
    assert sum(int(c) for c in re.findall(r"\d+", colour)[:3]) > 3 * 150, f"text {colour} too dark on the dark page"
    select_box = widget.locator("select").bounding_box()
    assert select_box["height"] >= 32, f"the model menu is too small to tap: {select_box}"
    page.emulate_media(media="print")
    assert widget.is_hidden()
    assert page.locator('.print-only img[src$="ch10-kv-table.svg"]').is_visible()
    assert not page.errors and not page.outside
