"""attnkit.induction: the repeat task, the two head scores, the composition test, the training run."""

import numpy as np
import pytest

from attnkit import ablation, induction, tinygpt
from attnkit.induction import (RepeatTask, composition, induction_pattern, induction_rule, loss_by_position,
                               prefix_matching_score, previous_token_pattern, previous_token_score,
                               repeat_batch, train_induction)


def _perturbed(seed=3):
    """A random 2-layer model with weights large enough that every head matters."""
    params = tinygpt.init(vocab_size=6, d_model=8, n_heads=2, n_layers=2, n_ctx=9, seed=seed)
    rng = np.random.default_rng(seed)
    for key in params:
        params[key] = params[key] + rng.normal(0, 0.3, params[key].shape)
    return params


def test_repeat_batch_repeats_a_segment_that_ends_the_sequence():
    task = RepeatTask(vocab_size=5, n_ctx=13, min_len=3, max_len=7)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(0), 200, task)
    assert tokens.shape == targets.shape == repeated.shape == (200, 13)
    np.testing.assert_array_equal(targets[:, :-1], tokens[:, 1:])
    lengths = repeated.sum(axis=1) + 1                  # the repeated rows are L - 1 per sequence
    assert set(lengths) == set(range(3, 8))             # every length in [min_len, max_len] occurs
    for t, tg, rows, L in zip(tokens, targets, repeated, lengths):
        seq = np.append(t, tg[-1])                       # the n_ctx + 1 tokens
        np.testing.assert_array_equal(seq[-L:], seq[-2 * L:-L])
        i = np.flatnonzero(rows)
        np.testing.assert_array_equal(i, np.arange(len(seq) - L, len(seq) - 1))
        np.testing.assert_array_equal(tg[i], seq[i + 1 - L])   # the answer is the token after the earlier copy


def test_a_pure_previous_token_head_scores_one_and_others_less():
    n = 6
    heads = np.stack([previous_token_pattern(n), np.eye(n), np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]])
    score = previous_token_score(heads)
    assert score[0] == 1.0 and score[1] == 0.0
    want_uniform = np.mean([1 / (i + 1) for i in range(1, n)])   # row i spreads over i + 1 keys
    assert score[2] == pytest.approx(want_uniform)


def test_a_pure_induction_head_scores_one_on_the_repeated_part():
    task = RepeatTask(vocab_size=50, n_ctx=15, min_len=4, max_len=8)
    tokens, _, repeated = repeat_batch(np.random.default_rng(1), 20, task)
    rows = np.zeros_like(repeated)
    ind = np.stack([induction_pattern(t) for t in tokens])          # (batch, n, n)
    prev = np.broadcast_to(previous_token_pattern(15), ind.shape)
    w = np.stack([ind, prev], axis=1)                               # (batch, 2, n, n)
    score = prefix_matching_score(w, tokens, repeated)
    assert score[0] == 1.0
    assert score[1] < 0.2                                           # looks one back: a match only by chance
    with pytest.raises(ValueError, match="at least one query row"):
        prefix_matching_score(w, tokens, rows)


def test_the_induction_rule_predicts_the_repeated_part():
    task = RepeatTask(vocab_size=50, n_ctx=15, min_len=4, max_len=8)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(2), 30, task)
    hits = [(induction_rule(t)[r] == tg[r]).mean() for t, tg, r in zip(tokens, targets, repeated)]
    assert np.mean(hits) > 0.9                                      # wrong only where a token repeats by chance
    assert induction_rule([2, 3, 2, 4, 2]).tolist() == [-1, -1, 3, -1, 4]   # the latest occurrence wins


def test_loss_by_position_averages_the_batch_at_each_position():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(4, 3, 5))
    targets = rng.integers(0, 5, size=(4, 3))
    got = loss_by_position(logits, targets)
    for i in range(3):
        want, _ = tinygpt.cross_entropy(logits[:, i:i + 1], targets[:, i:i + 1])
        assert got[i] == pytest.approx(want)


