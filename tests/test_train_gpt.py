"""The live-training widget of 8.5: its data equals attnkit, and in headless Chromium it trains the
tiny GPT in Pyodide to the same losses as CPython, with the keyboard, without blocking the page."""

from __future__ import annotations

import json
import math

import pytest

from attnkit import live_training, training
from book import ROOT
from test_axe import reveal
from importlib import import_module

SITE = ROOT / "site"
PAGE = {"zh": "/ch8/train-in-browser/", "en": "/en/ch8/train-in-browser/"}
hook = import_module("bookbuild.widgets")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_widget_data_is_the_books_training(lang):
    data = json.loads((SITE / ("en/" if lang == "en" else "") / "data/widgets/train-gpt.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(hook.train_gpt_data(lang)))
    _, losses = training.train(**training.BOOK)
    assert data["reference"] == losses
    assert data["lr"] in data["lrs"] and data["steps"] == training.BOOK["steps"]
    assert data["guess"] == pytest.approx(math.log(training.BOOK["vocab_size"]))
    other = "en" if lang == "zh" else "zh"
    assert set(data["labels"]) == set(hook.LABELS["train-gpt"][other])
    assert data["labels"] != hook.LABELS["train-gpt"][other]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_widget_sentences_print_numbers_in_book_style(lang):
    """The tolerance reaches the reader as 10⁻⁹, never as JavaScript's "1e-9" (issue 14)."""
    import re
    labels = hook.train_gpt_data(lang)["labels"]
    assert "10⁻⁹" in labels["matches"] and "{tol}" not in labels["matches"]
    assert not [text for text in labels.values() if re.search(r"\d[eE][-+]?\d", text)]
    with pytest.raises(ValueError, match="power of ten"):
        hook._book_power(2e-9)


def test_the_code_the_widget_runs_is_the_trainer():
    """The widget's code templates, run in CPython, give Trainer's losses (Pyodide is checked below)."""
    sent = []
    playground = type("playground", (), {"_emit": staticmethod(lambda kind, data: sent.append((kind, data)))})
    code = hook.GPT_CODE
    namespace = {}
    import sys
    sys.modules["playground"] = playground
    try:
        exec(code["reset"].format(seed=3, lr=0.03, example=[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]), namespace)
        exec(code["run"].format(k=5), namespace)
        exec(code["run"].format(k=5), namespace)
    finally:
        del sys.modules["playground"]
    assert [kind for kind, _ in sent] == ["gpt"] * 3
    assert sent[0][1]["step"] == 0 and sent[2][1]["step"] == 10
    assert sent[1][1]["losses"] + sent[2][1]["losses"] == training.train(steps=10, seed=3, lr=0.03)[1]
    weights = sent[2][1]["weights"]
    assert len(weights) == 2 and len(weights[0]) == 11
    with pytest.raises(ValueError, match="call live_reset"):
        live_training._live.clear()
        live_training.live_run(1)


@pytest.fixture(scope="module")
def browser():
    from bookbuild.browser import launch, serve_site

    with serve_site() as base, launch() as b:
        yield base, b


def _losses(page):
    return json.loads(page.get_attribute("[data-widget='train-gpt']", "data-losses") or "[]")


def _wait_steps(page, at_least, timeout=240_000):
    # a function, not an expression string: the page's CSP forbids eval (Playwright evals strings)
    page.wait_for_function(
        "n => Number(document.querySelector(\"[data-widget='train-gpt']\").dataset.step) >= n",
        arg=at_least, timeout=timeout)


def _listen(page):
    """Record what the widget's live region announces from now on; returns a function that gives
    the announcements so far."""
    page.evaluate("""() => {
      const live = document.querySelector("[data-widget='train-gpt'] [aria-live='polite']");
      window.__said = [];
      new MutationObserver(() => window.__said.push(live.textContent)).observe(live, { childList: true, characterData: true, subtree: true });
    }""")
    return lambda: page.evaluate("() => window.__said")


@pytest.mark.browser
def test_trains_in_pyodide_to_the_same_losses_as_cpython(browser):
    base, b = browser
    page = b.new_page()
    page.goto(base + PAGE["en"])
    widget = page.wait_for_selector("[data-widget='train-gpt'][data-mounted='yes']")
    assert widget.get_attribute("data-python") is not None
    start = page.locator("[data-widget='train-gpt'] [data-action='start']")
    assert start.inner_text() == "Start training"
    # One button whose label says what it does: no aria-pressed beside a changing label (WAI-ARIA APG).
    assert start.get_attribute("aria-pressed") is None
    said = _listen(page)
    start.focus()
    page.keyboard.press("Enter")                                   # keyboard-operable
    _wait_steps(page, 10)
    labels = hook.LABELS["train-gpt"]["en"]
    # the seconds of loading are announced, and so is their end
    assert said()[:2] == [labels["loading"], labels["started"].format(steps=training.BOOK["steps"])], said()
    assert start.get_attribute("aria-pressed") is None
    # the page is not blocked while Python trains: the main thread answers at once
    lag = page.evaluate("() => new Promise(r => { const t = performance.now(); setTimeout(() => r(performance.now() - t), 0); })")
    assert lag < 1000
    page.keyboard.press("Enter")                                   # pause (focus stayed on the button)
    page.wait_for_selector("[data-widget='train-gpt'] .gpt-status[data-state='paused']")
    losses = _losses(page)
    assert len(losses) >= 10
    # The steps Python already had arrive after the press: the status names the step it stopped at
    # (it said "Paused at step 20" while holding 25), and no more steps come.
    status = page.locator("[data-widget='train-gpt'] .gpt-status").inner_text()
    assert status.startswith(f"Paused at step {len(losses)},"), (status, len(losses))
    page.wait_for_timeout(1500)
    assert len(_losses(page)) == len(losses)
    _, cpython = training.train(**{**training.BOOK, "steps": len(losses)})
    assert losses == pytest.approx(cpython, abs=1e-9, rel=0)
    assert page.get_attribute("[data-widget='train-gpt'] .gpt-check", "data-matches") == "true"
    assert page.locator("[data-widget='train-gpt'] .gpt-map").count() == training.BOOK["n_heads"]
    assert page.locator("[data-widget='train-gpt'] [aria-live='polite']").inner_text().startswith("Paused")
    # another seed and learning rate: reset, train, and again equal to CPython
    page.fill("[data-widget='train-gpt'] input.gpt-seed", "3")
    page.press("[data-widget='train-gpt'] input.gpt-seed", "Enter")
    page.select_option("[data-widget='train-gpt'] select.gpt-lr", "0.03")
    page.wait_for_selector("[data-widget='train-gpt'][data-step='0']")
    start.click()
    _wait_steps(page, 5)
    start.click()
    page.wait_for_selector("[data-widget='train-gpt'] .gpt-status[data-state='paused']")
    losses = _losses(page)
    _, cpython = training.train(**{**training.BOOK, "seed": 3, "lr": 0.03, "steps": len(losses)})
    assert losses == pytest.approx(cpython, abs=1e-9, rel=0)
    # To the end, by keyboard: the button is never disabled, so focus stays on it, and it offers
    # to train again (it read "Resume", disabled, and focus fell to the page).
    start.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-widget='train-gpt'] .gpt-status[data-state='done']", timeout=300_000)
    assert page.evaluate("() => document.activeElement.dataset.action") == "start"
    assert start.is_enabled() and start.inner_text() == labels["again"]
    assert said()[-1].startswith("Done: 120 steps") and len(_losses(page)) == training.BOOK["steps"]
    page.keyboard.press("Enter")                                   # train again: from step 0
    _wait_steps(page, 5)
    assert start.inner_text() == labels["pause"] and len(_losses(page)) < training.BOOK["steps"]
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-widget='train-gpt'] .gpt-status[data-state='paused']")
    _, cpython = training.train(**{**training.BOOK, "seed": 3, "lr": 0.03, "steps": len(_losses(page))})
    assert _losses(page) == pytest.approx(cpython, abs=1e-9, rel=0)
    assert page.errors == [] and page.outside == []


