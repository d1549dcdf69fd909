from attnkit.measure import scaling_experiment

# 随机的 q、k，每个分量方差为 1；每个查询 16 个键；2000 个查询；种子固定。 [zh]
# Random q, k with unit-variance entries; 16 keys per query; 2000 queries; fixed seed. [en]
m = scaling_experiment([1, 4, 16, 64, 256, 512], n_keys=16)

print(" d_k | var(q.k) | var(q.k/sqrt d_k) | 最大权重 不缩放 / 缩放 | 梯度 不缩放 / 缩放")  # [zh]
print(" d_k | var(q.k) | var(q.k/sqrt d_k) | top weight raw / scaled | gradient raw / scaled")  # [en]
for i, d_k in enumerate(m.d_k):
    print(f"{d_k:4d} | {m.var_raw[i]:8.1f} | {m.var_scaled[i]:17.2f} |"
          f" {m.max_raw[i]:10.3f} / {m.max_scaled[i]:.3f}  | {m.grad_raw[i]:9.3f} / {m.grad_scaled[i]:.3f}")
print(f"（16 个权重完全相等时：最大权重 {1 / m.n_keys:.4f}，梯度 {m.uniform_grad:.3f}）")  # [zh]
print(f"(16 equal weights would give top weight {1 / m.n_keys:.4f}, gradient {m.uniform_grad:.3f})")  # [en]
