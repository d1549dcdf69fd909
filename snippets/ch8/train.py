from attnkit import tinygpt

print(tinygpt.BOOK)
params, losses = tinygpt.trained(**tinygpt.BOOK)     # 120 步 Adam（练过一次就记住） [zh]
params, losses = tinygpt.trained(**tinygpt.BOOK)     # 120 steps of Adam (remembered once trained) [en]
for step in (1, 30, 60, 120):
    print(f"第 {step:3d} 步：损失 {losses[step - 1]:.4f}")   # [zh]
    print(f"step {step:3d}: loss {losses[step - 1]:.4f}")    # [en]
tokens, targets = tinygpt.held_out(**tinygpt.BOOK)   # 训练中从没见过的序列 [zh]
tokens, targets = tinygpt.held_out(**tinygpt.BOOK)   # sequences the training never saw [en]
fresh = tinygpt.init(8, 16, 2, 1, 11, seed=0)          # 训练前的同一个模型 [zh]
fresh = tinygpt.init(8, 16, 2, 1, 11, seed=0)          # the same model before training [en]
before = tinygpt.accuracy(fresh, tokens, targets)
after = tinygpt.accuracy(params, tokens, targets)
_, cache = tinygpt.forward(params, tokens)
weights = cache["h0"]["attn"]["weights"]             # (sequences, heads=2, n=11, n=11)
copy = tinygpt.look_back(weights, half=6)             # (2,)
print(f"{len(tokens)} 条新序列：准确率 训练前 {before:.1%}，训练后 {after:.1%}")          # [zh]
print("每个头放在要复制的那个词元上的权重：", copy.round(3))                            # [zh]
print(f"{len(tokens)} new sequences: accuracy {before:.1%} before, {after:.1%} after")   # [en]
print("weight each head puts on the token to copy:", copy.round(3))                     # [en]
