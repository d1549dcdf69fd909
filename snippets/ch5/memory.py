from attnkit.cost import score_bytes, score_matrix

d_h = 512                                     # an RNN's hidden state: d_h numbers, whatever n is
print("     n   hidden state   n x n weights (measured)   x previous")
previous = None
for n in (256, 512, 1024, 2048):
    nbytes = score_matrix(n).nbytes           # the (n, n) array attention really allocates
    growth = f"x{nbytes / previous:.0f}" if previous else ""
    print(f"{n:6d}  {d_h * 8:9,d} B  {nbytes:18,d} B        {growth}".rstrip())
    previous = nbytes
print("n = 100,000 (float32, one head, one layer):", f"{score_bytes(100_000, 4) / 1e9:.0f} GB")
