"""The tiny GPT of chapter 8 (attnkit.tinygpt), its task, its training and what it learned
(attnkit.copytask, attnkit.training, attnkit.copy_results): against finite differences, PyTorch
and their own invariants."""

import warnings

import numpy as np
import pytest

from attnkit import causal_mask, layers, multi_head_attention, tinygpt, training
from attnkit.copy_results import accuracy, look_back
from attnkit.copytask import CopyTask, copy_batch, spell
from attnkit.tinygpt import config_of, cross_entropy, forward, generate, init, loss_and_grad
from attnkit.training import BOOK, Trainer, adam_init, adam_step, sgd_step, train, trained

BOOK_TASK = CopyTask(BOOK["vocab_size"], BOOK["half"])


def _perturbed(seed=3, vocab=7, d_model=8, n_heads=2, n_layers=2, n_ctx=6, ffn=True):
    """A model with weights far from their small initial values (so no gradient is trivially 0)."""
    params = init(vocab, d_model, n_heads, n_layers, n_ctx, seed=seed, ffn=ffn)
    rng = np.random.default_rng(seed + 100)
    return {k: v + rng.normal(0, 0.3, v.shape) for k, v in params.items()}


def _batch(seed=0, vocab=7, batch=3, n=5):
    rng = np.random.default_rng(seed)
    tokens = rng.integers(0, vocab, (batch, n))
    targets = rng.integers(0, vocab, (batch, n))
    targets[0, 1] = -1                                  # one position not scored
    return tokens, targets


# --------------------------------------------------------------------------
# gradients
# --------------------------------------------------------------------------

@pytest.mark.parametrize("ffn", [True, False])
def test_every_gradient_matches_finite_differences(ffn):
    params = _perturbed(ffn=ffn)
    assert any(".mlp." in k for k in params) == ffn                 # ffn=False: attention only (chapter 11)
    tokens, targets = _batch()
    _, grads = loss_and_grad(params, tokens, targets)
    assert sorted(grads) == sorted(params)
    h = 1e-6
    for key, value in params.items():
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            old = value[index]
            value[index] = old + h
            plus, _ = loss_and_grad(params, tokens, targets)
            value[index] = old - h
            minus, _ = loss_and_grad(params, tokens, targets)
            value[index] = old
            numeric[index] = (plus - minus) / (2 * h)
        assert grads[key].shape == value.shape, key
        scale = max(np.abs(numeric).max(), 1e-3)
        assert np.abs(grads[key] - numeric).max() / scale < 1e-6, key
        assert np.abs(numeric).max() > 0 or key == "wpe", f"{key}: gradient is all zero"


def test_unused_positions_and_tokens_get_zero_gradient():
    params = _perturbed()
    tokens = np.array([[0, 1, 2]])                     # n = 3 of n_ctx = 6; ids 3..6 unused
    _, grads = loss_and_grad(params, tokens, np.array([[1, 2, 3]]))
    assert np.all(grads["wpe"][3:] == 0) and np.any(grads["wpe"][:3] != 0)
    assert np.all(grads["wte"][3:] == 0) and np.any(grads["wte"][:3] != 0)


def _torch_loss(torch, params, tokens, targets, n_heads):
    """The same model written with PyTorch operations, for autograd to differentiate."""
    P = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in params.items()}
    F = torch.nn.functional
    cfg = config_of(params)
    tok = torch.tensor(tokens)
    n = tok.shape[1]
    x = P["wte"][tok] + P["wpe"][:n]
    mask = torch.tensor(causal_mask(n))

    def ln(x, name):
        return F.layer_norm(x, (cfg["d_model"],), P[f"{name}.g"], P[f"{name}.b"], eps=layers.EPS)

    for l in range(cfg["n_layers"]):
        a = ln(x, f"h{l}.ln_1")[:, None]                # (b, 1, n, d)
        q, k, v = (a @ P[f"h{l}.attn.{w}"] for w in ("w_q", "w_k", "w_v"))
        z = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + (z @ P[f"h{l}.attn.w_o"]).sum(1)
        if f"h{l}.mlp.w_1" not in P:                    # an attention-only model (ffn=False)
            continue
        m = ln(x, f"h{l}.ln_2")
        x = x + torch.relu(m @ P[f"h{l}.mlp.w_1"] + P[f"h{l}.mlp.b_1"]) @ P[f"h{l}.mlp.w_2"] + P[f"h{l}.mlp.b_2"]
    logits = ln(x, "ln_f") @ P["w_u"]
    loss = F.cross_entropy(logits.reshape(-1, cfg["vocab_size"]), torch.tensor(targets).reshape(-1),
                           ignore_index=-1)
    loss.backward()
    return logits, loss, P


