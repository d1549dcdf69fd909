"""attnkit.induction: the repeat task, the two head scores, the rules, the composition test, the
training run (gradients against finite differences), the measurements chapter 11 quotes."""

import math

import numpy as np
import pytest

from attnkit import ablation, induction, tinygpt
from attnkit.induction import (RepeatTask, band_rule, band_share, composition, formed_at, induction_pattern,
                               induction_rule, prefix_matching_score, previous_token_pattern,
                               previous_token_score, repeat_batch, steepest_drop, train_induction,
                               without_first_copy)

SMALL = dict(vocab_size=6, n_ctx=12, min_len=2, max_len=4, min_dist=4, max_dist=8)


def _perturbed(seed=3, ffn=False):
    """A random 2-layer model with weights large enough that every head matters."""
    params = tinygpt.init(vocab_size=6, d_model=8, n_heads=2, n_layers=2, n_ctx=12, seed=seed, ffn=ffn)
    rng = np.random.default_rng(seed)
    for key in params:
        params[key] = params[key] + rng.normal(0, 0.3, params[key].shape)
    return params


def _places(tokens, targets, repeated):
    """(p, L, D) of each sequence, found from the sequence itself (brute force, for the tests)."""
    out = []
    for t, tg, rows in zip(tokens, targets, repeated):
        seq = np.append(t, tg[-1])
        i = np.flatnonzero(rows)
        c0, c1 = i[0], i[-1] + 1                        # the second copy: c0 .. c1
        L = c1 - c0 + 1
        dists = [D for D in range(L, c0 + 1) if np.array_equal(seq[c0 - D:c1 + 1 - D], seq[c0:c1 + 1])]
        out.append((c0 - dists[0], L, dists))
    return out


def test_repeat_batch_writes_the_segment_again_at_a_distance_of_its_range():
    task = RepeatTask(vocab_size=7, n_ctx=24, min_len=3, max_len=6, min_dist=6, max_dist=14)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(0), 400, task)
    assert tokens.shape == targets.shape == repeated.shape == (400, 24)
    np.testing.assert_array_equal(targets[:, :-1], tokens[:, 1:])
    lengths = repeated.sum(axis=1) + 1                  # the repeated rows are L - 1 per sequence
    assert set(lengths) == set(range(3, 7))             # every length in [min_len, max_len] occurs
    dists, starts = set(), set()
    for (p, L, candidates), t, tg, rows in zip(_places(tokens, targets, repeated), tokens, targets, repeated):
        assert any(6 <= D <= 14 and D >= L for D in candidates)
        D = max(D for D in candidates if 6 <= D <= 14)
        dists.add(D)
        starts.add(p)
        i = np.flatnonzero(rows)
        seq = np.append(t, tg[-1])
        np.testing.assert_array_equal(tg[i], seq[i + 1 - D])   # the answer is the token D places back
    assert dists >= set(range(6, 15)) - {6}             # the distances spread over the range
    assert min(starts) == 0 and max(starts) > 10        # the segment sits anywhere


def test_example_places_agree_with_the_held_out_sequence():
    e = induction.example(**SMALL, held_out=20)
    tokens, targets, repeated = induction.held_out(**SMALL, held_out=20)
    seq = np.append(e["tokens"][0], targets[[np.array_equal(t, e["tokens"][0]) for t in tokens].index(True), -1])
    (f0, f1), (s0, s1) = e["first"], e["second"]
    assert s0 - f0 == e["dist"] and f1 - f0 == s1 - s0
    np.testing.assert_array_equal(seq[f0:f1 + 1], seq[s0:s1 + 1])


def test_a_pure_previous_token_head_scores_one_and_others_less():
    n = 6
    heads = np.stack([previous_token_pattern(n), np.eye(n), np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]])
    score = previous_token_score(heads)
    assert score[0] == 1.0 and score[1] == 0.0
    want_uniform = np.mean([1 / (i + 1) for i in range(1, n)])   # row i spreads over i + 1 keys
    assert score[2] == pytest.approx(want_uniform)


