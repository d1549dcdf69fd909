from attnkit.rnn import pairwise_connections

# 每个头、每一层都有一张 (n, n) 的分数表，每个数占 4 字节。 [zh]
# One (n, n) score table per head and per layer, 4 bytes a number. [en]
print("      n         n*n 个分数   float32    比 n/2") # [zh]
print("      n        n*n scores    float32    vs n/2")  # [en]
for n in [500, 1_000, 2_000, 4_000, 100_000]:
    pairs = pairwise_connections(n, "attention")        # n * n
    ratio = pairs / pairwise_connections(n // 2, "attention")
    mb = pairs * 4 / 1e6                                # MB
    print(f"{n:7d}  {pairs:16,d}  {mb:9,.0f} MB   x{ratio:.0f}")