@pytest.mark.parametrize("ffn", [True, False])
def test_forward_and_gradients_match_pytorch_autograd(ffn):
    torch = pytest.importorskip("torch")
    params = _perturbed(seed=5, n_layers=2, n_heads=4, ffn=ffn)
    tokens, targets = _batch(seed=2, batch=4, n=6)
    logits_t, loss_t, P = _torch_loss(torch, params, tokens, targets, n_heads=4)
    logits, _ = forward(params, tokens)
    loss, grads = loss_and_grad(params, tokens, targets)
    assert np.allclose(logits, logits_t.detach().numpy(), atol=1e-10)
    assert loss == pytest.approx(loss_t.item(), abs=1e-10)
    for key in params:
        assert np.allclose(grads[key], P[key].grad.numpy(), atol=1e-10), key


# --------------------------------------------------------------------------
# forward: the pieces agree with the rest of attnkit, and the model cannot look ahead
# --------------------------------------------------------------------------

def test_attention_equals_attnkits_multi_head_attention():
    params = _perturbed(n_layers=1)
    x = np.random.default_rng(4).normal(size=(2, 5, 8))
    p = tinygpt.layer_params(params, 0)
    out, cache = tinygpt.attention_forward(p, x)
    merge = lambda w: np.concatenate(list(w), axis=-1)      # (H, d, d_head) -> (d, d)
    for b in range(2):
        ref, ref_w = multi_head_attention(x[b], merge(p["attn.w_q"]), merge(p["attn.w_k"]),
                                          merge(p["attn.w_v"]), np.concatenate(list(p["attn.w_o"]), axis=0),
                                          n_heads=2, mask=causal_mask(5))
        assert np.allclose(out[b], ref, atol=1e-12)
        assert np.allclose(cache["weights"][b], ref_w, atol=1e-12)
    assert cache["q"].shape == cache["k"].shape == cache["v"].shape == (2, 2, 5, 4)


def test_causal_a_later_token_never_changes_an_earlier_output():
    params = _perturbed()
    tokens = np.array([[1, 2, 3, 4, 5]])
    changed = tokens.copy()
    changed[0, 3] = 0
    a, cache = forward(params, tokens)
    b, _ = forward(params, changed)
    assert np.allclose(a[0, :3], b[0, :3], atol=1e-14)
    assert not np.allclose(a[0, 3:], b[0, 3:])
    w = cache["h1"]["attn"]["weights"]
    assert np.all(w[..., ~causal_mask(5)] == 0)
    assert np.allclose(w.sum(-1), 1)


def test_one_forward_pass_scores_every_prefix_as_if_run_alone():
    params = _perturbed()
    tokens = np.array([[1, 2, 3, 4, 5]])
    full, _ = forward(params, tokens)
    for i in range(1, 6):
        alone, _ = forward(params, tokens[:, :i])
        assert np.allclose(full[0, i - 1], alone[0, -1], atol=1e-12)


def test_init_is_deterministic_and_documented_shapes():
    a, b = init(5, 8, 2, 2, 6, seed=7), init(5, 8, 2, 2, 6, seed=7)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["wte"], init(5, 8, 2, 2, 6, seed=8)["wte"])
    for key in a:
        assert f'"{key.replace("h1.", "h{l}.").replace("h0.", "h{l}.")}"' in tinygpt.__doc__, key
    assert a["h0.attn.w_o"].shape == (2, 4, 8) and a["h0.mlp.w_1"].shape == (8, 32)
    assert config_of(a) == {"vocab_size": 5, "d_model": 8, "n_heads": 2, "n_layers": 2, "n_ctx": 6}
    assert all(v.dtype == np.float64 for v in a.values())


# --------------------------------------------------------------------------
# optimisers, training, generation
# --------------------------------------------------------------------------

def test_sgd_step_moves_against_the_gradient_and_lowers_the_loss():
    params = _perturbed()
    tokens, targets = _batch()
    before, grads = loss_and_grad(params, tokens, targets)
    old = {k: v.copy() for k, v in params.items()}
    sgd_step(params, grads, lr=1e-3)
    assert all(np.allclose(params[k], old[k] - 1e-3 * grads[k]) for k in params)
    after, _ = loss_and_grad(params, tokens, targets)
    assert after < before


