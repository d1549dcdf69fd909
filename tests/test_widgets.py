"""The interactive widgets: their data comes from attnkit, every page that embeds one also
prints a static figure, and in headless Chromium they draw attnkit's numbers, answer clicks,
taps and keys, survive instant navigation and hostile input, with no errors and nothing
loaded from outside."""

from __future__ import annotations

from pathlib import Path

import math
import os
import re
import time

import numpy as np
import pytest

from attnkit import scaled_dot_product_attention, sinusoidal_positional_encoding, toy
from attnkit.core import spread_evenly
from attnkit.toy_heads import TOUR_SENTENCES, attend_heads, tour_sentence
from book import DOCS, LANGS, ROOT, pages
from test_axe import reveal
from importlib import import_module

WIDGETS = ROOT / "overrides" / "assets" / "widgets"
SITE = Path(os.environ.get("BOOK_SITE", ROOT / "site"))   # a site built elsewhere (-d), if set
EMBED = re.compile(r'<div class="attn-widget screen-only" data-widget="(?P<name>[a-z-]+)"[^>]*></div>')


def load_hook():
    return import_module("bookbuild.widgets")


hook = load_hook()


# --------------------------------------------------------------------------
# sources and data (no browser)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_embedded_widget_exists_and_has_a_printed_figure(lang):
    problems = []
    for page in pages(lang):
        text = (DOCS / lang / page).read_text(encoding="utf-8")
        for line in text.splitlines():
            if "data-widget=" in line and not EMBED.search(line):
                problems.append(f"{page}: a widget must be embedded as <div class=\"attn-widget screen-only\" data-widget=...></div>: {line}")
        for match in EMBED.finditer(text):
            name = match["name"]
            if not (WIDGETS / f"{name}.js").is_file():
                problems.append(f"{page}: unknown widget {name!r}")
            after = text[match.end():]   # the figure must follow at once (re.match), however long its alt text
            if not re.match(r'\s*<div class="print-only" markdown>\s*!\[[^\]]+\]\((?:\.\./)*figures/[a-z0-9-]+\.svg\)', after):
                problems.append(f"{page}: widget {name!r} is not followed by a print-only figure")
    assert not problems, "\n".join(problems)


