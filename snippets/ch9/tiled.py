import numpy as np
from attnkit import causal_mask, scaled_dot_product_attention
from attnkit.tiled import EXAMPLE_SCORES, online_softmax_trace, peak_bytes, tiled_attention

t = online_softmax_trace(EXAMPLE_SCORES, block_size=4)   # one query, 12 keys, 3 blocks
for b in range(len(t)):
    print(f"keys {t.starts[b] + 1:2}-{t.stops[b]:2}: block max {t.block_max[b]:4.1f}  "
          f"m = {t.running_max[b]:4.1f}  l = {t.running_sum[b]:.4f}")
print("weights:", t.weights.round(3))

rng = np.random.default_rng(0)
q, k, v = rng.normal(size=(3, 1000, 64))      # n = 1000 tokens, not a multiple of the block
full, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(1000))   # (1000, 64)
tiled = tiled_attention(q, k, v, block_size=128, causal=True)             # (1000, 64)
print("largest difference:", np.abs(full - tiled).max())
full_bytes = peak_bytes(lambda: scaled_dot_product_attention(q, k, v))
tiled_bytes = peak_bytes(lambda: tiled_attention(q, k, v, block_size=128))
print(f"peak extra memory, all at once: {full_bytes / 2**20:5.1f} MiB")
print(f"peak extra memory, tiled:       {tiled_bytes / 2**20:5.1f} MiB")