def test_adam_first_step_moves_each_weight_by_lr():
    params = {"w": np.array([1.0, -2.0, 3.0])}
    grads = {"w": np.array([0.5, -4.0, 1e-3])}
    state = adam_init(params)
    adam_step(params, grads, state, lr=0.1)
    # at t = 1, m_hat = g and v_hat = g^2, so the step is lr * sign(g) (up to eps)
    assert np.allclose(params["w"], [0.9, -1.9, 2.9], atol=1e-4)
    assert state["t"] == 1


def test_training_learns_the_copy_task_and_is_deterministic():
    params, losses = train(**BOOK)
    again, losses_2 = train(**BOOK)
    assert losses == losses_2 and len(losses) == BOOK["steps"]
    assert all(np.array_equal(params[k], again[k]) for k in params)
    assert losses[0] > 1.9 and max(losses[-10:]) < 0.05
    tokens, targets = copy_batch(np.random.default_rng(12345), 200, BOOK_TASK)
    assert accuracy(params, tokens, targets) > 0.99
    assert accuracy(init(8, 16, 2, 1, 11, seed=0), tokens, targets) < 0.3
    _, other = train(steps=20, seed=1)
    assert other != losses[:20]


def test_trainer_step_by_step_equals_train():
    t = Trainer(seed=4, lr=0.02)
    assert t.run(5) + t.run(5) == train(steps=10, seed=4, lr=0.02)[1]
    sgd = Trainer(seed=4, optimizer="sgd", lr=0.5)
    assert sgd.run(3) != Trainer(seed=4, lr=0.5).run(3)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        t.run(0)


def test_trained_is_memoised_and_returns_copies():
    a, _ = trained(steps=20, seed=3)
    a["wte"][:] = 0
    b, _ = trained(seed=3, steps=20, lr=0.01)          # same configuration, spelled differently
    assert np.any(b["wte"] != 0)
    assert training._trained.cache_info().hits >= 1


def test_generate_greedy_copies_and_temperature_is_seeded():
    params, _ = trained(**BOOK)
    prompt = [1, 2, 3, 4, 5, 6]
    out = generate(params, prompt, 5)
    assert out.tolist() == [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]
    hot = generate(params, prompt, 5, temperature=5.0, seed=1)
    assert hot.tolist() == generate(params, prompt, 5, temperature=5.0, seed=1).tolist()
    assert hot[:6].tolist() == prompt and len(hot) == 11
    many = {tuple(generate(params, prompt, 5, temperature=5.0, seed=s)) for s in range(5)}
    assert len(many) > 1
    long = generate(params, prompt, 12)                 # longer than n_ctx: keeps the last n_ctx
    assert len(long) == 18


def test_copy_batch_scores_only_the_second_half():
    tokens, targets = copy_batch(np.random.default_rng(0), 4, CopyTask(vocab_size=5, half=4))
    assert tokens.shape == targets.shape == (4, 7)
    assert np.all(targets[:, :3] == -1)
    assert np.array_equal(targets[:, 3:], tokens[:, :4])


# --------------------------------------------------------------------------
# bad input: clear messages
# --------------------------------------------------------------------------

@pytest.mark.parametrize("tokens, targets, message", [
    ([[0, 7]], [[1, 2]], r"token ids in \[0, 6\] \(vocab_size = 7\), got 7 at index \(0, 1\)"),
    ([[0, -1]], [[1, 2]], r"token ids in \[0, 6\].*got -1"),
    ([[0] * 7], [[0] * 7], r"length n = 7, longer than the model's context n_ctx = 6"),
    ([0, 1, 2], [1, 2, 3], r"shape \(batch, n\).*got shape \(3,\)"),
    ([[0.5, 1.0]], [[1, 2]], "integer token ids, got dtype float64"),
    ([[0, 1]], [[1, 2, 3]], r"targets must have the shape of tokens \(1, 2\).*got shape \(1, 3\)"),
    ([[0, 1]], [[1, 9]], r"targets must be token ids in \[0, 6\] or -1"),
    ([[0, 1]], [[-1, -1]], "no scored position"),
    ([[0, 1], [2]], [[1, 2]], "ragged"),
])
def test_bad_input_says_what_it_got_and_expected(tokens, targets, message):
    params = init(7, 8, 2, 1, 6)
    with pytest.raises(ValueError, match=message):
        loss_and_grad(params, tokens, targets)