def test_composition_with_nothing_removed_is_the_model_and_both_is_the_ablation():
    params = _perturbed()
    task = RepeatTask(vocab_size=6, n_ctx=9, min_len=2, max_len=5)
    tokens, _, repeated = repeat_batch(np.random.default_rng(0), 16, task)
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
    """The loss training minimises (the repeated part only) has the gradient tinygpt computes."""
    params = _perturbed(seed=5)
    task = RepeatTask(vocab_size=6, n_ctx=9, min_len=2, max_len=5)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(3), 4, task)
    scored = np.where(repeated, targets, -1)
    _, grads = tinygpt.loss_and_grad(params, tokens, scored)
    rng = np.random.default_rng(0)
    for key in ("h0.attn.w_k", "h1.attn.w_q", "h0.attn.w_o", "wpe"):
        idx = tuple(rng.integers(0, s) for s in params[key].shape)
        eps = 1e-6
        up = {k: v.copy() for k, v in params.items()}
        down = {k: v.copy() for k, v in params.items()}
        up[key][idx] += eps
        down[key][idx] -= eps
        numeric = (tinygpt.loss_and_grad(up, tokens, scored)[0] - tinygpt.loss_and_grad(down, tokens, scored)[0]) / (2 * eps)
        assert grads[key][idx] == pytest.approx(numeric, rel=1e-5, abs=1e-9)


def test_training_is_deterministic_and_keeps_checkpoints():
    a = train_induction(steps=6, every=3, d_model=8, batch=8)
    b = train_induction(steps=6, every=3, d_model=8, batch=8)
    assert a["steps"] == [0, 3, 6] and len(a["params"]) == 3
    assert a["losses"] == b["losses"]
    for pa, pb in zip(a["params"], b["params"]):
        for k in pa:
            np.testing.assert_array_equal(pa[k], pb[k])
    assert not np.array_equal(a["params"][0]["wte"], a["params"][-1]["wte"])
    c = train_induction(steps=6, every=3, d_model=8, batch=8, seed=1)
    assert c["losses"] != a["losses"]


@pytest.mark.parametrize("call, message", [
    (lambda: RepeatTask(16, 19, 6, 11), "must fit twice"),
    (lambda: RepeatTask(16, 19, 1, 5), "min_len must be at least 2"),
    (lambda: RepeatTask(16, 19, 6, 5), "max_len must be >= min_len"),
    (lambda: RepeatTask(1, 19, 6, 8), "vocab_size must be at least 2"),
    (lambda: repeat_batch(0, 2, RepeatTask(4, 9, 2, 3)), "numpy.random.Generator"),
    (lambda: train_induction(stpes=3), "unknown settings"),
    (lambda: train_induction(lr=-1), "must be a positive finite number"),
    (lambda: previous_token_score(np.ones((2, 3, 4))), "square"),
    (lambda: prefix_matching_score(np.ones((1, 1, 3, 3)), [[0, 1]], [[1, 1]]), "tokens must have shape"),
    (lambda: composition(tinygpt.init(4, 4, 2, 1, 5), [[0, 1]], [[1, 1]]), "2 layers"),
])
def test_bad_input_says_what_it_got_and_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ablation_table_zeroes_each_head_of_each_layer():
    params = _perturbed()
    task = RepeatTask(vocab_size=6, n_ctx=9, min_len=2, max_len=5)
    tokens, targets, repeated = repeat_batch(np.random.default_rng(0), 16, task)
    rows = induction.ablation_table(params, tokens, targets, repeated)
    assert [(r["layer"], r["head"]) for r in rows] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    scored = np.where(repeated, targets, -1)
    for r in rows:
        want = ablation.ablate(params, tokens, scored, [r["head"]], layer=r["layer"])
        assert r["loss"] == want["loss"] and r["accuracy"] == want["accuracy"]