def test_widget_scripts_type_no_numbers_and_load_nothing_from_outside():
    for path in WIDGETS.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\[\s*-?\d+\.\d+\s*,", source), f"{path.name}: a hand-typed array of numbers"
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", source), f"{path.name}: an outside URL"
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source, f"{path.name}: parses text as HTML"


# The page has widgets and all of them are mounted. Without the first half, a page with no widget
# passes at once. The one failure of test_widgets_survive_instant_navigation_and_print on record
# (a CI run under load: no print figure found on /tour/ after go_forward()) fits that: the home
# page, which has no widget, can still be the page shown when the wait starts.
ALL_MOUNTED = ("document.querySelectorAll('[data-widget]').length > 0 && "
               "[...document.querySelectorAll('[data-widget]')].every(e => e.dataset.mounted === 'yes')")
ROUNDED = 5.0001e-7   # bookbuild/widgets.py rounds the widgets' JSON to 6 decimals


def shown_as(data, exact):
    """The widget data are attnkit's numbers rounded to what the widgets show: within 5×10⁻⁷ of
    them, and printed the same with 0-4 decimals and as a percentage (widgets.py _rounded)."""
    data, exact = np.asarray(data, dtype=float), np.asarray(exact, dtype=float)
    assert data.shape == exact.shape
    np.testing.assert_allclose(data, exact, rtol=0, atol=5.0001e-7)
    differ = [(x, r) for x, r in zip(exact.ravel().tolist(), data.ravel().tolist()) if not hook.shown_the_same(x, r)]
    assert not differ, f"printed differently once rounded: {differ[:3]}"


def test_widget_json_is_rounded_where_it_can_be():
    """Rounding shrinks the data (toy.json en 53 -> 31 KB) and keeps a value's every digit where
    rounding would change what a widget prints: 0.0049996 stays (num(x, 2) is 0.00, not 0.01)."""
    assert hook._rounded(0.10414233427452604) == 0.104142
    assert hook._rounded(0.0049996) == 0.0049996 and hook._rounded(0.00049999) == 0.00049999
    assert hook._rounded(0.123456789) == 0.123457
    assert hook._rounded(0.12500000060372368) == 0.125000001            # num(x, 2) is 0.13, as 0.125's is 0.12
    assert hook._rounded(3.384848994813164e-10) == 3.38e-10             # "<0.1%", as 0 would print "0.0%"
    assert not hook.shown_the_same(0.00049999, 0.0005)          # "<0.1%" against "0.1%"
    data = hook.toy_data("en")
    assert data["sentences"]["cat-ball-fun"]["steps"][0]["weights"][0][0] == round(1 / 9, 6)


@pytest.mark.parametrize("lang", LANGS)
def test_widget_data_is_attnkits(lang):
    data = hook.toy_data(lang)
    for key, example in toy.SENTENCES.items():
        if example.lang == lang and key not in TOUR_SENTENCES:
            r = toy.attend(example.text, lang)
            shown_as(data["sentences"][key]["steps"][1]["weights"], r.weights)
            assert data["sentences"][key]["tokens"][data["sentences"][key]["focus"]] == example.focus
    for sid in TOUR_SENTENCES:
        s = data["sentences"][sid]
        r, focus, step = tour_sentence(sid, lang)
        assert s["tokens"] == r.tokens and s["focus"] == focus and s["step"] == step
        for mine, theirs in zip(s["steps"], r.steps):
            shown_as(mine["weights"], theirs.weights)
            shown_as(mine["out"], theirs.out)
    for mine, theirs in zip(data["steps"], toy.STEPS.values()):
        for key, w in zip(("w_q", "w_k", "w_v"), theirs):
            np.testing.assert_array_equal(mine[key], w)
    steps = hook.steps_data(lang)
    for ex in steps["examples"]:
        r, i, step = tour_sentence(ex["id"], lang)
        s = r.steps[step - 1]
        default = ex["grid"][ex["default"]]
        assert default["divisor"] == math.sqrt(ex["d_k"])
        shown_as(default["weights"], s.weights[i])
        for g in ex["grid"]:
            out, w = scaled_dot_product_attention(s.q[i][None], s.k, s.v, scale=1 / g["divisor"])
            shown_as(g["weights"], w[0])
            shown_as(g["out"], out[0])
            shown_as(g["scaled"], s.q[i] @ s.k.T / g["divisor"])
    heads = hook.heads_data(lang)
    h = attend_heads(TOUR_SENTENCES["cat-ball-fun"].text[lang], lang)
    shown_as(heads["weights"], h.weights)
    # each row's target, or -1 where no word gets twice an even share (a uniform row has no target)
    n = len(h.tokens)
    for k, tops in enumerate(heads["top"]):
        for i, top in enumerate(tops):
            row = h.weights[k, i]
            assert top == (-1 if row.max() < 2 / n else int(np.argmax(row))), (lang, k, h.tokens[i])
    it = heads["focus"]
    assert h.tokens[heads["top"][0][it]] == ("球" if lang == "zh" else "ball")       # reference: it -> ball
    assert -1 in heads["top"][1]                                                     # uniform rows exist
    pos = hook.positions_data(lang)
    pe = sinusoidal_positional_encoding(hook.PE_POSITIONS, hook.PE_D_MODEL)
    shown_as(pos["pe"], pe)
    shown_as(pos["sim"], pe @ pe.T)


def test_positional_dot_product_depends_only_on_distance():
    """What the positions widget shows: PE[a] . PE[a + d] is the same for every a."""
    sim = np.array(hook.positions_data("zh")["sim"])
    for d in range(0, 20):
        diagonal = np.diagonal(sim, offset=d)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=2 * ROUNDED)   # the JSON's rounding
        assert len({f"{x:.4f}" for x in diagonal}) == 1, (d, diagonal)       # shown as one number


# --------------------------------------------------------------------------
# in the browser
# --------------------------------------------------------------------------

browser_only = pytest.mark.browser


@pytest.fixture(scope="module")
def site():
    from bookbuild.browser import launch, serve_site

    with serve_site(SITE) as base, launch() as browser:
        yield base, browser


def open_tour(site, lang="zh", width=1280, dark=False):
    base, browser = site
    page = browser.new_page(width=width, dark=dark)
    page.goto(base + ("/en/tour/" if lang == "en" else "/tour/"))
    page.wait_for_function(ALL_MOUNTED)
    reveal(page)   # every widget drawn, as after the reader scrolled to it (content-visibility skips those off screen)
    return page


def drawn_weights(widget) -> list[float]:
    lines = widget.locator("line.attn-link")
    return [float(lines.nth(j).get_attribute("data-weight")) for j in range(lines.count())]


def texts(locator) -> list[str]:
    return locator.evaluate_all("es => es.map(e => e.textContent)")


