import numpy as np
from attnkit import tinygpt

params = tinygpt.init(vocab_size=8, d_model=16, n_heads=2, n_layers=1, n_ctx=11, seed=0)
tokens, targets = tinygpt.copy_batch(np.random.default_rng(0), 32, tinygpt.CopyTask(vocab_size=8, half=6))
print("tokens: ", tinygpt.spell(tokens[0]))         # (32, 11): 32 sequences of 11 tokens
print("targets:", tinygpt.spell(targets[0]))        # the next token; · = not scored
loss, grads = tinygpt.loss_and_grad(params, tokens, targets)
words = "损失 {:.4f}，瞎猜是 ln 8 = {:.4f}"          # [zh]
words = "loss {:.4f}; guessing gives ln 8 = {:.4f}"  # [en]
print(words.format(loss, np.log(8)))
print("w_u:", params["w_u"].shape, "dL/dw_u:", grads["w_u"].shape)   # (d_model, vocab) both
for lr in (0.1, 1.0, 10.0):
    moved = {k: v - lr * grads[k] for k, v in params.items()}     # one step downhill
    after, _ = tinygpt.loss_and_grad(moved, tokens, targets)
    print(f"lr = {lr:4}: {loss:.4f} -> {after:.4f}")