@pytest.mark.parametrize("call, message", [
    (lambda: init(5, 10, 3, 1, 6), "d_model=10 must be divisible by n_heads=3"),
    (lambda: init(0, 8, 2, 1, 6), "vocab_size must be a positive integer, got 0"),
    (lambda: init(5, 8, 2, 1.5, 6), "n_layers must be a positive integer"),
    (lambda: init(5, 8, 2, 1, 6, seed=-1), "seed must be a non-negative integer"),
    (lambda: sgd_step({}, {}, lr=0), "lr .* must be a positive finite number, got 0"),
    (lambda: train(steps=1, lr=float("nan")), "lr .* got nan"),
    (lambda: train(steps=0), "steps must be a positive integer"),
    (lambda: train(steps=1, optimizer="rmsprop"), "optimizer must be 'adam' or 'sgd'"),
    (lambda: generate(init(5, 8, 2, 1, 6), [0, 1], 2, temperature=-1), "temperature must be"),
    (lambda: generate(init(5, 8, 2, 1, 6), [0, 5], 2), r"prompt must be token ids in \[0, 4\]"),
    (lambda: generate(init(5, 8, 2, 1, 6), [0, 1], -2), "n_new must be a positive integer, got -2"),
    (lambda: forward({"w": np.zeros(3)}, [[0]]), "params must be the dict made by tinygpt.init"),
    (lambda: CopyTask(vocab_size=1, half=6), "vocab_size must be at least 2"),
    (lambda: init(5, 8, 2, 1, 6, ffn="no"), "ffn must be True"),
    (lambda: training.train_step(init(5, 8, 2, 1, 6), {}, [[0]], [[1]], lr=0.1, optimizer="rmsprop"),
     "optimizer must be 'adam' or 'sgd'"),
])
def test_bad_hyper_parameters_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------
# bad input across the model, the task and training: our message, never NumPy's
# --------------------------------------------------------------------------

@pytest.mark.parametrize("logits, targets, message", [
    (np.zeros((1, 2, 4)), [[4, -1]], r"targets must be token ids in \[0, 3\] or -1 for not scored "
                                     r"\(vocab_size = 4\), got 4 at index \(0, 0\)"),
    (np.zeros((1, 2, 4)), [[-2, 1]], r"got -2 at index \(0, 0\)"),
    (np.zeros((1, 2, 4)), [[1, 2, 3]], r"targets must have the shape of tokens \(1, 2\).*got shape \(1, 3\)"),
    (np.zeros((1, 2, 4)), [[-1, -1]], "no scored position"),
    (np.zeros((1, 2, 4)), [[0.0, 1.0]], "integer token ids, got dtype float64"),
    (np.zeros((2, 4)), [[0, 1]], r"logits must have at least 3 dimensions \(batch, n, vocab_size\), got shape \(2, 4\)"),
    (np.full((1, 2, 4), np.nan), [[0, 1]], "logits contains NaN or infinity"),
])
def test_cross_entropy_bad_input(logits, targets, message):
    with pytest.raises(ValueError, match=message):
        cross_entropy(logits, targets)


@pytest.mark.parametrize("prompt, message", [
    ([], r"prompt must have shape \(n,\) with n >= 1, got shape \(0,\)"),
    ([[0, 1]], r"prompt must have shape \(n,\) with n >= 1, got shape \(1, 2\)"),
    ([0.0, 1.0], "prompt must hold integer token ids, got dtype float64"),
    ([0, 5], r"prompt must be token ids in \[0, 4\] \(vocab_size = 5\), got 5 at index \(1,\)"),
    (["a"], "prompt must hold integer token ids, got dtype <U1"),
])
def test_generate_bad_prompt(prompt, message):
    with pytest.raises(ValueError, match=message):
        generate(init(5, 8, 2, 1, 6), prompt, 2)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_new": 0}, r"n_new must be a positive integer, got 0 \(int\)"),
    ({"n_new": 2.0}, r"n_new must be a positive integer, got 2.0 \(float\)"),
    ({"n_new": 2, "temperature": float("inf")}, "temperature must be a finite number >= 0, got inf"),
    ({"n_new": 2, "temperature": True}, "temperature must be a finite number >= 0, got True"),
    ({"n_new": 2, "temperature": 1.0, "seed": -1}, r"seed must be a non-negative integer, got -1 \(int\)"),
])
def test_generate_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        generate(init(5, 8, 2, 1, 6), [0, 1], **kwargs)


