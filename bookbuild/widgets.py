"""Write the data of the interactive widgets as JSON, computed by attnkit, for this language.

Each file is served at ``data/widgets/<name>.json`` (never committed) and read by the
ES modules in overrides/assets/widgets/. The widgets compute nothing themselves, except the
"your own sentence" widget, which runs the toy model's rules (exported here as ``toy.json``)
and is tested against attnkit in tests/test_widgets.py.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import numpy as np
from mkdocs.structure.files import File

from attnkit import scaled_dot_product_attention, sinusoidal_positional_encoding
from attnkit import copy_results, live_training, realtext, toy, training
from attnkit.copytask import spell
from attnkit.tinygpt import config_of, forward
from attnkit.core import spread_evenly
from attnkit.text import power
from attnkit.toy_heads import HEAD_NAMES, HEADS, TOUR_SENTENCES, attend_heads, tour_sentence

from .bookcache import Store, attnkit_digest, environment, key, memo, sources  # bookbuild/bookcache.py
from .exercise_pages import EXERCISES, embedded_in, exercises_data  # bookbuild/exercise_pages.py

log = logging.getLogger("mkdocs.hooks.widgets")

PE_POSITIONS, PE_D_MODEL = 50, 16          # the positional-encoding explorer's table
DIVISORS = np.geomspace(0.25, 8.0, 31)     # the four-steps slider: scores are divided by these


SHOWN = range(5)      # a widget shows a value with 0-4 decimals (num), or 100x with 1 (pct: 3 decimals)
DECIMALS = 6          # ...so the JSON carries 6: 0.10414233427452604 -> 0.104142 (a third of the bytes)


def shown_the_same(x: float, r: float) -> bool:
    """Whether ``r`` prints as ``x`` with every number of decimals a widget shows, and as a
    percentage (common.js pct: "12.3%", or "<0.1%" for a positive share under 0.05%)."""
    def pct(y):
        return "<0.1%" if 0 < 100 * y < 0.05 else f"{100 * y:.1f}%"
    return all(f"{x:.{d}f}" == f"{r:.{d}f}" for d in SHOWN) and pct(x) == pct(r)


def _rounded(x: float) -> float:
    """``x`` with DECIMALS decimals, unless that would change how a widget prints it (a value
    within 5×10⁻⁷ of a rounding boundary keeps all its digits)."""
    r = round(x, DECIMALS)
    return r if shown_the_same(x, r) else x


def _list(a) -> list:
    """An array as JSON lists, each value rounded to what the widgets show (see _rounded)."""
    values = np.asarray(a, dtype=float)
    if values.ndim == 0:
        return _rounded(float(values))
    return [_list(row) for row in values] if values.ndim > 1 else [_rounded(float(x)) for x in values]


def _exact(a) -> list:
    """An array as JSON lists with every digit: what JavaScript computes from (the toy's rules)."""
    return np.asarray(a, dtype=float).tolist()


def sentence_data(sentence_id: str, lang: str) -> dict:
    """One tour sentence: tokens, and each step's weights (n, n) and output (n, d_model)."""
    r, focus, step = tour_sentence(sentence_id, lang)
    return {
        "id": sentence_id, "text": TOUR_SENTENCES[sentence_id].text[lang], "tokens": r.tokens,
        "known": r.known, "focus": focus, "step": step,
        "steps": [{"weights": _list(s.weights), "out": _list(s.out)} for s in r.steps],
    }


def example_data(key: str) -> dict:
    """One of attnkit.toy.SENTENCES (in its own language), in the same form as sentence_data."""
    example = toy.SENTENCES[key]
    r = toy.attend(example.text, example.lang)
    return {
        "id": key, "text": example.text, "tokens": r.tokens, "known": r.known,
        "focus": r.index(example.focus), "step": example.step,
        "steps": [{"weights": _list(s.weights), "out": _list(s.out)} for s in r.steps],
    }


def toy_data(lang: str) -> dict:
    """The toy model's rules (for the reader's own sentence) and the tour's sentences."""
    return {
        "lang": lang,
        "features": toy.FEATURES,
        "feature_names": toy.FEATURE_NAMES[lang],
        "lexicon": {word: [toy.FEATURES.index(f) for f in feats] for word, feats in toy.LEXICON[lang].items()},
        "max_tokens": toy.MAX_TOKENS,
        "steps": [{"w_q": _exact(w_q), "w_k": _exact(w_k), "w_v": _exact(w_v)} for w_q, w_k, w_v in toy.STEPS.values()],
        # the tour's examples (same ids in both languages), then the toy's own named sentences
        "sentences": {
            **{key: example_data(key) for key, e in toy.SENTENCES.items() if e.lang == lang and key not in TOUR_SENTENCES},
            **{sid: sentence_data(sid, lang) for sid in TOUR_SENTENCES},
        },
    }


def steps_data(lang: str) -> dict:
    """The four steps for one query word, for every divisor on the slider."""
    examples = []
    for sid in ("cat-ball-fun", "apple-fruit"):
        r, i, step = tour_sentence(sid, lang)
        s = r.steps[step - 1]
        q, k, v = s.q[i], s.k, s.v                               # (d_k,), (n, d_k), (n, d_model)
        d_k = q.shape[-1]
        divisors = np.union1d(DIVISORS, [math.sqrt(d_k)])       # the slider includes sqrt(d_k) exactly
        grid = []
        for tau in divisors:
            out, w = scaled_dot_product_attention(q[None], k, v, scale=1.0 / tau)   # (1, d_model), (1, n)
            grid.append({"divisor": float(tau), "is_sqrt_d_k": bool(tau == math.sqrt(d_k)),
                         "scaled": _list(q @ k.T / tau), "weights": _list(w[0]),
                         "weight_sum": float(w[0].sum()), "out": _list(out[0])})
        examples.append({
            "id": sid, "label": r.tokens[i], "round": step, "tokens": r.tokens, "d_k": d_k,
            "q": _list(q), "k": _list(k), "v": _list(v), "scores": _list(s.scores[i]),
            "feature_names": toy.FEATURE_NAMES[lang], "grid": grid,
            "default": int(np.flatnonzero(divisors == math.sqrt(d_k))[0]),
        })
    return {"examples": examples}


def heads_data(lang: str) -> dict:
    """Four heads on one sentence: each head's weights (n, n), and for each row the word it looks
    at most, or -1 when the row is spread evenly (attnkit.core.spread_evenly): no target to name."""
    r = attend_heads(TOUR_SENTENCES["cat-ball-fun"].text[lang], lang)
    focus = r.tokens.index(TOUR_SENTENCES["cat-ball-fun"].focus[lang])
    top = [[-1 if spread_evenly(row) else int(np.argmax(row)) for row in head] for head in r.weights]
    return {"tokens": r.tokens, "focus": focus, "names": HEAD_NAMES[lang], "ids": list(HEADS),
            "weights": _list(r.weights), "top": top, "concat_shape": list(r.concat.shape),
            "head_shape": list(r.outs.shape[1:])}


def positions_data(lang: str) -> dict:
    """The sinusoidal positional encoding and the dot products between positions."""
    pe = sinusoidal_positional_encoding(PE_POSITIONS, PE_D_MODEL)   # (n, d_model)
    sim = pe @ pe.T                                                 # (n, d_model) @ (d_model, n) -> (n, n)
    dims = [{"fn": "sin" if j % 2 == 0 else "cos", "two_i": j - j % 2} for j in range(PE_D_MODEL)]
    return {"d_model": PE_D_MODEL, "pe": _list(pe), "sim": _list(sim), "dims": dims}


# ---- chapter 8: train the tiny GPT in the browser (overrides/assets/widgets/train-gpt.js) ----
# What the widget runs in the playground's worker (Pyodide + attnkit), through its "run" interface;
# {seed}, {lr}, {example}, {k} are filled in by the widget. playground._emit sends the state back.
GPT_CODE = {
    "reset": "import playground\nfrom attnkit import live_training\n"
             "playground._emit('gpt', live_training.live_reset(seed={seed}, lr={lr}, example={example}))\n",
    "run": "import playground\nfrom attnkit import live_training\n"
           "playground._emit('gpt', live_training.live_run({k}))\n",
}
GPT_LABELS = {
    "zh": {
        "start": "开始训练", "resume": "继续训练", "pause": "暂停", "reset": "重来",
        "seed": "随机种子", "lr": "学习率", "loss": "损失（对数刻度）", "step": "训练步数",
        "reference": "本书构建时（种子 {seed}、学习率 {lr}）的损失", "live": "你这次训练的损失",
        "head": "头 {n}", "query": "查询", "key": "键",
        "idle": "按“开始训练”：浏览器先要装好 Python（第一次要几秒），然后从随机权重练起。",
        "loading": "正在浏览器里准备 Python 和 NumPy……",
        "running": "第 {step} / {steps} 步，损失 {loss}",
        "pausing": "正在暂停：已经交给 Python 的几步算完就停（现在第 {step} 步）……",
        "paused": "已暂停：第 {step} 步，损失 {loss}",
        "again": "再练一遍", "retry": "再试一次",
        "started": "Python 准备好了，开始训练，一共 {steps} 步。",
        "guess": "瞎猜的损失：ln {v} ≈ {loss}（{v} 个字母机会均等）",
        "mapsLegend": "每张图里，一行是一个正在猜下一个字母的位置（查询），一列是它看的位置（键），格子越深，权重越大。"
                      "虚线以下的行猜的是后半句的字母，这些字母前半句里都出现过，只有这几行计分。",
        "done": "练完了：{steps} 步，最后一步的损失 {loss}",
        "matches": "和本书构建时用 CPython 算出的每一步损失一致（差距不超过 {tol}）。",
        "differs": "第 {step} 步的损失和本书构建时不同：{a} 对 {b}。",
        "otherSettings": "换了种子或学习率，所以和本书构建时的曲线不同。",
        "failed": "Python 没能在浏览器里启动：{error}",
        "error": "训练出错：{error}",
        "mapsTitle": "两个头在序列 {example} 上的注意力（第 {step} 步）",
        "changeResets": "改种子或学习率会从头开始。",
    },
    "en": {
        "start": "Start training", "resume": "Resume", "pause": "Pause", "reset": "Reset",
        "seed": "Seed", "lr": "Learning rate", "loss": "loss (log scale)", "step": "training step",
        "reference": "the book's build (seed {seed}, learning rate {lr})", "live": "your run",
        "head": "head {n}", "query": "query", "key": "key",
        "idle": "Press \u201cStart training\u201d: your browser first sets up Python (a few seconds the first time), then trains from random weights.",
        "loading": "Setting up Python and NumPy in your browser\u2026",
        "running": "Step {step} of {steps}, loss {loss}",
        "pausing": "Pausing: finishing the steps Python already has (now at step {step})\u2026",
        "paused": "Paused at step {step}, loss {loss}",
        "again": "Train again", "retry": "Try again",
        "started": "Python is ready: training starts, {steps} steps in all.",
        "guess": "the loss of guessing: ln {v} \u2248 {loss} ({v} letters, all equally likely)",
        "mapsLegend": "In each map a row is a position guessing the next letter (the query) and a column is a position it looks at (the key); the darker the cell, the more weight. "
                      "Rows below the dotted line guess letters of the second half, which all appeared in the first half: only these rows are scored.",
        "done": "Done: {steps} steps, last loss {loss}",
        "matches": "Every step's loss equals the one CPython computed when the book was built (to within {tol}).",
        "differs": "The loss at step {step} differs from the book's build: {a} against {b}.",
        "otherSettings": "Another seed or learning rate, so the curve differs from the book's build.",
        "failed": "Python could not start in your browser: {error}",
        "error": "Training failed: {error}",
        "mapsTitle": "Both heads' attention on the sequence {example} (step {step})",
        "changeResets": "Changing the seed or the learning rate starts over.",
    },
}


LIVE_TOLERANCE = 1e-9     # how far the browser's losses may be from CPython's


def _book_power(x: float) -> str:
    """A power of ten as a book prints it, in either language: 1e-9 -> 10⁻⁹ (never "1e-09")."""
    exponent = round(math.log10(x))
    if not math.isclose(10.0 ** exponent, x, rel_tol=1e-12):
        raise ValueError(f"_book_power expects a power of ten, got {x!r}")
    return power(exponent)


def train_gpt_data(lang: str) -> dict:
    """The live-training widget: the book's configuration, its CPython losses, the example, labels."""
    book = training.BOOK
    _, losses = training.trained(**book)
    tokens, _ = copy_results.held_out(**book)
    example = tokens[0]                                            # (n,) the sequence of 8.3's figure
    fresh = training.untrained(**book)
    before = forward(fresh, example[None])[1]["h0"]["attn"]["weights"][0]   # (H, n, n)
    return {
        "steps": book["steps"], "chunk": live_training.LIVE_CHUNK, "seed": book["seed"], "lr": book["lr"],
        "lrs": list(live_training.LIVE_LRS), "heads": book["n_heads"], "half": book["half"],
        "vocab": book["vocab_size"],
        "example": [int(t) for t in example], "letters": list(spell(example)),
        "reference": [float(x) for x in losses], "guess": math.log(book["vocab_size"]),
        "before": np.round(before, 4).tolist(), "tolerance": LIVE_TOLERANCE,
        # The tolerance is written into the sentence here, in the book's number style: the
        # widget's fill() would print the JavaScript number as "1e-9".
        "code": GPT_CODE, "labels": {**GPT_LABELS[lang],
                                     "matches": GPT_LABELS[lang]["matches"].replace("{tol}", _book_power(LIVE_TOLERANCE))},
    }


# ---- chapter 12: sample from the model of real text (overrides/assets/widgets/sample-text.js) ----
SAMPLE_LABELS = {
    "zh": {
        "prompt": "开头（只能用《论语》里出现过的字）", "temperature": "温度", "topK": "top-k", "topP": "top-p",
        "seed": "随机种子", "sample": "采样",
        "hint": "按“采样”后，浏览器先下载模型的权重（约 {kb} KB，只下载一次），然后一个字一个字地往下写。"
                "温度低于 1 更保守，高于 1 更冒险；top-k 只在最可能的 k 个字里抽；top-p 只在累计概率到 p 的那几个字里抽。",
        "idle": "还没有采样。",
        "loading": "正在下载模型的权重……",
        "writing": "正在一个字一个字地写……",
        "done": "写了 {n} 个字（用时 {ms} 毫秒）。同样的开头、设置和种子，总会写出同样的字。",
        "empty": "请先写一个开头。",
        "unknown": "模型不认识这些字：{chars}。它只认识《论语》里出现过的字，请换一个开头。",
        "badTemperature": "温度要在 {min} 到 {max} 之间。",
        "badTopK": "top-k 要是 1 到 {max} 之间的整数。",
        "badTopP": "top-p 要大于 0、不超过 1。",
        "badSeed": "随机种子要是 0 到 9999 之间的整数。",
        "failed": "模型没能加载：{error}",
    },
    "en": {
        "prompt": "Your opening (characters that occur in Alice)", "temperature": "Temperature", "topK": "top-k",
        "topP": "top-p", "seed": "Seed", "sample": "Sample",
        "hint": "When you press \u201cSample\u201d, your browser first downloads the model\u2019s weights (about {kb} KB, once), "
                "then writes one character at a time. A temperature below 1 plays safe, above 1 takes risks; top-k draws only "
                "among the k likeliest characters; top-p only among the few whose probabilities add up to p.",
        "idle": "Nothing sampled yet.",
        "loading": "Downloading the model\u2019s weights\u2026",
        "writing": "Writing, one character at a time\u2026",
        "done": "Wrote {n} characters (in {ms} ms). The same opening, settings and seed always write the same text.",
        "empty": "Write an opening first.",
        "unknown": "The model does not know these characters: {chars}. It knows only the characters of Alice in Wonderland: try another opening.",
        "badTemperature": "The temperature must be between {min} and {max}.",
        "badTopK": "top-k must be a whole number from 1 to {max}.",
        "badTopP": "top-p must be above 0 and at most 1.",
        "badSeed": "The seed must be a whole number from 0 to 9999.",
        "failed": "The model could not be loaded: {error}",
    },
}
SAMPLE_TEMPERATURES = (0.1, 3.0)


def sample_model(lang: str) -> dict:
    """The model of this edition's book, as chapter 12 trained it (memoized: shared with the pages)."""
    return memo(realtext.train_on, realtext.corpus(lang), **realtext.MODEL)


def sample_weights(lang: str) -> bytes:
    """The model's parameters as float32, little-endian, one after the other in the order of its
    params dict (the JSON's "layout"): what sample-text.js loads."""
    params = sample_model(lang)["params"]
    return b"".join(np.asarray(v, dtype="<f4").tobytes() for v in params.values())


def sample_text_data(lang: str) -> dict:
    """The sampling widget: the vocabulary, the shapes of the weights, defaults and labels."""
    m = sample_model(lang)
    cfg = config_of(m["params"])
    kb = round(len(sample_weights(lang)) / 1024)
    return {
        "lang": lang, "vocab": m["vocab"], "cfg": cfg,
        "layout": [[name, list(v.shape)] for name, v in m["params"].items()],
        "prompt": realtext.SAMPLE_PROMPTS[lang], "max_prompt": 200, "length": realtext.SAMPLE_LENGTH[lang],
        "defaults": {**realtext.WIDGET_DEFAULTS, "top_k": realtext.WIDGET_DEFAULTS["top_k"] or cfg["vocab_size"]},
        "limits": {"temperature": list(SAMPLE_TEMPERATURES)},
        "labels": {**SAMPLE_LABELS[lang], "hint": SAMPLE_LABELS[lang]["hint"].replace("{kb}", str(kb))},
    }


BUILDERS = {"toy": toy_data, "steps": steps_data, "heads": heads_data, "positions": positions_data,
            "train-gpt": train_gpt_data, "sample-text": sample_text_data, "exercises": exercises_data}


def _inputs_beyond_attnkit(name: str, lang: str):
    """What else a widget's data depends on: the exercises' files, their pages' embeds, the
    [zh]/[en] filter (bookbuild/listings.py) and bookbuild/exercise_pages.py (labels)."""
    if name != "exercises":
        return ()
    files = sorted(EXERCISES.glob("ch*/*.py")) + [Path(__file__).with_name("exercise_pages.py"),
                                                  Path(__file__).with_name("listings.py")]
    return (sources(files), sorted(embedded_in(lang).items()))


def widget_data(name: str, lang: str) -> dict:
    return BUILDERS[name](lang)


def on_files(files, config):
    # Cached in .cache/widgets/ (bookbuild/bookcache.py) under this file, attnkit without its
    # figures, the environment, the widget and the language: the tiny GPT is not retrained per build.
    store = Store("widgets", ".json")
    lang = config.theme["language"]
    computed = []
    for name, build in BUILDERS.items():
        k = key("widget", 1, name, lang, sources([Path(__file__)]), attnkit_digest(figures=False), environment(),
                *_inputs_beyond_attnkit(name, lang))
        content = store.get(k)
        if content is None:
            content = json.dumps(build(lang), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            store.put(k, content)
            computed.append(name)
        files.append(File.generated(config, f"data/widgets/{name}.json", content=content))
    k = key("widget-bin", 1, "sample-text", lang, sources([Path(__file__)]), attnkit_digest(figures=False), environment())
    weights = Store("widgets", ".bin").get(k)
    if weights is None:
        weights = sample_weights(lang)
        Store("widgets", ".bin").put(k, weights)
    files.append(File.generated(config, "data/widgets/sample-text.bin", content=weights))
    log.info("widget data (%s): %s computed, %d cached", lang, ", ".join(computed) or "none", len(BUILDERS) - len(computed))
    return files
