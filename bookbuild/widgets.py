"""Write the data of the interactive widgets as JSON, computed by attnkit, for this language.

Served at ``data/widgets/<name>.json`` and read by overrides/assets/widgets/; the widgets compute
nothing themselves, except the reader's own sentence, which runs the toy model's rules (``toy.json``,
tested against attnkit in tests/test_widgets.py).
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

from .bookcache import Store, digest_for, environment, key, load_yaml, memo, memoize, sources  # bookbuild/bookcache.py
from .exercise_pages import exercises_data, inputs as exercise_inputs  # bookbuild/exercise_pages.py

log = logging.getLogger("mkdocs.hooks.widgets")
LABELS_FILE = Path(__file__).resolve().parents[1] / "docs" / "widget-labels.yml"
LABELS = load_yaml(LABELS_FILE)   # each widget's words, per language

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
    """``x`` with DECIMALS decimals, or 9 or 12 where fewer would change how a widget prints it
    (0.12500000060372368 -> 0.125000001, 3.384848994813164e-10 -> 3.38e-10), else all its digits."""
    return next((r for r in (round(x, d) for d in (DECIMALS, 9, 12)) if shown_the_same(x, r)), x)


def _list(a) -> list:
    """An array as JSON lists, each value rounded to what the widgets show (see _rounded)."""
    values = np.asarray(a, dtype=float)
    if values.ndim == 0:
        return _rounded(float(values))
    return [_list(row) for row in values] if values.ndim > 1 else [_rounded(float(x)) for x in values]


def sentence_data(sid: str, lang: str) -> dict:
    """A tour sentence or a toy.SENTENCES one: tokens, each step's weights (n, n) and output (n, d_model)."""
    if sid in TOUR_SENTENCES:
        r, focus, step = tour_sentence(sid, lang)
        text = TOUR_SENTENCES[sid].text[lang]
    else:
        example = toy.SENTENCES[sid]
        r = toy.attend(example.text, example.lang)
        text, focus, step = example.text, r.index(example.focus), example.step
    return {"id": sid, "text": text, "tokens": r.tokens, "known": r.known, "focus": focus, "step": step,
            "steps": [{"weights": _list(s.weights), "out": _list(s.out)} for s in r.steps]}


def toy_data(lang: str) -> dict:
    """The toy model's rules (for the reader's own sentence) and the tour's sentences."""
    return {
        "lang": lang, "features": toy.FEATURES, "feature_names": toy.FEATURE_NAMES[lang],
        "lexicon": {word: [toy.FEATURES.index(f) for f in feats] for word, feats in toy.LEXICON[lang].items()},
        "max_tokens": toy.MAX_TOKENS,
        # every digit: what JavaScript computes from
        "steps": [{name: np.asarray(w, dtype=float).tolist() for name, w in zip(("w_q", "w_k", "w_v"), ws)}
                  for ws in toy.STEPS.values()],
        # the toy's own named sentences, then the tour's (same ids in both languages)
        "sentences": {sid: sentence_data(sid, lang) for sid in
                      [k for k, e in toy.SENTENCES.items() if e.lang == lang and k not in TOUR_SENTENCES]
                      + list(TOUR_SENTENCES)},
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
                         "weight_sum": _list(w[0].sum()), "out": _list(out[0])})
        examples.append({
            "id": sid, "label": r.tokens[i], "round": step, "tokens": r.tokens, "d_k": d_k,
            "q": _list(q), "k": _list(k), "v": _list(v), "scores": _list(s.scores[i]),
            "feature_names": toy.FEATURE_NAMES[lang], "grid": grid,
            "default": int(np.flatnonzero(divisors == math.sqrt(d_k))[0]),
        })
    return {"examples": examples}


def heads_data(lang: str) -> dict:
    """Four heads on one sentence: each head's weights (n, n) and each row's top word (-1: spread evenly)."""
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


