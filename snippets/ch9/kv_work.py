from attnkit import tinygpt
from attnkit.kvcache import MODEL_SIZES, cache_bytes, cache_numbers, generate
from attnkit.text import pad, row

# 一个会数乘加次数的小解码器（attnkit.kvcache.DEMO_MODEL） [zh]
# a small decoder that counts its multiply-adds (attnkit.kvcache.DEMO_MODEL) [en]
params = tinygpt.init(vocab_size=32, d_model=16, n_heads=2, n_layers=2, n_ctx=256, seed=0)
prompt = [1, 2, 3]
plain = generate(params, prompt, n_new=8, use_cache=False)
cached = generate(params, prompt, n_new=8, use_cache=True)
print("词元相同：", plain.tokens == cached.tokens)                      # [zh]
print("每个新词的乘加，不用缓存：", plain.macs[1:].tolist())             # [zh]
print("每个新词的乘加，KV 缓存： ", cached.macs[1:].tolist())            # [zh]
print("same tokens:", plain.tokens == cached.tokens)                    # [en]
print("multiply-adds per new token, no cache:", plain.macs[1:].tolist())  # [en]
print("multiply-adds per new token, KV cache:", cached.macs[1:].tolist())  # [en]

# 一条序列写满上下文，16 位浮点数 [zh]
# one sequence at the full context, 16-bit floats [en]
names = {"transformer-base": "Transformer 基础版", "gpt2-small": "GPT-2 小模型", "llama2-7b": "Llama 2 7B"}  # [zh]
names = {"transformer-base": "Transformer base", "gpt2-small": "GPT-2 small", "llama2-7b": "Llama 2 7B"}    # [en]
cols = [20, 11, 14, 11]
header = ["模型", "上下文 n", "缓存的数", "字节"]         # [zh]
header = ["model", "context n", "numbers", "bytes"]    # [en]
print(pad(header[0], cols[0]) + row(header[1:], cols[1:]))
for name, m in MODEL_SIZES.items():
    numbers = cache_numbers(m["n_layers"], m["n_ctx"], m["d_model"])   # 2 * L * n * d_model
    gib = cache_bytes(m["n_layers"], m["n_ctx"], m["d_model"], itemsize=2) / 2**30
    print(pad(names[name], cols[0]) + row([m["n_ctx"], numbers, f"{gib:.3f} GiB"], cols[1:]))
