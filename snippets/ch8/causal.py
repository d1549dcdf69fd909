import numpy as np
from attnkit import tinygpt

params = tinygpt.init(vocab_size=8, d_model=16, n_heads=2, n_layers=1, n_ctx=11, seed=0)
tokens = np.array([[1, 2, 3, 4, 5, 6]])           # (batch=1, n=6)
logits, cache = tinygpt.forward(params, tokens)   # (1, 6, vocab=8)：每个位置一个猜测 [zh]
logits, cache = tinygpt.forward(params, tokens)   # (1, 6, vocab=8): a guess at every position [en]
changed = tokens.copy()
changed[0, 4] = 0                                  # 只改第 5 个词元 [zh]
changed[0, 4] = 0                                  # change the 5th token only [en]
logits_2, _ = tinygpt.forward(params, changed)
same = np.isclose(logits, logits_2).all(axis=-1)[0]    # (6,)
print("每个位置给下一个词元的分数，形状：", logits.shape)    # [zh]
print("只改第 5 个词元，各位置的猜测不变吗？", same)         # [zh]
print("头 1 的注意力权重（对角线以上全是 0）：")             # [zh]
print("shape of the logits:", logits.shape)                       # [en]
print("only token 5 changed: is each guess unchanged?", same)     # [en]
print("head 1's attention weights (zeros above the diagonal):")   # [en]
print(cache["h0"]["attn"]["weights"][0, 0].round(2))   # (6, 6)
