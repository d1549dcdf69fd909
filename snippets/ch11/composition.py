from attnkit import induction
from attnkit.text import pad, row

c = induction.report()["composition"]   # 第 2 层每个头的前缀匹配分数 [zh]
c = induction.report()["composition"]   # the prefix-matching score of each layer-2 head [en]
cols = [26, 13, 13]
print(pad("第 1 层的头从哪里拿掉", 26) + row(["第2层头1", "第2层头2"], cols[1:]))   # [zh]
print(pad("layer-1 head removed from", 26) + row(["L2 head 1", "L2 head 2"], cols[1:]))   # [en]
print(pad("（哪里都不拿）", 26) + row([f"{s:.2f}" for s in c["none"]], cols[1:]))   # [zh]
print(pad("(nowhere)", 26) + row([f"{s:.2f}" for s in c["none"]], cols[1:]))   # [en]
where = {"k": "只从键", "q": "只从查询", "both": "键和查询都"}              # [zh]
where = {"k": "keys only", "q": "queries only", "both": "keys and queries"}   # [en]
for h in range(len(c["k"])):
    for part, words in where.items():
        name = f"头 {h + 1}，{words}"                    # [zh]
        name = f"head {h + 1}, {words}"                  # [en]
        print(pad(name, 26) + row([f"{s:.2f}" for s in c[part][h]], cols[1:]))