def test_generate_with_nan_weights_says_so():
    params = init(5, 8, 2, 1, 6)
    params["w_u"][0, 0] = np.nan
    with pytest.raises(ValueError, match="the model's logits contain NaN or infinity"):
        generate(params, [0, 1], 2)


def test_tiny_and_huge_temperatures_are_their_limits():
    params, _ = trained(**BOOK)
    prompt = [1, 2, 3, 4, 5, 6]
    greedy = generate(params, prompt, 5).tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # no overflow warning either
        assert generate(params, prompt, 5, temperature=1e-320).tolist() == greedy
        assert generate(params, prompt, 5, temperature=5e-324, seed=3).tolist() == greedy
        hot = generate(params, prompt, 5, temperature=1e300, seed=0)
    assert hot[:6].tolist() == prompt and len(hot) == 11


@pytest.mark.parametrize("call, message", [
    (lambda: copy_batch(np.random.default_rng(0), 0, CopyTask(8, 6)), r"batch must be a positive integer, got 0"),
    (lambda: copy_batch(0, 4, CopyTask(8, 6)), r"rng must be a numpy.random.Generator .*got int"),
    (lambda: copy_batch(np.random.default_rng(0), 4, None), "task must be a CopyTask, got NoneType"),
    (lambda: CopyTask(27, 6), r"vocab_size must be at most 26 \(one letter per token\), got 27"),
    (lambda: spell([0, 26]), r"tokens must be ids in \[0, 25\] \(one letter each\) or -1, got 26 at index 1"),
    (lambda: spell([0.5]), "tokens must hold integer token ids, got dtype float64"),
    (lambda: Trainer(lr=-0.1), r"lr \(the learning rate\) must be a positive finite number, got -0.1 \(float\)"),
    (lambda: Trainer(seed=1.5), r"seed must be a non-negative integer, got 1.5 \(float\)"),
    (lambda: look_back(np.ones((2, 5, 5)), half=6), r"weights must end in \(n, n\) with n = 2 half - 1 = 11, got shape \(2, 5, 5\)"),
    (lambda: look_back(np.ones((5, 5)), half=3), r"weights must have at least 3 dimensions"),
    (lambda: accuracy(init(5, 8, 2, 1, 6), [[0, 1]], [[1]]), r"targets must have the shape of tokens \(1, 2\)"),
    (lambda: accuracy(init(5, 8, 2, 1, 6), [[0, 1]], [[-1, -1]]), "no scored position"),
])
def test_task_and_training_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: spell([[0, 1], [2]]), "tokens must be a rectangular array of token ids, got a ragged"),
    (lambda: sgd_step({"w": np.ones(2)}, {"v": np.ones(2)}, lr=0.1),
     r"grads must have the keys of params: missing \['w'\], extra \['v'\]"),
    (lambda: sgd_step([1.0], {}, lr=0.1), "params and grads must be dicts name -> array"),
    (lambda: adam_step({"w": np.ones(2)}, {"w": np.ones(2)}, {}, lr=0.1),
     "state must be the dict made by adam_init"),
])
def test_optimisers_and_spell_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("listing", ["ch8/causal.py", "ch8/loss.py"])
def test_listings_that_spell_the_model_out_spell_the_books(listing):
    """Listings 8.1/8.2 show tinygpt.init's arguments to the reader instead of BOOK: they must
    be the book's model (the settings are typed once, in training.BOOK; this keeps the copy honest)."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "snippets" / listing).read_text(encoding="utf-8")
    args = re.search(r"tinygpt\.init\(([^)]*)\)", text).group(1)
    spelled = {k.strip(): int(v) for k, v in (a.split("=") for a in args.split(","))}
    assert init(**spelled).keys() == training.untrained(**BOOK).keys()
    assert all(np.array_equal(init(**spelled)[k], v) for k, v in training.untrained(**BOOK).items())
    task = re.search(r"CopyTask\(([^)]*)\)", text)
    if task:
        assert task.group(1).replace(" ", "") == f"vocab_size={BOOK['vocab_size']},half={BOOK['half']}"