def _live_code(module: str, name: str, reset: str) -> dict:
    """What a widget runs in the playground's worker to train live: the widget fills in the
    {braces}, and playground._emit sends each state back."""
    emit = f"import playground\nfrom attnkit import {module}\nplayground._emit('{name}', {module}.live_%s)\n"
    return {"reset": emit % f"reset({reset})", "run": emit % "run({k})"}


def _book_power(x: float) -> str:
    """A power of ten as a book prints it: 1e-9 -> 10⁻⁹ (a widget's fill() would print "1e-9")."""
    exponent = round(math.log10(x))
    if not math.isclose(10.0 ** exponent, x, rel_tol=1e-12):
        raise ValueError(f"_book_power expects a power of ten, got {x!r}")
    return power(exponent)


# ---- chapter 8: train the tiny GPT in the browser (overrides/assets/widgets/train-gpt.js) ----
GPT_CODE = _live_code("live_training", "gpt", "seed={seed}, lr={lr}, example={example}")
LIVE_TOLERANCE = 1e-9     # how far the browser's losses may be from CPython's


def train_gpt_data(lang: str) -> dict:
    """The live-training widget: the book's configuration, its CPython losses, the example, labels."""
    book = training.BOOK
    _, losses = training.trained(**book)
    tokens, _ = copy_results.held_out(**book)
    example = tokens[0]                                            # (n,) the sequence of 8.3's figure
    before = forward(training.untrained(**book), example[None])[1]["h0"]["attn"]["weights"][0]   # (H, n, n)
    labels = LABELS["train-gpt"][lang]
    return {
        "steps": book["steps"], "chunk": live_training.LIVE_CHUNK, "seed": book["seed"], "lr": book["lr"],
        "lrs": list(live_training.LIVE_LRS), "heads": book["n_heads"], "half": book["half"],
        "vocab": book["vocab_size"],
        "example": [int(t) for t in example], "letters": list(spell(example)),
        "reference": [float(x) for x in losses], "guess": math.log(book["vocab_size"]),
        "before": np.round(before, 4).tolist(), "tolerance": LIVE_TOLERANCE,
        "code": GPT_CODE,
        "labels": {**labels, "matches": labels["matches"].replace("{tol}", _book_power(LIVE_TOLERANCE))},
    }


# ---- chapter 10.3: rotate the pairs (overrides/assets/widgets/rope.js) ----
ROPE_N = 32                 # positions 0..31 on the sliders
ROPE_SHOWN = (0, 1)         # the pairs drawn as arrows (the fastest two)


def rope_data(lang: str) -> dict:
    """Chapter 10.3's query and key at every position: the shown pairs turned, their share of each score, the scores."""
    from attnkit.rope import EXAMPLE_K, EXAMPLE_Q, pair_scores, rope_frequencies, rope_pairs, rope_score_table

    q, k = np.array(EXAMPLE_Q), np.array(EXAMPLE_K)              # (d,) each
    w = rope_frequencies(q.shape[0])                             # (d/2,)
    shown = list(ROPE_SHOWN)
    parts = np.array([[pair_scores(q, k, i, j) for j in range(ROPE_N)] for i in range(ROPE_N)])   # (N, N, d/2)
    rest = np.delete(parts, shown, axis=-1).sum(axis=-1)         # (N, N) the pairs not drawn
    return {
        "n": ROPE_N, "d": int(q.shape[0]), "pairs": shown, "omega": _list(w[shown]),
        "q": _list([rope_pairs(q, p)[shown] for p in range(ROPE_N)]),       # (N, 2, 2)
        "k": _list([rope_pairs(k, p)[shown] for p in range(ROPE_N)]),       # (N, 2, 2)
        "turn": _list(np.arange(ROPE_N)[:, None] * w[shown]),              # (N, 2) radians
        "gap": _list(np.arange(-(ROPE_N - 1), ROPE_N)[:, None] * w[shown]),   # (2N-1, 2): offset -(N-1)..N-1
        "parts": _list(parts[:, :, shown]),                                 # (N, N, 2)
        "rest": _list(rest), "scores": _list(rope_score_table(q, k, ROPE_N)),  # (N, N) each
        "labels": LABELS["rope"][lang],
    }


