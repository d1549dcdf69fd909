import numpy as np
from attnkit import causal_mask, scaled_dot_product_attention
from attnkit.text import sci
from attnkit.tiled import EXAMPLE_SCORES, online_softmax_trace, peak_bytes, tiled_attention

t = online_softmax_trace(EXAMPLE_SCORES, block_size=4)   # 1 个查询、12 个键、3 块 [zh]
t = online_softmax_trace(EXAMPLE_SCORES, block_size=4)   # 1 query, 12 keys, 3 blocks [en]
for b in range(len(t)):
    print(f"第 {b + 1} 块（键 {t.starts[b] + 1} 到 {t.stops[b]}）：最大得分 {t.block_max[b]:.1f}，"   # [zh]
          f"m = {t.running_max[b]:.1f}，l = {t.running_sum[b]:.4f}")                                  # [zh]
    print(f"{t.starts[b] + 1:2}-{t.stops[b]:2}: max {t.block_max[b]:4.1f}  "                          # [en]
          f"m = {t.running_max[b]:4.1f}  l = {t.running_sum[b]:.4f}")                                  # [en]
print(t.weights.round(3))

rng = np.random.default_rng(0)
q, k, v = rng.normal(size=(3, 1000, 64))      # 3 × (1000, 64)
full, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(1000))   # (1000, 64)
tiled = tiled_attention(q, k, v, block_size=128, causal=True)             # (1000, 64)
full_mib = peak_bytes(lambda: scaled_dot_product_attention(q, k, v)) / 2**20
tiled_mib = peak_bytes(lambda: tiled_attention(q, k, v, block_size=128)) / 2**20
print("最大差：", sci(np.abs(full - tiled).max(), 1))               # [zh]
print(f"峰值额外内存：一次算完 {full_mib:.0f} MiB，分块 {tiled_mib:.0f} MiB")   # [zh]
print("largest difference:", sci(np.abs(full - tiled).max(), 1))    # [en]
print(f"peak extra memory: all at once {full_mib:.0f} MiB, tiled {tiled_mib:.0f} MiB")  # [en]
