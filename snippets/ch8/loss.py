import numpy as np
from attnkit import tinygpt
from attnkit.copytask import CopyTask, copy_batch, spell

params = tinygpt.init(vocab_size=8, d_model=16, n_heads=2, n_layers=1, n_ctx=11, seed=0)
tokens, targets = copy_batch(np.random.default_rng(0), 32, CopyTask(vocab_size=8, half=6))
print("输入：    ", spell(tokens[0]))             # (32, 11)：32 条序列，每条 11 个词元 [zh]
print("要猜的：  ", spell(targets[0]))            # 每个位置的下一个词元；· = 不计分 [zh]
print("tokens: ", spell(tokens[0]))               # (32, 11): 32 sequences of 11 tokens [en]
print("targets:", spell(targets[0]))              # the next token at each position; · = not scored [en]
loss, grads = tinygpt.loss_and_grad(params, tokens, targets)
print(f"损失 {loss:.4f}，瞎猜是 ln 8 = {np.log(8):.4f}")              # [zh]
print(f"loss {loss:.4f}; guessing gives ln 8 = {np.log(8):.4f}")       # [en]
print("W_U 的形状：", params["w_u"].shape, " 损失对 W_U 的梯度：", grads["w_u"].shape)   # (d_model, vocab) [zh]
print("W_U:", params["w_u"].shape, " gradient of the loss for W_U:", grads["w_u"].shape)  # (d_model, vocab) [en]
for lr in (0.1, 1.0, 10.0):
    moved = {k: v - lr * grads[k] for k, v in params.items()}       # 往下坡迈一步 [zh]
    moved = {k: v - lr * grads[k] for k, v in params.items()}       # one step downhill [en]
    after, _ = tinygpt.loss_and_grad(moved, tokens, targets)
    print(f"学习率 {lr:4}：{loss:.4f} -> {after:.4f}")    # [zh]
    print(f"lr = {lr:4}: {loss:.4f} -> {after:.4f}")       # [en]
