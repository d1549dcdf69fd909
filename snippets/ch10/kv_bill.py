from attnkit.kv_bytes import MODELS, gib, kv_bytes_per_token, kv_cache_bytes
from attnkit.serving import GPU_BYTES, users, weight_bytes, weight_count
from attnkit.text import pad, row

# Llama 3 8B 的 config.json 里的数 [zh]
# the numbers of Llama 3 8B's config.json [en]
m = MODELS["llama-3-8b"]
# 一个词元、一层：一个键和一个值，各 n_kv_heads × head_dim 个数 [zh]
# one token, one layer: a key and a value, n_kv_heads x head_dim each [en]
per_layer = 2 * m.n_kv_heads * m.head_dim
# 每个数 2 字节（bf16），乘上 32 层 [zh]
# 2 bytes a number (bf16), times 32 layers [en]
per_token = kv_bytes_per_token("llama-3-8b", "bf16")
weights = weight_bytes("llama-3-8b", "bf16")
print(f"每个词元每层：2 × {m.n_kv_heads} × {m.head_dim} = {per_layer} 个数")   # [zh]
print(f"每个词元：{per_token} 字节 = {per_token // 1024} KiB")   # [zh]
print(f"权重：{weight_count('llama-3-8b') / 1e8:.1f} 亿个数，{gib(weights):.2f} GiB")   # [zh]
print(f"per token per layer: 2 x {m.n_kv_heads} x {m.head_dim} = {per_layer}")   # [en]
print(f"per token: {per_token} bytes = {per_token // 1024} KiB")   # [en]
print(f"weights: {weight_count('llama-3-8b') / 1e9:.2f} billion numbers, {gib(weights):.2f} GiB")  # [en]
print()
# 一位用户一份缓存；80 GB 的 GPU 放下权重以后还能放几份 [zh]
# one cache per user; how many fit on an 80 GB GPU beside the weights [en]
cols = [9, 12, 12, 10, 10]
header = ["上下文", "缓存 GiB", "缓存/权重", "用户数", "若用 MHA"]           # [zh]
header = ["context", "cache GiB", "/weights", "users", "if MHA"]            # [en]
print(pad(header[0], cols[0]) + row(header[1:], cols[1:]))
for n in (8192, 32768, 131072):
    cache = kv_cache_bytes("llama-3-8b", n, "bf16")
    fit = users("llama-3-8b", n, GPU_BYTES)
    fit_mha = users("llama-3-8b", n, GPU_BYTES, attention="mha")
    cells = [f"{gib(cache):.2f}", f"{cache / weights:.2f}", fit, fit_mha]
    print(pad(n, cols[0]) + row(cells, cols[1:]))
