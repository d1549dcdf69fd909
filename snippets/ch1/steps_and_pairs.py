import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import (pairwise_connections, path_length,
                         random_tokens, sequential_steps)
from attnkit.text import pad, row, wan

# 一次调用就给 6 个词的句子里每一对词打分：不用按词循环。 [zh]
# One call scores every pair of a 6-word sentence: no loop over words. [en]
x = random_tokens(6, 8, seed=0)                # (6, 8)
out, weights = scaled_dot_product_attention(x, x, x)
                                   # (6, 8) @ (8, 6) -> (6, 6)
rows_ok = np.allclose(weights.sum(axis=1), 1)
print("权重：", weights.shape, " 每行加起来是 1：", rows_ok)  # [zh]
print("weights:", weights.shape, " each row sums to 1:", rows_ok)  # [en]

print()
cols = [7, 3, 8, 11, 3, 8, 11, 3, 16]              # 竖线也占一列 [zh]
cols = [7, 3, 8, 11, 3, 8, 11, 3, 16]              # the bars are columns too [en]
groups = ["n", "排队的步数", "第 1 个到第 n 个", "分数"]       # [zh]
groups = ["n", "steps in turn", "word 1 -> word n", "scores"]  # [en]
print(pad(groups[0], 7, ">") + "  |" + pad(groups[1], 19, "^") + "  |"
      + pad(groups[2], 19, "^") + "  |" + pad(groups[3], 16, ">"))
print(row(["", "|", "RNN", "注意力", "|", "RNN", "注意力", "|", "n*n"], cols))        # [zh]
print(row(["", "|", "RNN", "attention", "|", "RNN", "attention", "|", "n*n"], cols))  # [en]
for n in [6, 40, 1000, 100_000]:
    rnn_steps = sequential_steps(n, "rnn")
    att_steps = sequential_steps(n, "attention")
    rnn_hops = path_length(0, n - 1, "rnn")
    att_hops = path_length(0, n - 1, "attention")
    pairs = pairwise_connections(n, "attention")
    print(row([n, "|", rnn_steps, att_steps, "|", rnn_hops, att_hops, "|", wan(pairs)], cols))  # [zh]
    print(row([n, "|", rnn_steps, att_steps, "|", rnn_hops, att_hops, "|", f"{pairs:,d}"], cols))  # [en]