def test_a_pure_induction_head_scores_one_on_the_repeated_part():
    task = RepeatTask(vocab_size=50, n_ctx=20, min_len=4, max_len=8, min_dist=8, max_dist=12)
    tokens, _, repeated = repeat_batch(np.random.default_rng(1), 20, task)
    ind = np.stack([induction_pattern(t) for t in tokens])          # (batch, n, n)
    prev = np.broadcast_to(previous_token_pattern(20), ind.shape)
    w = np.stack([ind, prev], axis=1)                               # (batch, 2, n, n)
    score = prefix_matching_score(w, tokens, repeated)
    assert score[0] == 1.0
    assert score[1] < 0.2                                           # looks one back: a match only by chance
    with pytest.raises(ValueError, match="at least one query row"):
        prefix_matching_score(w, tokens, np.zeros_like(repeated))


def test_the_induction_rule_predicts_the_repeated_part():
    task = RepeatTask(vocab_size=50, n_ctx=20, min_len=4, max_len=8, min_dist=8, max_dist=12)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(2), 30, task)
    clean = 0
    for (p, L, dists), t, tg, rows in zip(_places(tokens, targets, repeated), tokens, targets, repeated):
        D = max(d for d in dists if 8 <= d <= 12)
        guess = induction_rule(t)
        for i in np.flatnonzero(rows):
            if t[i] not in t[i - D + 1:i]:                          # no later occurrence to mislead it
                assert guess[i] == tg[i]
                clean += 1
    assert clean > 0.6 * repeated.sum()
    assert induction_rule([2, 3, 2, 4, 2]).tolist() == [-1, -1, 3, -1, 4]   # the latest occurrence wins


def test_the_band_rule_by_hand_and_its_share_of_attention():
    # D in {2, 3}: row 2 guesses position 3; the places D back are positions 1 and 0 (tokens 0 and 4); the target is 0
    r = band_rule([[4, 0, 1, 0]], [[0, 1, 0, 9]], [[0, 0, 1, 0]], 2, 3)
    assert r == {"loss": pytest.approx(math.log(2)), "accuracy": 0.5}
    assert band_rule([[0, 1, 2]], [[1, 2, 3]], [[0, 0, 1]], 1, 1)["loss"] == math.inf   # never right
    n = 8
    w = np.broadcast_to(previous_token_pattern(n), (1, 1, n, n))    # looks one back: i - j + 1 = 2
    rows = np.ones((1, n), dtype=bool)
    rows[0, 0] = False
    assert band_share(w, rows, 2, 2).tolist() == [1.0] and band_share(w, rows, 3, 5).tolist() == [0.0]


def test_without_first_copy_keeps_the_second_copy_and_removes_the_first():
    task = RepeatTask(**SMALL)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(4), 50, task)
    blind = without_first_copy(tokens, repeated, seed=1, vocab_size=6)
    for t, b, rows in zip(tokens, blind, repeated):
        c0 = np.flatnonzero(rows)[0]
        np.testing.assert_array_equal(b[c0:], t[c0:])               # the second copy and after: unchanged
    assert (blind != tokens).any()
    assert (blind[:, :-1] != tokens[:, :-1]).mean() > 0.5           # most earlier tokens replaced


def test_formed_at_and_steepest_drop():
    prev = np.array([[[0.1, 0.1]], [[0.35, 0.1]], [[0.4, 0.1]]]).repeat(2, axis=1)   # (C, layers, H)
    pre = np.array([[[0.1, 0.1]], [[0.4, 0.1]], [[0.6, 0.2]]]).repeat(2, axis=1)
    assert formed_at([0, 50, 100], prev, pre) == 100
    assert formed_at([0, 50, 100], prev * 0, pre) is None
    assert steepest_drop([0, 50, 100, 150], [3.0, 2.9, 1.0, 0.9], span=50) == (50, 100, 2.9, 1.0)
    with pytest.raises(ValueError, match="span"):
        steepest_drop([0, 50], [3.0, 2.0], span=200)


