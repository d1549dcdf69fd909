from attnkit.measure import scaling_experiment

# Random q, k with unit-variance entries; 16 keys per query; 2000 queries; fixed seed.
m = scaling_experiment([1, 4, 16, 64, 256, 512], n_keys=16)

print(" d_k | var(q.k) | var(q.k/sqrt d_k) | top weight raw / scaled | gradient raw / scaled")
for i, d_k in enumerate(m.d_k):
    print(f"{d_k:4d} | {m.var_raw[i]:8.1f} | {m.var_scaled[i]:17.2f} |"
          f" {m.max_raw[i]:10.3f} / {m.max_scaled[i]:.3f}  | {m.grad_raw[i]:9.3f} / {m.grad_scaled[i]:.3f}")
print(f"(16 equal weights would give top weight {1 / m.n_keys:.4f}, gradient {m.uniform_grad:.3f})")