@pytest.mark.browser
def test_chinese_labels_phone_width_dark_and_print_form(browser):
    base, b = browser
    page = b.new_page(width=375, height=740, dark=True)
    page.goto(base + PAGE["zh"])
    page.wait_for_selector("[data-widget='train-gpt'][data-mounted='yes']")
    start = page.locator("[data-widget='train-gpt'] [data-action='start']")
    assert start.inner_text() == "开始训练"
    assert page.locator("[data-widget='train-gpt'] .gpt-map").count() == training.BOOK["n_heads"]   # before training, from the build
    assert not reveal(page)   # lay out what is off screen too (content-visibility), nothing clipped
    width = page.locator("[data-widget='train-gpt']").evaluate("e => e.scrollWidth")
    assert width <= 375
    # Text a phone reader can read without zooming: the chart and the maps are drawn in CSS px,
    # every label at 12 px or more (the chart's was 9.6 px), and every line has its legend.
    sizes = page.locator("[data-widget='train-gpt'] svg text").evaluate_all(
        "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b))")
    assert len(sizes) > 20 and min(sizes) >= 12, sorted(sizes)[:3]
    legend = page.locator("[data-widget='train-gpt'] .gpt-legend").inner_text()
    assert f"ln {training.BOOK['vocab_size']} ≈ {math.log(training.BOOK['vocab_size']):.2f}" in legend
    assert "查询" in page.locator("[data-widget='train-gpt'] .gpt-maps-legend").inner_text()
    page.emulate_media(media="print")
    assert not page.locator("[data-widget='train-gpt']").is_visible()
    assert page.locator("img[src$='ch8-train.svg']").is_visible()
    assert page.errors == [] and page.outside == []