# ---- chapter 10.1: the KV-cache calculator (overrides/assets/widgets/kv-calculator.js) ----
# The widget only multiplies: numbers per token per layer (attnkit) x bytes per number x tokens kept per
# layer (full layers keep the context, sliding ones at most their window); tests/test_kv_widget.py checks it.
KV_CONTEXTS = [2 ** p for p in range(10, 21)]      # the context slider: 1K ... 1M tokens
KV_DEFAULT = {"model": "llama-3-8b", "context": 131072, "dtype": "bf16"}


def _kv_what(m, labels) -> str:
    """What a model's own cache holds, in words (numbers from its configuration)."""
    if m.attention == "mla":
        what = labels["mlaWhat"].format(c=m.kv_lora_rank, r=m.qk_rope_head_dim)
    elif m.n_kv_heads == m.n_heads:
        what = labels["mhaWhat"].format(h=m.n_heads)
    else:
        what = labels["gqaWhat"].format(kv=m.n_kv_heads, h=m.n_heads)
    if m.n_sliding_layers:
        what += labels["windowWhat"].format(s=m.n_sliding_layers, l=m.n_layers, w=m.sliding_window)
    return what


def kv_calculator_data(lang: str) -> dict:
    """Each model's numbers per token per layer for each variant, from attnkit.kv_bytes."""
    from attnkit.kv_bytes import DTYPE_BYTES, MODELS, kv_cache_bytes_if, kv_numbers_per_token_per_layer
    from attnkit.serving import DISPLAY_NAMES

    labels = LABELS["kv-calculator"][lang]
    models = []
    for name, m in MODELS.items():
        # One token, one byte a number, no window: the numbers a token adds to all layers.
        as_if = {v: kv_cache_bytes_if(name, v, 1, "fp8") // m.n_layers
                 for v in (("mha",) if m.attention == "mla" else ("mha", "mqa"))}
        variants = [{"id": "own", "label": labels["own"].format(what=_kv_what(m, labels)),
                     "perLayer": kv_numbers_per_token_per_layer(name), "windowed": True}]
        variants += [{"id": v, "label": labels[v] + (labels["noWindow"] if m.n_sliding_layers else ""),
                      "perLayer": n, "windowed": False} for v, n in as_if.items()]
        models.append({"id": name, "name": DISPLAY_NAMES[name], "layers": m.n_layers,
                       "slidingLayers": m.n_sliding_layers, "window": m.sliding_window or 0,
                       "context": m.context, "source": m.source, "variants": variants})
    return {"models": models, "contexts": KV_CONTEXTS, "default": KV_DEFAULT,
            "dtypes": [{"id": k, "bytes": v} for k, v in DTYPE_BYTES.items()], "labels": labels}


# ---- chapter 11: replay the build's run, or train it live (overrides/assets/widgets/induction-replay.js) ----
INDUCTION_CODE = _live_code("induction", "induction", "seed={seed}")
REPLAY_TOLERANCE = 1e-9     # a live loss this close to the build's counts as the same number