def pct(x):
    """As the widgets show a share: one decimal, and a positive share below 0.05% as <0.1%."""
    return "<0.1%" if 0 < 100 * x < 0.05 else f"{100 * x:.1f}%"


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_click_a_word(site, lang):
    page = open_tour(site, lang)
    widget = page.locator('[data-widget="click-a-word"]')
    r, focus, step = tour_sentence("cat-ball-fun", lang)
    tokens = widget.locator(".attn-tokens .attn-choice")
    assert tokens.all_inner_texts() == r.tokens
    assert tokens.nth(focus).get_attribute("aria-checked") == "true"
    np.testing.assert_allclose(drawn_weights(widget), r.steps[1].weights[focus], atol=ROUNDED)
    widths = [float(w) for w in widget.locator("line.attn-link").evaluate_all("ls => ls.map(l => l.getAttribute('stroke-width'))")]
    assert int(np.argmax(widths)) == int(np.argmax(r.steps[1].weights[focus]))

    # exact percentages on demand
    assert widget.locator(".attn-pct").count() == 0
    widget.locator(".attn-check input").check()
    assert texts(widget.locator(".attn-pct")) == [pct(w) for w in r.steps[1].weights[focus]]

    # click another word (a tap is a click), then move with the keyboard
    tokens.nth(0).click()
    np.testing.assert_allclose(drawn_weights(widget), r.steps[1].weights[0], atol=ROUNDED)
    tokens.nth(0).focus()
    page.keyboard.press("ArrowRight")
    assert tokens.nth(1).get_attribute("aria-checked") == "true"
    assert page.evaluate("document.activeElement.textContent") == r.tokens[1]
    np.testing.assert_allclose(drawn_weights(widget), r.steps[1].weights[1], atol=ROUNDED)

    # round 1, and the mix bar
    widget.locator(".attn-rounds .attn-choice").nth(0).click()
    np.testing.assert_allclose(drawn_weights(widget), r.steps[0].weights[1], atol=ROUNDED)
    segments = widget.locator(".attn-seg")
    np.testing.assert_allclose(segments.evaluate_all("s => s.map(e => parseFloat(e.dataset.weight))"), r.steps[0].weights[1], atol=ROUNDED)
    np.testing.assert_allclose(segments.evaluate_all("s => s.map(e => parseFloat(e.style.flexGrow))"), r.steps[0].weights[1], atol=1e-6)
    label = widget.locator(".attn-tokens").get_attribute("aria-label")
    assert label == ("点一个词，看它把注意力分给谁" if lang == "zh" else "Pick a word to see where its attention goes")
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_switch_scene_heads_and_steps(site, lang):
    page = open_tour(site, lang)
    scene = page.locator('[data-widget="switch-scene"]')
    for k, sid in enumerate(["apple-fruit", "apple-launch", "apple-fruit"]):
        if k:
            scene.locator(".attn-scenes .attn-choice").nth(0 if sid == "apple-fruit" else 1).click()
        r, i, step = tour_sentence(sid, lang)
        assert scene.locator(".attn-tokens .attn-choice").all_inner_texts() == r.tokens
        assert scene.locator(".attn-sentence").inner_text() == TOUR_SENTENCES[sid].text[lang]
        np.testing.assert_allclose(drawn_weights(scene), r.steps[step - 1].weights[i], atol=ROUNDED)

    heads = page.locator('[data-widget="heads"]')
    h = attend_heads(TOUR_SENTENCES["cat-ball-fun"].text[lang], lang)
    assert heads.locator(".attn-head").count() == 4
    heads.locator(".attn-tokens .attn-choice").nth(1).click()          # 追着 / kitten
    for k in range(4):
        rows = heads.locator(f'.attn-head[data-head="{k}"] .attn-headrow')
        got = rows.evaluate_all("rs => rs.map(r => parseFloat(r.dataset.weight))")
        np.testing.assert_allclose(got, h.weights[k, 1], atol=ROUNDED)
        assert rows.locator(".attn-num").all_inner_texts() == [pct(w) for w in h.weights[k, 1]]
    # The spoken summary names a target only where a row has one; a uniform row is "spread evenly".
    live = heads.locator(".attn-sr-only").inner_text().split("；" if lang == "zh" else "; ")   # the language's own marks
    assert len(live) == 4
    for k, said in enumerate(live):
        even = spread_evenly(h.weights[k, 1])
        assert (("均匀分散" if lang == "zh" else "spread evenly") in said) == even, said
        if not even:
            assert said.endswith(f"→ {h.tokens[int(np.argmax(h.weights[k, 1]))]} {pct(h.weights[k, 1].max())}"), said
    heads.locator(".attn-mode .attn-choice").nth(1).click()
    heads.locator(".attn-headpick .attn-choice").nth(2).click()
    assert heads.locator(".attn-head").count() == 1
    assert heads.locator('.attn-head[data-head="2"]').count() == 1

    steps = page.locator('[data-widget="four-steps"]')
    r, i, step = tour_sentence("cat-ball-fun", lang)
    s = r.steps[step - 1]
    assert steps.locator('[data-role="score"]').all_inner_texts() == [f"{x:.3f}" for x in s.scores[i]]
    assert steps.locator('input[type="range"]').is_hidden()
    steps.locator(".attn-steps__tabs .attn-choice").nth(2).click()       # softmax
    steps.locator('[data-role="weight"]').first.wait_for()              # the slider's positions are fetched now
    assert steps.locator('[data-role="weight"] .attn-num').all_inner_texts() == [pct(w) for w in s.weights[i]]
    slider = steps.locator('input[type="range"]')
    top = int(np.argmax(s.weights[i]))
    for index in (0, int(slider.get_attribute("max"))):
        slider.fill(str(index))
        divisor = hook.steps_data(lang)["examples"][0]["grid"][index]["divisor"]
        _, w = scaled_dot_product_attention(s.q[i][None], s.k, s.v, scale=1 / divisor)
        assert steps.locator('[data-role="weight"] .attn-num').all_inner_texts() == [pct(x) for x in w[0]]
        if index == 0:
            assert w[0][top] > s.weights[i][top]                          # smaller divisor: sharper
        else:
            assert w[0][top] < s.weights[i][top]                          # bigger divisor: flatter
    page.keyboard.press("ArrowLeft")                                      # the slider has focus: keys move it
    assert slider.input_value() == str(int(slider.get_attribute("max")) - 1)
    steps.locator(".attn-steps__nav button").nth(1).click()              # next: the weighted sum
    out = steps.locator('[data-role="out"]').inner_text()
    assert steps.locator('[data-role="out"]').is_visible()
    divisor = hook.steps_data(lang)["examples"][0]["grid"][int(slider.input_value())]["divisor"]
    mix, _ = scaled_dot_product_attention(s.q[i][None], s.k, s.v, scale=1 / divisor)
    names = toy.FEATURE_NAMES[lang]
    expected = [f"{names[f]} {mix[0][f]:.2f}" for f in np.argsort(-mix[0], kind="stable") if abs(mix[0][f]) >= 0.005]
    assert out.split(" = ")[-1].split("，" if lang == "zh" else ", ") == expected
    if lang == "zh":          # the Chinese book's widgets speak with Chinese punctuation: "头：…", never "头: …"
        for text in (heads.locator(".attn-sr-only").inner_text(), steps.locator("caption").inner_text()):
            assert "：" in text and ": " not in text and "; " not in text, text
    assert not page.errors and not page.outside


