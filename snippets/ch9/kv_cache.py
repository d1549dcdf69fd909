import numpy as np
from attnkit import kvcache, tinygpt, training
from attnkit.copytask import spell
from attnkit.text import sci

params, _ = training.trained(**training.BOOK)  # 第 8 章训练好的抄写模型 [zh]
params, _ = training.trained(**training.BOOK)  # chapter 8's model, trained to copy [en]
prompt = [2, 0, 1, 5, 4, 3]                   # "CABFED"
half = training.BOOK["half"]                  # 6：写满后半句 [zh]
half = training.BOOK["half"]                  # 6: the whole second half [en]
plain = tinygpt.generate(params, prompt, n_new=half)   # 每步整段重算 [zh]
plain = tinygpt.generate(params, prompt, n_new=half)   # reruns everything each step [en]
cached = kvcache.generate(params, prompt, n_new=half)  # 留着 K、V，只算一行 [zh]
cached = kvcache.generate(params, prompt, n_new=half)  # keeps K and V, one row per step [en]
seq = np.array(cached.tokens)
redo = np.array([tinygpt.forward(params, [seq[:half + i]])[0][0, -1] for i in range(half)])  # (6, V)
diff = np.abs(redo - cached.logits).max()

print("不用缓存：", spell(plain))                              # [zh]
print("KV 缓存： ", spell(cached.tokens))                      # [zh]
print("词元相同：", plain.tolist() == cached.tokens)           # [zh]
print("logits 最大差：", sci(diff, 1))                         # [zh]
print("no cache:", spell(plain))                               # [en]
print("KV cache:", spell(cached.tokens))                       # [en]
print("same tokens:", plain.tolist() == cached.tokens)         # [en]
print("largest logit difference:", sci(diff, 1))               # [en]
print("K, V:", cached.cache.k.shape, cached.cache.v.shape)     # (n_layers, n, d_model)
