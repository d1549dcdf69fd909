from attnkit.rnn import pairwise_connections
from attnkit.text import row, wan

# 每个头、每一层都有一张 (n, n) 的分数表，每个数占 4 字节。 [zh]
# One (n, n) attention matrix per head and per layer, 4 bytes a number. [en]
print(row(["n", "n*n 个分数", "float32", "是 n/2 时的"], [7, 16, 12, 14]))  # [zh]
print(row(["n", "n*n scores", "float32", "vs n/2"], [7, 16, 12, 8]))  # [en]
for n in [500, 1_000, 2_000, 4_000, 100_000]:
    pairs = pairwise_connections(n, "attention")        # n * n
    ratio = pairs / pairwise_connections(n // 2, "attention")
    mb = pairs * 4 / 1e6                                # MB
    print(row([n, wan(pairs), f"{wan(mb)} MB", f"{ratio:.0f} 倍"], [7, 16, 12, 14]))  # [zh]
    print(row([n, f"{pairs:,d}", f"{mb:,.0f} MB", f"x{ratio:.0f}"], [7, 16, 12, 8]))  # [en]
