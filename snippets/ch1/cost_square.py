from attnkit.rnn import pairwise_connections

# One (n, n) score matrix per head and per layer; 4 bytes per number (float32).
print("      n        n*n scores   float32 memory   vs n/2")
for n in [500, 1_000, 2_000, 4_000, 100_000]:
    pairs = pairwise_connections(n, "attention")           # n * n
    ratio = pairs / pairwise_connections(n // 2, "attention")
    print(f"{n:7d}  {pairs:16,d}   {pairs * 4 / 1e6:11,.0f} MB   x{ratio:.0f}")