def test_composition_with_nothing_removed_is_the_model_and_both_is_the_ablation():
    for ffn in (False, True):
        params = _perturbed(ffn=ffn)
        tokens, _, repeated = repeat_batch(np.random.default_rng(0), 16, RepeatTask(**SMALL))
        c = composition(params, tokens, repeated)
        _, cache = tinygpt.forward(params, tokens)
        own = prefix_matching_score(cache["h1"]["attn"]["weights"], tokens, repeated)
        np.testing.assert_allclose(c["none"], own, rtol=0, atol=1e-12)
        for h in range(2):
            zeroed = {k: v.copy() for k, v in params.items()}
            zeroed["h0.attn.w_o"][h] = 0.0                # removing head h everywhere = zeroing its w_o slice
            _, cache = tinygpt.forward(zeroed, tokens)
            want = prefix_matching_score(cache["h1"]["attn"]["weights"], tokens, repeated)
            np.testing.assert_allclose(c["both"][h], want, rtol=0, atol=1e-12)
            assert not np.allclose(c["k"][h], c["none"])  # taking a head out of the keys changes the pattern


def test_training_step_gradient_matches_finite_differences_on_the_task():
    """The loss training minimises (the repeated part only, an attention-only model) has the
    gradient tinygpt computes, for every parameter of the model."""
    params = _perturbed(seed=5)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(3), 4, RepeatTask(**SMALL))
    scored = np.where(repeated, targets, -1)
    _, grads = tinygpt.loss_and_grad(params, tokens, scored)
    assert sorted(grads) == sorted(params) and not any(".mlp." in k for k in params)
    rng = np.random.default_rng(0)
    for key in params:
        for _ in range(3):
            idx = tuple(rng.integers(0, s) for s in params[key].shape)
            eps = 1e-6
            up = {k: v.copy() for k, v in params.items()}
            down = {k: v.copy() for k, v in params.items()}
            up[key][idx] += eps
            down[key][idx] -= eps
            numeric = (tinygpt.loss_and_grad(up, tokens, scored)[0] - tinygpt.loss_and_grad(down, tokens, scored)[0]) / (2 * eps)
            assert grads[key][idx] == pytest.approx(numeric, rel=1e-5, abs=1e-9), key


def test_training_is_deterministic_warms_up_and_keeps_checkpoints():
    a = train_induction(steps=6, every=3, d_model=8, batch=8, **SMALL)
    b = train_induction(steps=6, every=3, d_model=8, batch=8, **SMALL)
    assert a["steps"] == [0, 3, 6] and len(a["params"]) == 3
    assert a["losses"] == b["losses"]
    for pa, pb in zip(a["params"], b["params"]):
        for k in pa:
            np.testing.assert_array_equal(pa[k], pb[k])
    assert not np.array_equal(a["params"][0]["wte"], a["params"][-1]["wte"])
    assert not any(".mlp." in k for k in a["params"][0])            # attention only
    c = train_induction(steps=6, every=3, d_model=8, batch=8, seed=1, **SMALL)
    assert c["losses"] != a["losses"]
    # warm-up: the first Adam step moves each weight by about lr / warmup, not lr
    one = train_induction(steps=1, every=1, d_model=8, batch=8, warmup=100, **SMALL)["params"]
    moved = np.abs(one[1]["h0.attn.w_q"] - one[0]["h0.attn.w_q"]).max()
    assert moved == pytest.approx(induction.INDUCTION["lr"] / 100, rel=1e-3)


def test_live_training_is_the_builds_training():
    """The widget's live run (live_reset / live_run) is train_induction, step for step."""
    cfg = dict(steps=4, every=2, d_model=8, batch=4)
    original = dict(induction.INDUCTION)
    try:
        induction.INDUCTION.update(cfg, held_out=8, **SMALL)
        run = train_induction()
        induction.live_reset(seed=0)
        first = induction.live_run(2)
        second = induction.live_run(100)                            # never past the book's steps
        assert (first["step"], second["step"]) == (2, 4)
        held = induction.held_out()
        want = induction.evaluate(run["params"][-1], *held)
        assert second["loss"] == pytest.approx(want["loss"], abs=1e-6)
        assert second["prefix"] == [f"{x:.2f}" for x in want["prefix"].ravel()]
    finally:
        induction.INDUCTION.clear()
        induction.INDUCTION.update(original)
        induction._live.clear()


