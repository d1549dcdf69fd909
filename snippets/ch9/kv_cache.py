import numpy as np
from attnkit.kvcache import MODEL_SIZES, cache_bytes, cache_numbers, generate, init_decoder

# a small decoder-only model with random weights (attnkit.kvcache.DEMO_MODEL)
params = init_decoder(vocab_size=32, d_model=16, n_heads=2, n_layers=2, d_ff=64, seed=0)
prompt = [1, 2, 3]
plain = generate(params, prompt, n_new=8, use_cache=False)   # recompute everything each step
cached = generate(params, prompt, n_new=8, use_cache=True)   # keep K and V, compute one row
print("tokens, no cache:", plain.tokens)
print("tokens, KV cache:", cached.tokens)
print("largest logit difference:", np.abs(plain.logits - cached.logits).max())
print("multiply-adds per new token, no cache:", plain.macs[1:].tolist())
print("multiply-adds per new token, KV cache:", cached.macs[1:].tolist())
print("cache K, V:", cached.cache.k.shape, cached.cache.v.shape)   # (n_layers, n, d_model)

for name, m in MODEL_SIZES.items():          # one sequence at the model's full context
    numbers = cache_numbers(m["n_layers"], m["n_ctx"], m["d_model"])   # 2 * layers * n * d_model
    gib = cache_bytes(m["n_layers"], m["n_ctx"], m["d_model"], itemsize=2) / 2**30
    print(f"{name:17} n = {m['n_ctx']:5}  {numbers:>13,} numbers  {gib:6.3f} GiB (16-bit)")