@browser_only
def test_positions_explorer(site):
    page = open_tour(site, "en")
    widget = page.locator('[data-widget="positions"]')
    pe = sinusoidal_positional_encoding(hook.PE_POSITIONS, hook.PE_D_MODEL)
    sliders = widget.locator('input[type="range"]')
    sliders.nth(0).fill("10")
    sliders.nth(1).fill("25")
    sliders.nth(2).fill("5")
    assert f"= {pe[10] @ pe[25]:.4f}".replace("-", "−") in widget.locator('[data-role="sim"]').inner_text()
    assert widget.locator('[data-role="pe-a"]').inner_text().endswith(f"{pe[10, 5]:.4f}".replace("-", "−"))
    assert "cos" in widget.locator('[data-role="pe-a"]').inner_text()
    pairs = widget.locator('[data-role="pairs"] li').all_inner_texts()
    assert len(pairs) >= 2
    for text in pairs:
        a, b = map(int, re.findall(r"PE\[(\d+)\]", text))
        assert b - a == 15 and text.endswith(f"{pe[a] @ pe[b]:.4f}".replace("-", "−"))
    # The similarity chart's axis runs from the floor of the smallest dot product to the ceiling of
    # the largest, PE[p] . PE[p] = d_model / 2 = 8: the rounded JSON says 8, not 8.000000000000002
    # (whose ceiling, 9, the axis showed before widgets.py rounded it).
    sim = pe @ pe.T
    ticks = texts(widget.locator('.attn-chart .attn-tick'))
    assert str(hook.PE_D_MODEL // 2) in ticks and str(math.floor(sim.min())) in ticks, ticks
    assert str(hook.PE_D_MODEL // 2 + 1) not in ticks, ticks
    assert not page.errors and not page.outside


# Sentences whose tokens and weights the JavaScript port must reproduce exactly.
PORT_CASES = {
    "zh": ["小猫追着球跑，因为它很好玩。", "小狗追着球跑，因为它饿了。", "苹果发布会上发布了新手机。",
           "水果摊的苹果又甜又脆", "它🐱饿了", "小猫 likes 球 123", "שלום 它 عالم", "<script>alert(1)</script>",
           "猫‍猫\u200b跑了", "因为因为因为", "Ｅｍｏｊｉ 👩‍👩‍👧 它", "abc123 123abc 2's 它"],
    "en": ["The kitten chased the ball because it was shiny.", "The animal didn't cross the street because it was too tired.",
           "Apple’s new phone", "THE DOG CHASED IT", "it's 2 fun", "<img src=x onerror=alert(1)>", "مرحبا it", "café it ñ",
           "hungry hungry it", "emoji 🍎 apple", "abc123 123abc 2's it"],
}

# What the widget's tokenizer (the browser's word segmenter, then the lexicon) must make of text
# the port cuts into characters: a word the toy does not know stays one word, and an emoji made
# of several code points (a family joined by ZWJ, a flag, a skin tone, a heart with its variation
# selector: one grapheme cluster each, Unicode UAX #29) stays one token. Words the lexicon knows
# are Python's tokens.
SEGMENTED = {
    "zh": {"שלום 它 عالم": ["שלום", "它", "عالم"],
           "Ｅｍｏｊｉ 👩‍👩‍👧 它": ["Ｅｍｏｊｉ", "👩‍👩‍👧", "它"],
           "它 🇨🇳 👍🏽 ❤️ 饿了": ["它", "🇨🇳", "👍🏽", "❤️", "饿了"],
           "猫‍猫\u200b跑了": ["猫", "猫", "跑", "了"]},
    "en": {"café it ñ": ["café", "it", "ñ"], "مرحبا it": ["مرحبا", "it"],
           "the dog 👩‍👩‍👧 🇨🇳 👍🏽 ❤️": ["the", "dog", "👩‍👩‍👧", "🇨🇳", "👍🏽", "❤️"],
           "Straße naïve it": ["straße", "naïve", "it"]},
}

TOY_IN_PAGE = """async ([texts, split]) => {
    const root = document.baseURI.replace(/tour\\/$/, '');
    const toy = await import(new URL('assets/widgets/toy.js', root).href);
    const model = await (await fetch(new URL('data/widgets/toy.json', root).href)).json();
    return texts.map((text) => {
        try { return toy.attend(text, model, split === 'port' ? toy.portTokenize : toy.tokenize); }
        catch (e) { return { error: e.kind || String(e) }; }
    });
}"""


def assert_same_math(got, tokens, lang):
    """The widget's weights and outputs for ``tokens`` are attnkit's (toy.attend takes tokens too)."""
    r = toy.attend(tokens, lang)
    assert got["known"] == r.known
    for mine, theirs in zip(got["steps"], r.steps):
        np.testing.assert_allclose(mine["weights"], theirs.weights, rtol=0, atol=1e-9)
        np.testing.assert_allclose(mine["out"], theirs.out, rtol=0, atol=1e-9)


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_javascript_port_of_the_toy_model_matches_attnkit(site, lang):
    page = open_tour(site, lang)
    texts = PORT_CASES[lang] + ["", " ，。!? ", " ".join(["word"] * 500)]
    results = page.evaluate(TOY_IN_PAGE, [texts, "port"])
    for text, got in zip(texts, results):
        try:
            r = toy.attend(text, lang)
        except ValueError as error:
            assert "error" in got, f"{text!r}: Python refused ({error}), JavaScript did not"
            assert got["error"] == ("tooLong" if "at most" in str(error) else "empty")
            continue
        assert got.get("tokens") == r.tokens, f"{text!r}: tokens differ"
        assert_same_math(got, r.tokens, lang)
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_finds_words_with_the_platforms_segmenter(site, lang):
    """Every sentence of the book gets Python's tokens; words the toy does not know and emoji stay
    whole (SEGMENTED); the weights are attnkit's for the tokens found; refusals as in Python."""
    page = open_tour(site, lang)
    book = [e.text for e in toy.SENTENCES.values() if e.lang == lang] + [s.text[lang] for s in TOUR_SENTENCES.values()]
    book += page.locator('[data-widget="your-sentence"] .attn-chip').all_inner_texts()
    cases = list(SEGMENTED[lang])
    refused = ["", " ，。!? ", " ".join(["word"] * 500)]
    results = page.evaluate(TOY_IN_PAGE, [book + cases + refused, "segmenter"])
    for text, got in zip(book, results):
        assert got.get("tokens") == toy.tokenize(text, lang), f"{text!r}: not Python's tokens"
        assert_same_math(got, got["tokens"], lang)
    for text, got in zip(cases, results[len(book):]):
        assert got.get("tokens") == SEGMENTED[lang][text], text
        assert_same_math(got, got["tokens"], lang)
    assert [got.get("error") for got in results[-3:]] == ["empty", "empty", "tooLong"]
    assert not page.errors and not page.outside


# What a reader must never see where a word or a number should be: JavaScript's placeholders
# (a null child appended to the DOM becomes the text "null": the "nullnull" of issue 27).
NOT_A_NUMBER = re.compile(r"null|undefined|NaN|\[object")

HOSTILE = [
    ("<img src=x onerror=alert(1)>", None),
    ("<script>alert('x')</script>", None),
    ("", "empty"),
    ("   ，。  ", "empty"),
    (" ".join(["小猫"] * 500), "tooLong"),
    ("🐱🐶🍎 它 🎉", None),
    ("שלום עולם مرحبا", "noKnown"),
    ("x" * 5000, "tooLongChars"),
]


@browser_only
def test_your_sentence_handles_hostile_input(site):
    page = open_tour(site, "zh")
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    widget = page.locator('[data-widget="your-sentence"]')
    field = widget.locator("input.attn-input")
    for text, expect in HOSTILE:
        field.fill(text)
        started = time.monotonic()
        field.press("Enter")
        message = widget.locator(".attn-message").inner_text()
        assert time.monotonic() - started < 2, f"{text[:20]!r}: too slow"
        assert widget.locator("img, script").count() == 0, f"{text[:20]!r}: markup was injected"
        if expect == "empty":
            assert message == "请先输入一句话。"
            assert widget.locator("line.attn-link").count() == 0
        elif expect == "tooLong":
            assert "最多 40 个词元" in message and "500" in message
            assert widget.locator("line.attn-link").count() == 0
        elif expect == "tooLongChars":
            assert "最多 2000 个字符" in message
        else:
            shown = widget.locator(".attn-tokens .attn-choice").all_inner_texts()
            r = toy.attend(shown, "zh")   # the words the segmenter found, through attnkit
            assert "".join(shown) == "".join(toy.tokenize(text, "zh"))   # nothing lost or added
            if not any(r.known):
                assert "一个词也不认识" in message
            else:
                assert "不认识这些词" in message
            assert (expect == "noKnown") <= (not any(r.known))
        assert not NOT_A_NUMBER.search(widget.inner_text()), f"{text[:20]!r}: {widget.inner_text()[:200]}"
    # a sentence the toy knows, by example button
    widget.locator(".attn-chip").nth(0).click()
    r = toy.attend(widget.locator(".attn-chip").nth(0).inner_text(), "zh")
    i = r.tokens.index("它")
    np.testing.assert_allclose(drawn_weights(widget), r.steps[1].weights[i], atol=ROUNDED)
    assert widget.locator(".attn-message").inner_text() == ""
    assert not dialogs and not page.errors and not page.outside


# Sentences without a clue word (nothing needs something alive or a thing), and their words.
NO_CLUE = {"zh": "小猫追着球跑，因为它很大", "en": "The cat chased the ball because it was big"}
ALL_UNKNOWN = {"zh": "今天 天气 不错", "en": "hello there world"}


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_your_sentence_explains_even_shares_and_never_prints_null(site, lang):
    """Issue 27: a word whose mix brings nothing printed "nullnull" (the view appended null
    children): a sentence of unknown words, or round 1 of a sentence without clue or topic words.
    Now the view says the mix brings almost nothing; a row of equal shares says why (equal
    scores); a sentence without a clue word says why every word gets the same share. Every word
    of each sentence, in both rounds: no placeholder text, and attnkit's numbers."""
    page = open_tour(site, lang)
    widget = page.locator('[data-widget="your-sentence"]')
    field = widget.locator("input.attn-input")
    strings = page.evaluate("async () => (await import(new URL('assets/widgets/common.js', document.baseURI.replace(/tour\\/$/, '')).href)).t('evenShare')")
    even_start = strings.split("{word}")[1].split("{")[0]   # the sentence's own words after the word
    for text in (NO_CLUE[lang], ALL_UNKNOWN[lang], toy.SENTENCES["cat-ball-fun" if lang == "zh" else "kitten-ball-shiny"].text):
        field.fill(text)
        field.press("Enter")
        tokens = widget.locator(".attn-tokens .attn-choice").all_inner_texts()
        r = toy.attend(tokens, lang)
        message = widget.locator(".attn-message").inner_text()
        clue = any(f in toy.LEXICON[lang].get(t, ()) for t in r.tokens for f in ("needs_animate", "needs_thing"))
        if text == ALL_UNKNOWN[lang]:
            assert not any(r.known) and ("一个词也不认识" in message or "knows none" in message)
        elif not clue:
            clues = [w for w, fs in toy.LEXICON[lang].items() if {"needs_animate", "needs_thing"} & set(fs)]
            assert all(w in message for w in clues), message                      # it names the clue words
            assert ("线索词" in message or "clue word" in message) and "softmax" in message
        else:
            assert "softmax" not in message
        for round_ in (0, 1):
            widget.locator(".attn-rounds .attn-choice").nth(round_).click()
            for i in range(len(tokens)):
                widget.locator(".attn-tokens .attn-choice").nth(i).click()
                shown = widget.inner_text()
                assert not NOT_A_NUMBER.search(shown), f"{text!r} round {round_ + 1}, {tokens[i]!r}: {shown[:300]}"
                row = r.steps[round_].weights[i]
                np.testing.assert_allclose(drawn_weights(widget), row, atol=1e-9)
                even = widget.locator('[data-role="even"]')
                assert even.count() == int(bool(np.ptp(row) < 1e-9)), (text, round_, tokens[i], row)
                if even.count():
                    assert even_start in even.inner_text() and pct(1 / len(tokens)) in even.inner_text()
                features = widget.locator(".attn-features li").count()
                assert features == int(np.sum(np.abs(r.steps[round_].out[i]) >= 0.005))
                if not features:
                    assert widget.locator(".attn-mix .attn-hint").inner_text().strip(), "no word on an empty mix"
        if not clue:   # no clue: every row of round 2 is even (its queries are all zero)
            assert all(np.ptp(row) < 1e-12 for row in r.steps[1].weights)
    assert not page.errors and not page.outside


@browser_only
def test_widgets_survive_instant_navigation_and_print(site):
    base, browser = site
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_load_state("networkidle")
    page.evaluate("window.sameDocument = true")   # gone if a click loads a whole new document
    page.follow(base + "/tour/", page.locator('.md-nav a[href$="tour/"]').first)
    page.wait_for_function(ALL_MOUNTED)
    assert page.locator('[data-widget="click-a-word"] line.attn-link').count() > 0
    assert page.evaluate("window.sameDocument"), "the click loaded a new document: no instant navigation"
    page.go_back()
    page.wait_for_url(base + "/")
    page.wait_for_function("!document.querySelector('[data-widget]')")
    page.go_forward()
    page.wait_for_url("**/tour/")
    page.wait_for_function(ALL_MOUNTED)
    assert page.evaluate("window.sameDocument"), "back and forward loaded a new document"
    page.emulate_media(media="print")
    assert page.locator("[data-widget]").first.is_hidden()
    assert page.locator(".print-only img").count() > 0, "the tour's print figures are not in the page"
    assert page.locator(".print-only img").first.is_visible()
    page.emulate_media(media="screen")
    assert page.locator(".print-only img").first.is_hidden()
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_widgets_fit_a_phone_in_dark_mode(site, lang):
    page = open_tour(site, lang, width=375, dark=True)
    assert not reveal(page, again=True)   # no widget is larger than its box (it would be clipped)
    for widget in page.locator("[data-widget]").all():
        overflow = widget.evaluate("e => e.scrollWidth - e.clientWidth")
        assert overflow <= 1, f"{widget.get_attribute('data-widget')} is {overflow}px wider than a 375px phone"
    colour = page.locator(".attn-tok").first.evaluate("e => getComputedStyle(e).fill")
    rgb = [int(c) for c in re.findall(r"\d+", colour)[:3]]
    assert sum(rgb) > 3 * 150, f"token text {colour} is too dark to read on the dark background"
    assert not page.errors and not page.outside


@browser_only
def test_a_phone_tap_picks_a_word(site):
    from bookbuild.browser import Page

    base, browser = site
    context = browser._browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True,
                                           service_workers="block", bypass_csp=True)  # see bookbuild/browser.py
    page = Page(context)
    page.goto(base + "/tour/")
    page.wait_for_function(ALL_MOUNTED)
    widget = page.locator('[data-widget="click-a-word"]')
    r, focus, step = tour_sentence("cat-ball-fun", "zh")
    widget.locator(".attn-tokens .attn-choice").nth(2).tap()
    assert widget.locator(".attn-tokens .attn-choice").nth(2).get_attribute("aria-checked") == "true"
    np.testing.assert_allclose(drawn_weights(widget), r.steps[1].weights[2], atol=ROUNDED)
    box = widget.locator(".attn-tokens .attn-choice").nth(2).bounding_box()
    assert box["height"] >= 32 and box["width"] >= 32, f"a token is too small to tap: {box}"
    context.close()
    assert not page.errors and not page.outside


# --------------------------------------------------------------------------
# chapter 10.3: rotate the pairs (rope.js)
# --------------------------------------------------------------------------

def minus(text: str) -> str:
    """As common.js num() prints a number: a real minus sign."""
    return text.replace("-", "−")


@pytest.mark.parametrize("lang", LANGS)
def test_rope_widget_data_is_attnkits(lang):
    from attnkit.rope import EXAMPLE_K, EXAMPLE_Q, pair_scores, rope, rope_frequencies, rope_score_table

    data = hook.rope_data(lang)
    q, k = np.array(EXAMPLE_Q), np.array(EXAMPLE_K)
    n, d, shown = data["n"], data["d"], data["pairs"]
    assert d == q.shape[0] and n == hook.ROPE_N and shown == list(hook.ROPE_SHOWN)
    shown_as(data["scores"], rope_score_table(q, k, n))
    shown_as(data["omega"], rope_frequencies(d)[shown])
    turned_q = rope(np.broadcast_to(q, (n, d)))                     # (n, d): q at 0..n-1
    turned_k = rope(np.broadcast_to(k, (n, d)))
    for s, p in enumerate(shown):                                   # pair p = columns p and p + d/2
        shown_as(np.array(data["q"])[:, s], turned_q[:, [p, p + d // 2]])
        shown_as(np.array(data["k"])[:, s], turned_k[:, [p, p + d // 2]])
    parts = np.array([[pair_scores(q, k, i, j) for j in range(n)] for i in range(n)])   # (n, n, d/2)
    shown_as(np.array(data["parts"]), parts[:, :, shown])
    shown_as(data["rest"], parts.sum(axis=-1) - parts[:, :, shown].sum(axis=-1))
    gaps = np.array(data["gap"])                                    # (2n-1, 2): offsets -(n-1)..n-1
    shown_as(gaps[n - 1 + 3], 3 * rope_frequencies(d)[shown])
    assert set(data["labels"]) == set(hook.LABELS["rope"]["zh"]) == set(hook.LABELS["rope"]["en"])


def test_rope_widget_scores_depend_only_on_the_offset():
    """What the widget shows: every pair of positions with the same i - j prints the same score."""
    scores = np.array(hook.rope_data("en")["scores"])
    for offset in range(-(hook.ROPE_N - 1), hook.ROPE_N):
        diagonal = np.diagonal(scores, offset=-offset)              # the cells with i - j = offset
        assert len({f"{x:.4f}" for x in diagonal}) == 1, (offset, diagonal)


def open_rope(site, lang="zh", width=1280, dark=False):
    base, browser = site
    page = browser.new_page(width=width, dark=dark)
    page.goto(base + ("/en/ch10/rope/" if lang == "en" else "/ch10/rope/"))
    page.wait_for_function(ALL_MOUNTED)
    reveal(page)
    return page, page.locator('[data-widget="rope"]')


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_rope_widget_turns_the_pairs_and_keeps_the_score(site, lang):
    from attnkit.rope import EXAMPLE_K, EXAMPLE_Q, pair_scores, rope_score_table

    table = rope_score_table(EXAMPLE_Q, EXAMPLE_K, hook.ROPE_N)
    page, widget = open_rope(site, lang)
    score = widget.locator('[data-role="score"]')
    assert minus(f"{table[5, 2]:.4f}") in score.inner_text()                 # the page's data-i, data-j
    widget.locator('input[data-role="i"]').fill("10")
    widget.locator('input[data-role="j"]').fill("4")
    assert minus(f"{table[10, 4]:.4f}") in score.inner_text() and "i − j = 6" in score.inner_text()
    adds = widget.locator('[data-role="adds-0"]').inner_text()
    assert minus(f"{pair_scores(EXAMPLE_Q, EXAMPLE_K, 10, 4)[0]:.3f}") in adds
    before = widget.locator("svg.attn-rope__plane").first.inner_html()
    widget.locator('[data-role="forward"]').click()                           # both move together
    assert widget.locator('input[data-role="i"]').input_value() == "11"
    assert widget.locator('input[data-role="j"]').input_value() == "5"
    assert minus(f"{table[11, 5]:.4f}") in score.inner_text()
    assert f"{table[11, 5]:.4f}" == f"{table[10, 4]:.4f}"
    assert widget.locator("svg.attn-rope__plane").first.inner_html() != before   # the arrows turned
    pairs = widget.locator('[data-role="pairs"] li').all_inner_texts()
    assert len(pairs) >= 3
    for text in pairs:
        a, b = map(int, re.findall(r"[ij] = (\d+)", text))
        assert a - b == 6 and text.endswith(minus(f"{table[a, b]:.4f}"))
    # keyboard: the arrow keys move a slider, and the score follows
    widget.locator('input[data-role="i"]').focus()
    page.keyboard.press("ArrowRight")
    assert widget.locator('input[data-role="i"]').input_value() == "12"
    assert minus(f"{table[12, 5]:.4f}") in score.inner_text() and "i − j = 7" in score.inner_text()
    # at the edge, moving both further is refused (and the button says so by being disabled)
    widget.locator('input[data-role="i"]').fill(str(hook.ROPE_N - 1))
    assert widget.locator('[data-role="forward"]').is_disabled()
    assert not page.errors and not page.outside


@browser_only
@pytest.mark.parametrize("lang", LANGS)
def test_rope_widget_fits_a_phone_in_dark_mode_and_prints_its_figure(site, lang):
    page, widget = open_rope(site, lang, width=375, dark=True)
    overflow = widget.evaluate("e => e.scrollWidth - e.clientWidth")
    assert overflow <= 1, f"the rope widget is {overflow}px wider than a 375px phone"
    colour = widget.locator(".attn-rope__name.is-k").first.evaluate("e => getComputedStyle(e).fill")
    rgb = [int(c) for c in re.findall(r"\d+", colour)[:3]]
    assert sum(rgb) > 3 * 120, f"the key's label {colour} is too dark to read on the dark background"
    page.emulate_media(media="print")
    assert widget.is_hidden()
    assert page.locator('.print-only img[src*="ch10-rope-pairs"]').is_visible()
    assert not page.errors and not page.outside
