from attnkit import induction
from attnkit.text import pad, row

r = induction.report()                 # 训练好的模型在测试序列上的数（构建时算一次） [zh]
r = induction.report()                 # the trained model's numbers on the test sequences (computed once per build) [en]
cols = [18, 9, 9, 13, 13]
print(pad("去掉", 18) + row(["损失", "准确率", "第2层头1前缀", "第2层头2前缀"], cols[1:]))   # [zh]
print(pad("taken out", 18) + row(["loss", "accuracy", "L2H1 prefix", "L2H2 prefix"], cols[1:]))   # [en]
full = r["full"]
cells = [f"{full['loss']:.3f}", f"{full['accuracy']:.1%}", *[f"{s:.2f}" for s in r["prefix"][-1][-1]]]
print(pad("（都不去）", 18) + row(cells, cols[1:]))   # [zh]
print(pad("(nothing)", 18) + row(cells, cols[1:]))   # [en]
for a in r["ablations"]:
    name = f"第 {a['layer'] + 1} 层 头 {a['head'] + 1}"           # [zh]
    name = f"layer {a['layer'] + 1} head {a['head'] + 1}"         # [en]
    print(pad(name, 18) + row([f"{a['loss']:.3f}", f"{a['accuracy']:.1%}",
                               *[f"{s:.2f}" for s in a["prefix_after"]]], cols[1:]))