@pytest.mark.parametrize("call, message", [
    (lambda: RepeatTask(16, 19, 6, 11, 12, 15), "leaves no room"),
    (lambda: RepeatTask(16, 19, 1, 5, 6, 8), "min_len must be at least 2"),
    (lambda: RepeatTask(16, 19, 6, 5, 6, 8), "max_len must be >= min_len"),
    (lambda: RepeatTask(16, 19, 6, 8, 5, 8), "min_dist must be >= min_len"),
    (lambda: RepeatTask(16, 19, 3, 8, 9, 8), "max_dist must be >= min_dist"),
    (lambda: RepeatTask(1, 19, 6, 8, 6, 8), "vocab_size must be at least 2"),
    (lambda: repeat_batch(0, 2, RepeatTask(**SMALL)), "numpy.random.Generator"),
    (lambda: train_induction(stpes=3), "unknown settings"),
    (lambda: train_induction(lr=-1), "must be a positive finite number"),
    (lambda: train_induction(warmup=-1), "warmup must be a whole number"),
    (lambda: previous_token_score(np.ones((2, 3, 4))), "square"),
    (lambda: prefix_matching_score(np.ones((1, 1, 3, 3)), [[0, 1]], [[1, 1]]), "tokens must have shape"),
    (lambda: composition(tinygpt.init(4, 4, 2, 1, 5), [[0, 1]], [[1, 1]]), "2 layers"),
    (lambda: band_rule([[0, 1]], [[1, 0]], [[0, 0]], 1, 2), "at least one row"),
    (lambda: band_rule([[0, 1]], [[1, 0]], [[0, 1]], 3, 2), "max_dist must be >= min_dist"),
    (lambda: induction.accuracy_by(tinygpt.init(26, 16, 2, 2, 32), "width", [4]), "'dist'"),
    (lambda: induction.live_run(1) if not induction._live.clear() else None, "live_reset"),
])
def test_bad_input_says_what_it_got_and_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ablation_table_zeroes_each_head_of_each_layer():
    params = _perturbed()
    tokens, targets, repeated = repeat_batch(np.random.default_rng(0), 16, RepeatTask(**SMALL))
    rows = induction.ablation_table(params, tokens, targets, repeated)
    assert [(r["layer"], r["head"]) for r in rows] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    scored = np.where(repeated, targets, -1)
    for r in rows:
        want = ablation.ablate(params, tokens, scored, [r["head"]], layer=r["layer"])
        assert r["loss"] == want["loss"] and r["accuracy"] == want["accuracy"]


def test_accuracy_by_distance_uses_exactly_that_distance():
    params = _perturbed()
    cfg = dict(SMALL, held_out=8)
    out = induction.accuracy_by(params, "dist", [4, 6, 20], count=16, **cfg)
    assert out["values"] == [4, 6]                                  # 20 does not fit in n_ctx + 1 = 13
    assert all(0 <= x <= 1 for x in out["model"] + out["rule"])
    split = induction.inside_outside({"values": [3, 4, 5], "model": [0.1, 0.5, 0.7], "rule": [1, 1, 0]}, 4, 5)
    assert split["inside"] == (0.6, 0.5) and split["outside"] == (0.1, 1.0) and split["values"] == [3]


@pytest.mark.slow
def test_the_books_runs_build_induction_heads_and_the_narrowest_range_does_not():
    """What chapter 11 says, as the build computes it (memoized on disk in a build)."""
    r = induction.report()
    assert r["formed"] is not None
    assert r["prefix"][-1][-1].max() > induction.FORMED["prefix"] > r["prefix"][0][-1].max()
    a = r["ablations"][r["prev_head"]]
    assert a["loss"] > r["full"]["loss"] + 1 and max(a["prefix_after"]) < 0.6
    k = r["composition"]
    assert k["k"][r["prev_head"]].max() < k["none"].min() - 0.3 < k["q"][r["prev_head"]].min()
    assert r["blind"]["accuracy"] < 2 / induction.INDUCTION["vocab_size"] < r["full"]["accuracy"]
    d = induction.diversity()
    assert d[0]["formed"] is None and d[-1]["formed"] is not None
    assert d[0]["split"]["outside"][0] < 2 / induction.INDUCTION["vocab_size"]
