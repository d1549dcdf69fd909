from attnkit.cost import score_bytes, score_matrix
from attnkit.text import pad

count = str                                   # 中文不用千位逗号：524288 [zh]
count = "{:,d}".format                        # 524,288 [en]

d_h = 512                                     # RNN 的隐藏状态：不管 n 多大，都是 d_h 个数 [zh]
d_h = 512                                     # an RNN's hidden state: d_h numbers, whatever n is [en]
header = ["n", "隐藏状态", "n x n 权重（实测）", "比上一行"]            # [zh]
header = ["n", "hidden state", "n x n matrix (measured)", "x previous"]  # [en]
cols = [6, 15, 27, 12]
print("".join(pad(h, c, ">") for h, c in zip(header, cols)))
previous = None
for n in (256, 512, 1024, 2048):
    nbytes = score_matrix(n).nbytes           # 注意力真正分配的 (n, n) 数组 [zh]
    nbytes = score_matrix(n).nbytes           # the (n, n) array attention really allocates [en]
    growth = f"x{nbytes / previous:.0f}" if previous else ""
    row = [n, f"{count(d_h * 8)} B", f"{count(nbytes)} B", growth]
    print("".join(pad(v, c, ">") for v, c in zip(row, cols)).rstrip())
    previous = nbytes
print("n = 10 万（float32，一个头，一层）：", f"{score_bytes(100_000, 4) / 1e9:.0f} GB")  # [zh]
print("n = 100,000 (float32, one head, one layer):", f"{score_bytes(100_000, 4) / 1e9:.0f} GB")  # [en]
