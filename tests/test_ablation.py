"""attnkit.ablation: taking a head out of the tiny GPT, checked against independent paths."""

import numpy as np
import pytest

from attnkit import ablation, copy_results, tinygpt


def _model(n_layers=2, seed=3):
    params = tinygpt.init(vocab_size=7, d_model=12, n_heads=3, n_layers=n_layers, n_ctx=9, seed=seed)
    rng = np.random.default_rng(seed)
    for key in params:                                # bigger weights than init's, so heads matter
        params[key] = params[key] + rng.normal(0, 0.3, params[key].shape)
    tokens = rng.integers(0, 7, size=(5, 9))
    targets = np.roll(tokens, -1, axis=1)
    targets[:, :3] = -1
    return params, tokens, targets


def test_no_ablation_is_the_model_itself():
    params, tokens, _ = _model()
    want, _ = tinygpt.forward(params, tokens)
    got = ablation.ablated_logits(params, tokens, heads=[])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_head_outputs_add_up_to_the_attention_output():
    params, tokens, _ = _model(n_layers=1)
    _, cache = tinygpt.forward(params, tokens)
    a_in = cache["h0"]["attn"]["x"]                   # layer 0's attention input, layer-normed
    layer_0 = {k[len("h0."):]: v for k, v in params.items() if k.startswith("h0.")}
    want, _ = tinygpt.attention_forward(layer_0, a_in)   # (batch, n, d)
    out = ablation.head_outputs(params, tokens)        # (batch, H, n, d)
    assert out.shape == (5, 3, 9, 12)
    np.testing.assert_allclose(out.sum(axis=1), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("layer, head", [(0, 0), (0, 2), (1, 1)])
def test_zero_ablation_equals_a_zeroed_output_projection(layer, head):
    """Zeroing head h's output is the same as zeroing its slice of w_o in tinygpt's own forward."""
    params, tokens, _ = _model()
    zeroed = {k: v.copy() for k, v in params.items()}
    zeroed[f"h{layer}.attn.w_o"][head] = 0.0
    want, _ = tinygpt.forward(zeroed, tokens)
    got = ablation.ablated_logits(params, tokens, heads=[head], layer=layer)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert not np.allclose(got, tinygpt.forward(params, tokens)[0])   # the head mattered


def test_mean_ablation_of_one_sequence_changes_nothing_and_of_many_removes_the_difference():
    params, tokens, _ = _model()
    one = tokens[:1]
    np.testing.assert_allclose(ablation.ablated_logits(params, one, [1], "mean"),
                               tinygpt.forward(params, one)[0], rtol=0, atol=1e-12)
    # the mean is the same for every sequence: the head's output no longer depends on it
    out = ablation.head_outputs(params, tokens)[:, 1].mean(axis=0)       # (n, d)
    def replaced(o):
        o = o.copy()
        o[:, 1] = out
        return o
    want, _ = ablation._run(params, tokens, 0, replaced)
    np.testing.assert_allclose(ablation.ablated_logits(params, tokens, [1], "mean"), want,
                               rtol=0, atol=1e-12)


def test_without_any_head_each_position_sees_only_itself():
    """With every head of a one-layer model zeroed, no position can read another."""
    params, tokens, _ = _model(n_layers=1)
    changed = tokens.copy()
    changed[:, 0] = (changed[:, 0] + 1) % 7
    a = ablation.ablated_logits(params, tokens, [0, 1, 2])
    b = ablation.ablated_logits(params, changed, [0, 1, 2])
    np.testing.assert_allclose(a[:, 1:], b[:, 1:], rtol=0, atol=1e-12)
    assert not np.allclose(a[:, 0], b[:, 0])
    # with the heads on, later positions do read token 0
    assert not np.allclose(tinygpt.forward(params, tokens)[0][:, 1:],
                           tinygpt.forward(params, changed)[0][:, 1:])


def test_ablate_measures_loss_and_accuracy_like_tinygpt():
    params, tokens, targets = _model()
    got = ablation.ablate(params, tokens, targets, [])
    logits, _ = tinygpt.forward(params, tokens)
    loss, _ = tinygpt.cross_entropy(logits, targets)
    assert got["loss"] == pytest.approx(loss, abs=1e-12)
    assert got["accuracy"] == pytest.approx(copy_results.accuracy(params, tokens, targets), abs=1e-12)


def test_head_norms_are_the_mean_length_over_scored_positions():
    params, tokens, targets = _model(n_layers=1)
    out = ablation.head_outputs(params, tokens)
    b, i = np.nonzero(targets >= 0)
    want = [np.mean([np.sqrt((out[bb, h, ii] ** 2).sum()) for bb, ii in zip(b, i)]) for h in range(3)]
    np.testing.assert_allclose(ablation.head_norms(params, tokens, targets), want, rtol=1e-12)


def test_sink_share():
    w = np.zeros((2, 3, 3))                            # (H, n, n)
    w[:, :, 0] = 1.0
    w[1, 2] = [0.5, 0.5, 0.0]
    np.testing.assert_allclose(ablation.sink_share(w, [1, 2]), [1.0, 0.75])


def test_the_books_model_head_1_copies_and_head_2_barely_matters():
    """What chapter 8.3 says, checked here so that a retrained model that disagrees fails."""
    r = ablation.report()
    assert r["full"]["accuracy"] == 1.0
    assert r["zero"][1]["accuracy"] == 1.0 and r["mean"][1]["accuracy"] == 1.0
    assert r["zero"][1]["loss"] < 2 * r["full"]["loss"]
    assert r["zero"][0]["accuracy"] < 0.5 and r["zero"][0]["loss"] > 100 * r["full"]["loss"]
    assert r["mean"][0]["accuracy"] < 0.5
    assert r["zero"][0]["accuracy"] > 2 * r["guess"]                   # head 2 alone: a little
    assert abs(r["zero_all"]["accuracy"] - r["guess"]) < 0.02          # no head: a blind guess
    assert 6 < r["norms"][0] / r["norms"][1] < 12                       # "about an eighth"
    assert all(0.4 < s < 0.7 for s in r["sink"])                        # "about half"


@pytest.mark.parametrize("call, message", [
    (lambda p, t, y: ablation.ablated_logits(p, t, [3]), r"heads must be indices in \[0, 2\].*got 3"),
    (lambda p, t, y: ablation.ablated_logits(p, t, [True]), r"heads must be indices.*got True"),
    (lambda p, t, y: ablation.ablated_logits(p, t, 1), r"heads must be a list of head indices.*got 1"),
    (lambda p, t, y: ablation.ablated_logits(p, t, [0], how="half"), r"how must be 'zero' or 'mean', got 'half'"),
    (lambda p, t, y: ablation.ablated_logits(p, t, [0], layer=2), r"layer must be an integer in \[0, 1\].*got 2"),
    (lambda p, t, y: ablation.ablated_logits(p, t.astype(float), [0]), r"tokens must be integer ids.*float64"),
    (lambda p, t, y: ablation.ablated_logits(p, t[0], [0]), r"shape \(batch, n\).*shape \(9,\)"),
    (lambda p, t, y: ablation.ablated_logits(p, t + 7, [0]), r"ids in \[0, 6\].*from 7"),
    (lambda p, t, y: ablation.ablated_logits(p, np.zeros((1, 10), int), [0]), r"n = 10, longer than .* n_ctx = 9"),
    (lambda p, t, y: ablation.ablate(p, t, y[:, :4], [0]), r"targets must have the shape of tokens \(5, 9\)"),
    (lambda p, t, y: ablation.ablate(p, t, -np.ones_like(y), [0]), r"no scored position"),
    (lambda p, t, y: ablation.head_norms(p, t, y[:2]), r"targets must have the shape of tokens"),
])
def test_bad_input_says_what_it_got(call, message):
    params, tokens, targets = _model()
    with pytest.raises(ValueError, match=message):
        call(params, tokens, targets)
