"""The sampling widget of 12.3 (overrides/assets/widgets/sample-text.js): its data and weights are
the build's model, and in headless Chromium its plain-JavaScript GPT and sampler write, for a fixed
seed, exactly the text attnkit.sampling.generate writes; it loads nothing until pressed, explains
unknown characters in the page's language, and works with the keyboard."""

from __future__ import annotations

import json
from importlib import import_module

import numpy as np
import pytest

from attnkit import bpe, realtext, sampling
from book import ROOT

SITE = ROOT / "site"
PAGE = {"zh": "/ch12/decoding/", "en": "/en/ch12/decoding/"}
hook = import_module("bookbuild.widgets")


def _model(lang):
    """The build's model (bookcache.memo: the same entry the build wrote, no retraining)."""
    from bookbuild.bookcache import memo
    return memo(realtext.train_on, realtext.corpus(lang), **realtext.MODEL)


def _prefix(lang):
    return SITE / ("en/" if lang == "en" else "")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_widget_data_and_weights_are_the_books_model(lang):
    data = json.loads((_prefix(lang) / "data/widgets/sample-text.json").read_text(encoding="utf-8"))
    m = _model(lang)
    assert data["vocab"] == m["vocab"] and data["lang"] == lang
    raw = np.frombuffer((_prefix(lang) / "data/widgets/sample-text.bin").read_bytes(), dtype="<f4")
    at = 0
    for (name, shape), (key, value) in zip(data["layout"], m["params"].items()):
        size = int(np.prod(shape))
        assert name == key and list(value.shape) == shape
        np.testing.assert_array_equal(raw[at:at + size].reshape(shape), value)    # float32 exactly
        at += size
    assert at == raw.size
    other = "en" if lang == "zh" else "zh"
    assert set(data["labels"]) == set(hook.LABELS["sample-text"][other])


@pytest.fixture(scope="module")
def browser():
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as b:
        yield base, b


def _sample(page, prompt, temperature, top_k, top_p, seed, press="click"):
    w = "[data-widget='sample-text']"
    page.fill(f"{w} .sample-prompt", prompt)
    numbers = page.locator(f"{w} .sample-number")
    for i, value in enumerate((temperature, top_k, top_p, seed)):
        numbers.nth(i).fill(str(value))
    page.evaluate("() => { const w = document.querySelector(\"[data-widget='sample-text']\"); delete w.dataset.sampled; }")
    if press == "enter":
        page.press(f"{w} .sample-prompt", "Enter")
    else:
        page.click(f"{w} [data-action='sample']")
    page.wait_for_selector(f"{w}[data-sampled]", timeout=60_000)
    return page.get_attribute(w, "data-sampled")


CASES = [  # prompt, temperature, top_k, top_p, seed
    (None, 0.8, None, 0.95, 1),
    (None, 1.0, 1, 1.0, 0),
    (None, 1.5, None, 1.0, 7),
    (None, 0.7, 5, 0.9, 123),
]


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_browser_writes_what_attnkit_writes(browser, lang):
    base, b = browser
    page = b.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + PAGE[lang])
    page.wait_for_selector("[data-widget='sample-text'][data-mounted='yes']")
    assert not [u for u in requests if u.endswith("sample-text.bin") or "pyodide" in u], "loaded before any press"
    m = _model(lang)
    vocab = m["vocab"]
    for i, (prompt, t, k, p, seed) in enumerate(CASES):
        prompt = prompt or realtext.SAMPLE_PROMPTS[lang]
        got = _sample(page, prompt, t, k or len(vocab), p, seed, press="enter" if i == 1 else "click")
        ids = bpe.encode_chars(prompt, vocab)
        want = sampling.generate(m["params"], ids, realtext.SAMPLE_LENGTH[lang], temperature=t, top_k=k,
                                 top_p=p, seed=seed)
        assert got == bpe.decode_chars(want, vocab), (prompt, t, k, p, seed)
    assert got and not errors
    assert not [u for u in requests if "pyodide" in u], "the widget never needs Python"


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_unknown_characters_and_bad_settings_are_explained(browser, lang):
    base, b = browser
    page = b.new_page()
    page.goto(base + PAGE[lang])
    w = "[data-widget='sample-text']"
    page.wait_for_selector(f"{w}[data-mounted='yes']")
    labels = hook.LABELS["sample-text"][lang]
    strange = "猫7" if lang == "zh" else "7猫"
    page.fill(f"{w} .sample-prompt", strange)
    page.click(f"{w} [data-action='sample']")
    status = page.locator(f"{w} .gpt-status")
    assert status.get_attribute("aria-live") == "polite"
    text = status.inner_text()
    assert text.startswith(labels["unknown"].split("{")[0]) and "猫" in text and "7" in text
    page.fill(f"{w} .sample-prompt", "")
    page.click(f"{w} [data-action='sample']")
    assert status.inner_text() == labels["empty"]
    page.fill(f"{w} .sample-prompt", realtext.SAMPLE_PROMPTS[lang])
    page.locator(f"{w} .sample-number").nth(2).fill("0")
    page.click(f"{w} [data-action='sample']")
    assert status.inner_text() == labels["badTopP"]