def induction_replay_data(lang: str) -> dict:
    """Chapter 11's widget: per saved step of the build's run, the held-out loss, every head's scores and
    attention on one new sequence (attnkit.induction.checkpoint); the code that trains live; labels."""
    from attnkit import induction

    memoize(("attnkit.induction.train_induction", "attnkit.induction.report"))   # shared with the figures
    c = induction.INDUCTION
    run = induction.trained_run()
    e = induction.example()
    marks = [induction.checkpoint(p, induction.held_out(), e["tokens"]) for p in run["params"]]
    heads = c["n_heads"]
    names = [(f"第 {l + 1} 层 · 头 {h + 1}" if lang == "zh" else f"layer {l + 1} · head {h + 1}")
             for l in range(c["n_layers"]) for h in range(heads)]
    labels = dict(LABELS["induction-replay"][lang])
    labels["intro"] = labels["intro"].replace("{seed}", str(c["seed"])).replace("{every}", str(c["every"]))
    labels["same"] = labels["same"].replace("{tol}", _book_power(REPLAY_TOLERANCE))
    return {
        "steps": run["steps"], "seed": c["seed"], "every": c["every"], "guess": math.log(c["vocab_size"]),
        "vocab": c["vocab_size"], "tolerance": REPLAY_TOLERANCE,
        **{key: [m[key] for m in marks] for key in ("loss", "lossText", "previous", "prefix", "maps")},
        "letters": list(spell(e["tokens"][0])), "first": list(e["first"]), "second": list(e["second"]),
        "heads": names, "show": len(names) - heads,        # the first layer-2 head is shown first
        "code": INDUCTION_CODE, "labels": labels,
    }


# ---- chapter 12: sample from the model of real text (overrides/assets/widgets/sample-text.js) ----
SAMPLE_TEMPERATURES = (0.1, 3.0)


def sample_model(lang: str) -> dict:
    """The model of this edition's book, as chapter 12 trained it (memoized: shared with the pages)."""
    return memo(realtext.train_on, realtext.corpus(lang), **realtext.MODEL)


def sample_weights(lang: str) -> bytes:
    """The model's parameters as little-endian float32, in the order of its params dict (the JSON's "layout")."""
    return b"".join(np.asarray(v, dtype="<f4").tobytes() for v in sample_model(lang)["params"].values())


def sample_text_data(lang: str) -> dict:
    """The sampling widget: the vocabulary, the shapes of the weights, defaults and labels."""
    m = sample_model(lang)
    cfg = config_of(m["params"])
    labels = LABELS["sample-text"][lang]
    return {
        "lang": lang, "vocab": m["vocab"], "cfg": cfg,
        "layout": [[name, list(v.shape)] for name, v in m["params"].items()],
        "prompt": realtext.SAMPLE_PROMPTS[lang], "max_prompt": 200, "length": realtext.SAMPLE_LENGTH[lang],
        "defaults": {**realtext.WIDGET_DEFAULTS, "top_k": realtext.WIDGET_DEFAULTS["top_k"] or cfg["vocab_size"]},
        "limits": {"temperature": list(SAMPLE_TEMPERATURES)},
        "labels": {**labels, "hint": labels["hint"].replace("{kb}", str(round(len(sample_weights(lang)) / 1024)))},
    }


BUILDERS = {"toy": toy_data, "steps": steps_data, "heads": heads_data, "positions": positions_data,
            "train-gpt": train_gpt_data, "exercises": exercises_data,
            "rope": rope_data, "kv-calculator": kv_calculator_data, "induction-replay": induction_replay_data,
            "sample-text": sample_text_data}
BINARY = "sample-text.bin"     # the model of 12.5 as float32 weights, beside the JSON files
# The widgets whose data trains a model (chapters 12, 8 and 11): the data step starts them first.
TRAINED = ("sample-text.json", "train-gpt.json", "induction-replay.json")


def cache_paths(lang: str) -> dict[str, Path]:
    """{file name under data/widgets/: where the data step caches it in ``lang``}, keyed by the widget, the
    language, this file, the words and the part of attnkit it can run (for the exercises, also theirs)."""
    from .exercise_pages import EXERCISES

    here = sources([Path(__file__), LABELS_FILE])
    runs = digest_for([Path(__file__)])
    paths = {}
    for name in BUILDERS:
        run = digest_for([Path(__file__), *sorted(EXERCISES.glob("ch*/*.py"))]) if name == "exercises" else runs
        k = key("widget", 2, name, lang, here, run, environment(),
                *(exercise_inputs(lang) if name == "exercises" else ()))
        paths[f"{name}.json"] = Store("widgets", ".json").path(k)
    paths[BINARY] = Store("widgets", ".bin").path(key("widget-bin", 2, "sample-text", lang, here, runs, environment()))
    return paths


