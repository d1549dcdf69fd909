import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import pairwise_connections, path_length, random_tokens, sequential_steps

# One attention call scores every pair of a 6-word sentence at once: no loop over words.
x = random_tokens(6, 8, seed=0)                  # (6, 8) six made-up word vectors
out, weights = scaled_dot_product_attention(x, x, x)   # (6, 8) @ (8, 6) -> (6, 6) weights
print("weights:", weights.shape, " every row sums to 1:", np.allclose(weights.sum(axis=1), 1))

print()
print("     n   RNN steps  attention steps   word 1 -> word n: RNN  attention   scores n*n")
for n in [6, 40, 1000, 100_000]:
    print(f"{n:6d}   {sequential_steps(n, 'rnn'):9d}  {sequential_steps(n, 'attention'):15d}"
          f"   {path_length(0, n - 1, 'rnn'):20d}  {path_length(0, n - 1, 'attention'):9d}"
          f"   {pairwise_connections(n, 'attention'):10d}")
