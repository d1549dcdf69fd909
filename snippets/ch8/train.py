from attnkit import copy_results, tinygpt, training

b = training.BOOK                                     # 本书的设置 [zh]
b = training.BOOK                                     # the book's setup [en]
print(f"模型：{b['n_layers']} 层，{b['n_heads']} 个头，d_model = {b['d_model']}")       # [zh]
print(f"任务：{b['vocab_size']} 个字母，序列长 {2 * b['half']}")                        # [zh]
print(f"训练：Adam，学习率 {b['lr']}，每批 {b['batch']} 条，随机种子 {b['seed']}")      # [zh]
print(f"model: {b['n_layers']} layer, {b['n_heads']} heads, d_model = {b['d_model']}")  # [en]
print(f"task: {b['vocab_size']} letters, sequences of {2 * b['half']}")                 # [en]
print(f"training: Adam, learning rate {b['lr']}, batches of {b['batch']}, seed {b['seed']}")  # [en]
params, losses = training.trained(**b)    # Adam 练好的参数和每一步的损失（练过一次就记住） [zh]
params, losses = training.trained(**b)    # the parameters Adam trained and every step's loss (remembered once trained) [en]
for step in (1, 30, 60, b["steps"]):
    print(f"第 {step:3d} 步：损失 {losses[step - 1]:.4f}")   # [zh]
    print(f"step {step:3d}: loss {losses[step - 1]:.4f}")    # [en]
tokens, targets = copy_results.held_out(**b)        # 训练中从没见过的序列 [zh]
tokens, targets = copy_results.held_out(**b)        # sequences the training never saw [en]
fresh = training.untrained(**b)                      # 训练前的同一个模型 [zh]
fresh = training.untrained(**b)                      # the same model before training [en]
before = copy_results.accuracy(fresh, tokens, targets)
after = copy_results.accuracy(params, tokens, targets)
_, cache = tinygpt.forward(params, tokens)
weights = cache["h0"]["attn"]["weights"]             # (sequences, heads=2, n=11, n=11)
copy = copy_results.look_back(weights, b["half"])    # (2,)
print(f"{len(tokens)} 条新序列：准确率 训练前 {before:.1%}，训练后 {after:.1%}")          # [zh]
print("每个头放在要复制的那个词元上的权重：", copy.round(3))                            # [zh]
print(f"{len(tokens)} new sequences: accuracy {before:.1%} before, {after:.1%} after")   # [en]
print("weight each head puts on the token to copy:", copy.round(3))                     # [en]
