from attnkit import tinygpt

print(tinygpt.BOOK)
params, losses = tinygpt.trained(**tinygpt.BOOK)     # 120 steps of Adam (remembered once trained)
for step in (1, 30, 60, 120):
    print(f"step {step:3d}: loss {losses[step - 1]:.4f}")
tokens, targets = tinygpt.held_out(**tinygpt.BOOK)   # sequences the training never saw
fresh = tinygpt.init(8, 16, 2, 1, 11, seed=0)          # the same model before training
before = tinygpt.accuracy(fresh, tokens, targets)
after = tinygpt.accuracy(params, tokens, targets)
_, cache = tinygpt.forward(params, tokens)
weights = cache["h0"]["attn"]["weights"]             # (sequences, heads=2, n=11, n=11)
copy = tinygpt.look_back(weights, half=6)             # (2,) weight on the token to copy
report = "{} 条新序列：准确率 训练前 {:.1%}，训练后 {:.1%}"          # [zh]
report = "{} new sequences: accuracy {:.1%} before, {:.1%} after"   # [en]
heads = "每个头放在要复制的那个词上的权重："                          # [zh]
heads = "weight each head puts on the token to copy:"               # [en]
print(report.format(len(tokens), before, after))
print(heads, copy.round(3))
