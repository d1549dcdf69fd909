"""Chapter 11's replay widget: its data is attnkit's, and in headless Chromium the slider, moved with
the keyboard, redraws the step, the scores and the maps."""

from __future__ import annotations

import json
from importlib import import_module

import numpy as np
import pytest

from attnkit import induction
from book import ROOT

SITE = ROOT / "site"
PAGE = {"zh": "/ch11/phase-change/", "en": "/en/ch11/phase-change/"}
hook = import_module("bookbuild.widgets")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_replay_data_is_the_books_training(lang):
    data = json.loads((SITE / ("en/" if lang == "en" else "") / "data/widgets/induction-replay.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(hook.induction_replay_data(lang)))
    r = induction.report()
    assert data["steps"] == r["steps"]
    np.testing.assert_allclose(data["repeated"], [c["repeated"] for c in r["curve"]], atol=1e-4)
    np.testing.assert_allclose(data["prefix"][-1], r["prefix"][-1].ravel(), atol=1e-3)
    n = len(data["letters"])
    assert len(data["maps"]) == len(data["steps"])
    for step in data["maps"]:
        assert [len(tri) for tri in step] == [n * (n + 1) // 2] * len(data["heads"])
        for tri in step:                                   # every row of every map sums to 100 %, give or take rounding
            rows = np.split(np.array(tri), np.cumsum(np.arange(1, n)))
            assert all(abs(row.sum() - 100) <= len(row) for row in rows)
    other = hook.REPLAY_LABELS["en" if lang == "zh" else "zh"]
    assert set(data["labels"]) == set(other) and data["labels"] != other


@pytest.fixture(scope="module")
def browser():
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as b:
        yield base, b


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_slider_replays_the_steps_with_the_keyboard(browser, lang):
    base, b = browser
    page = b.new_page()
    page.goto(base + PAGE[lang])
    widget = page.wait_for_selector("[data-widget='induction-replay'][data-mounted='yes']")
    steps = induction.report()["steps"]
    assert widget.get_attribute("data-step") == str(steps[-1])
    assert page.locator("[data-widget='induction-replay'] .gpt-map").count() == 4
    slider = page.locator("[data-widget='induction-replay'] input[type='range']")
    slider.focus()
    page.keyboard.press("Home")
    page.wait_for_selector(f"[data-widget='induction-replay'][data-step='{steps[0]}']")
    first = page.locator("[data-widget='induction-replay'] .ind-scores").inner_text()
    page.keyboard.press("End")
    page.wait_for_selector(f"[data-widget='induction-replay'][data-step='{steps[-1]}']")
    assert page.locator("[data-widget='induction-replay'] .ind-scores").inner_text() != first
    assert str(steps[-1]) in page.locator("[data-widget='induction-replay'] [aria-live='polite']").inner_text()
    page.close()
