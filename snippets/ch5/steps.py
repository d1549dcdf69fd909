from attnkit.rnn import pairwise_connections, path_length, sequential_steps
from attnkit.text import pad, wan

count = wan                                     # 中文写法：1 万、100 万、1 亿 [zh]
count = "{:,d}".format                          # 10,000 [en]

header = ["n", "RNN 步数", "注意力步数", "首尾跳数 RNN", "首尾跳数 注意力", "分数"]  # [zh]
header = ["n", "RNN steps", "attn steps", "hand-offs RNN", "hand-offs attn", "scores"]  # [en]
cols = [6, 11, 12, 14, 17, 14]                  # 每一列的显示宽度（一个汉字占两列） [zh]
cols = [6, 11, 12, 16, 17, 14]                  # display width of each column [en]
print("".join(pad(h, c, ">") for h, c in zip(header, cols)))
for n in (10, 100, 1_000, 10_000):
    row = [n, sequential_steps(n, "rnn"), sequential_steps(n, "attention"),
           path_length(0, n - 1, "rnn"), path_length(0, n - 1, "attention"),
           count(pairwise_connections(n, "attention"))]
    print("".join(pad(v, c, ">") for v, c in zip(row, cols)))
