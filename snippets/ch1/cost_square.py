from attnkit.rnn import pairwise_connections

# One (n, n) score table per head and per layer, 4 bytes a number.
print("      n        n*n scores    float32    vs n/2")
for n in [500, 1_000, 2_000, 4_000, 100_000]:
    pairs = pairwise_connections(n, "attention")        # n * n
    ratio = pairs / pairwise_connections(n // 2, "attention")
    mb = pairs * 4 / 1e6                                # megabytes
    print(f"{n:7d}  {pairs:16,d}  {mb:9,.0f} MB   x{ratio:.0f}")
