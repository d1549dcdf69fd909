import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import (pairwise_connections, path_length,
                         random_tokens, sequential_steps)

# 一次调用就给 6 个词的句子里每一对词打分：不用按词循环。 [zh]
# One call scores every pair of a 6-word sentence: no loop over words. [en]
x = random_tokens(6, 8, seed=0)                # (6, 8)
out, weights = scaled_dot_product_attention(x, x, x)
                                   # (6, 8) @ (8, 6) -> (6, 6)
rows_ok = np.allclose(weights.sum(axis=1), 1)
print("权重：", weights.shape, " 每行加起来是 1：", rows_ok)  # [zh]
print("weights:", weights.shape, " each row sums to 1:", rows_ok)  # [en]

print()
print("      n  |  排队的步数      |  第1个 -> 第n个   |   分数")  # [zh]
print("         |  RNN  注意力     |  RNN   注意力     |      n*n")  # [zh]
print("      n  |  steps in line   |  word 1 -> word n |   scores")  # [en]
print("         |  RNN  attention  |  RNN   attention |      n*n")  # [en]
for n in [6, 40, 1000, 100_000]:
    rnn_steps = sequential_steps(n, "rnn")
    att_steps = sequential_steps(n, "attention")
    rnn_hops = path_length(0, n - 1, "rnn")
    att_hops = path_length(0, n - 1, "attention")
    pairs = pairwise_connections(n, "attention")
    print(f"{n:7d}  | {rnn_steps:6d} {att_steps:6d}    |"
          f" {rnn_hops:6d} {att_hops:6d}     | {pairs:12,d}")
