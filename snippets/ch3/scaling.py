from attnkit.measure import scaling_experiment
from attnkit.text import pad, row

# 随机的 q、k，每个分量方差为 1；每个查询 16 个键；2000 个查询；种子固定。 [zh]
# Random q, k with unit-variance entries; 16 keys per query; 2000 queries; fixed seed. [en]
m = scaling_experiment([1, 4, 16, 64, 256, 512], n_keys=16)

cols = [4, 12, 20, 11, 8, 10, 8]
print((" " * 36 + pad("最大权重", 19, "^") + pad("梯度", 18, "^")).rstrip())      # [zh]
print(row(["d_k", "点积的方差", "缩放后的方差", "不缩放", "缩放", "不缩放", "缩放"], cols))  # [zh]
print((" " * 36 + pad("top weight", 19, "^") + pad("gradient", 18, "^")).rstrip())  # [en]
print(row(["d_k", "var(q.k)", "var(q.k/sqrt d_k)", "raw", "scaled", "raw", "scaled"], cols))  # [en]
for i, d_k in enumerate(m.d_k):
    print(row([d_k, f"{m.var_raw[i]:.1f}", f"{m.var_scaled[i]:.2f}", f"{m.max_raw[i]:.3f}",
               f"{m.max_scaled[i]:.3f}", f"{m.grad_raw[i]:.3f}", f"{m.grad_scaled[i]:.3f}"], cols))
print(f"（16 个权重完全相等时：最大权重 {1 / m.n_keys:.4f}，梯度 {m.uniform_grad:.3f}）")  # [zh]
print(f"(16 equal weights would give top weight {1 / m.n_keys:.4f}, gradient {m.uniform_grad:.3f})")  # [en]
