import numpy as np
from attnkit import tinygpt

params = tinygpt.init(vocab_size=8, d_model=16, n_heads=2, n_layers=1, n_ctx=11, seed=0)
tokens = np.array([[1, 2, 3, 4, 5, 6]])           # (batch=1, n=6)
logits, cache = tinygpt.forward(params, tokens)   # (1, 6, vocab=8): a guess at every position
changed = tokens.copy()
changed[0, 4] = 0                                  # change the 5th token only
logits_2, _ = tinygpt.forward(params, changed)
same = np.isclose(logits, logits_2).all(axis=-1)[0]    # (6,) one answer per position
question = "只改第 5 个词，各位置的猜测不变吗？"             # [zh]
question = "only token 5 changed: is each guess unchanged?"  # [en]
print("logits:", logits.shape)
print(question, same)
print(cache["h0"]["attn"]["weights"][0, 0].round(2))   # head 1, (6, 6): zeros above the diagonal
