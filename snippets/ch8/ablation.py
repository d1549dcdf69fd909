from attnkit import ablation, copy_results, training
from attnkit.text import pad, row

params, _ = training.trained(**training.BOOK)
tokens, targets = copy_results.held_out(**training.BOOK)   # 训练中没见过的序列 [zh]
tokens, targets = copy_results.held_out(**training.BOOK)   # sequences the training never saw [en]
# 去掉哪些头（代码里的编号从 0 起：0 是头 1） [zh]
# which heads to take out (code counts from 0: 0 is head 1) [en]
runs = {"完整的模型": [], "去掉头 1": [0],            # [zh]
        "去掉头 2": [1], "两个头都去掉": [0, 1]}      # [zh]
runs = {"whole model": [], "without head 1": [0],    # [en]
        "without head 2": [1], "without both": [0, 1]}   # [en]
cols = [16, 9, 9, 10, 9]
print(pad("", 16) + pad("置零", 18, "^") + pad("换成平均", 19, "^").rstrip())   # [zh]
print(pad("", 16) + row(["损失", "准确率", "损失", "准确率"], cols[1:]))  # [zh]
print(pad("", 16) + pad("set to 0", 18, "^") + pad("set to its mean", 19, "^").rstrip())   # [en]
print(pad("", 16) + row(["loss", "accuracy", "loss", "accuracy"], cols[1:]))  # [en]
for name, heads in runs.items():
    zero = ablation.ablate(params, tokens, targets, heads, how="zero")
    mean = ablation.ablate(params, tokens, targets, heads, how="mean")
    cells = [f"{zero['loss']:.4f}", f"{zero['accuracy']:.1%}",
             f"{mean['loss']:.4f}", f"{mean['accuracy']:.1%}"]
    print(pad(name, 16) + row(cells, cols[1:]))

out = ablation.head_norms(params, tokens, targets)    # (heads,)
print("每个头写进去的向量平均多长：", out.round(2))    # [zh]
print("mean length of what each head writes:", out.round(2))   # [en]