def compute(name: str, lang: str) -> bytes:
    """The bytes of data/widgets/``name`` in ``lang`` (a JSON file, or the sampling model's weights)."""
    if name == BINARY:
        return sample_weights(lang)
    return _json(BUILDERS[name.removesuffix(".json")](lang))


def _to_shown(values, decimals: int = 4):
    """Nested lists of numbers, each rounded to ``decimals`` where positions.js prints it the same
    (with ``decimals`` and with 0), else kept whole."""
    if isinstance(values, list):
        return [_to_shown(v, decimals) for v in values]
    r = round(values, decimals)
    return r if all(f"{r:.{d}f}" == f"{values:.{d}f}" for d in (0, decimals)) else values


PARTS = ("positions", "toy", "steps", "exercises")   # served otherwise than the data step wrote them


def parts(name: str, data: dict) -> tuple[dict, dict[str, dict]]:
    """The file ``name`` as the site serves it, and its items' files {id: JSON} (data/widgets/<name>/<id>.json)
    that a widget showing one item fetches alone; positions.json's symmetric dot products are served as the
    upper triangle with the 4 decimals the widget prints.

    >>> parts("steps", {"examples": [{"id": "a", "label": "it", "q": [1], "grid": [{"divisor": 1.0}]}]})[1]
    {'a': {'item': {'id': 'a', 'label': 'it', 'q': [1], 'grid_size': 1}}, 'a.grid': {'grid': [{'divisor': 1.0}]}}
    >>> parts("positions", {"sim": [[1.0, 2.123456], [2.123456, 3.0]], "pe": [[7.49996, 0.841471]]})[0]
    {'sim': [[1.0, 2.1235], [3.0]], 'pe': [[7.49996, 0.8415]]}
    """
    if name == "positions":
        return {**data, "sim": _to_shown([row[i:] for i, row in enumerate(data["sim"])]), "pe": _to_shown(data["pe"])}, {}
    if name == "toy":
        return ({k: v for k, v in data.items() if k != "sentences"},
                {k: {"item": item} for k, item in data["sentences"].items()})
    if name == "steps":
        examples = data["examples"]
        files = {e["id"]: {"item": {**{f: v for f, v in e.items() if f != "grid"}, "grid_size": len(e["grid"])}}
                 for e in examples}
        files.update({f"{e['id']}.grid": {"grid": e["grid"]} for e in examples})
        return {"examples": [{"id": e["id"], "label": e["label"]} for e in examples]}, files
    files = {k: {"item": item} for k, item in data["exercises"].items()}
    files["shared"] = {s: data[s] for s in ("labels", "timeout", "graded") if s in data}
    files.update({f"question-{k}": {"item": q} for k, q in data.get("questions", {}).items()})
    return data, files


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def on_files(files, config):
    from . import data

    lang = config.theme["language"]
    paths = cache_paths(lang)
    computed = [name for name, path in paths.items() if not path.is_file()]
    if computed:
        data.ensure(lang, log.info)
    for name, path in paths.items():
        content = path.read_bytes()
        stem = name.removesuffix(".json")
        if stem in PARTS:
            whole, items = parts(stem, json.loads(content))
            content = _json(whole)
            for item_id, item in items.items():
                files.append(File.generated(config, f"data/widgets/{stem}/{item_id}.json", content=_json(item)))
        files.append(File.generated(config, f"data/widgets/{name}", content=content))
    log.info("widget data (%s): %s computed, %d cached", lang, ", ".join(computed) or "none", len(paths) - len(computed))
    return files
