from attnkit.cost import growth_when_doubled, layer_macs, score_share, table1
from attnkit.text import pad

name = {"self-attention": "自注意力", "recurrent": "循环层",                       # [zh]
        "convolutional": "卷积层", "restricted": "局部自注意力"}                   # [zh]
name = {"self-attention": "self-attention", "recurrent": "recurrent",             # [en]
        "convolutional": "convolutional", "restricted": "restricted"}             # [en]
header = ["", "运算量", "串行步数", "最长路径"]               # [zh]
header = ["", "operations", "sequential", "max path"]   # [en]
cols = [16, 14, 12, 12]
d = 512
for n in (100, 512, 4096):
    print(f"n = {n}, d = {d}")
    print("".join(pad(h, c, ">" if c != cols[0] else "<") for h, c in zip(header, cols)))
    for kind, (ops, sequential, path) in table1(n, d, k=3, r=64).items():
        row = [name[kind], ops, sequential, path]
        print("".join(pad(v, c, ">" if c != cols[0] else "<") for v, c in zip(row, cols)))

# 一整层编码器，d_model 512，d_ff 2048 [zh]
# one whole encoder layer, d_model 512, d_ff 2048 [en]
for n in (512, 4096):
    m = layer_macs(n, d_model=512, d_ff=2048)
    share, growth = score_share(n), growth_when_doubled(n)
    print(f"n = {n}：共 {m['total']} 次乘加，n² 部分占 {share:.1%}，n 翻倍变成 {growth:.2f} 倍")  # [zh]
    print(f"n = {n}: {m['total']} multiply-adds, n² part {share:.1%}, x{growth:.2f} when n doubles")  # [en]
