import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import init_rnn, random_tokens, rnn_forward

cat, chases, dog = random_tokens(3, 8, seed=5)  # three (8,) vectors
a = np.stack([cat, chases, dog])                # (3, 8) cat chases dog
b = np.stack([dog, chases, cat])                # (3, 8) dog chases cat

out_a, _ = scaled_dot_product_attention(a, a, a)   # (3, 8)
out_b, _ = scaled_dot_product_attention(b, b, b)   # (3, 8)
# Compare each word's result, looked up by word, not by position:
print("attention, cat same in both:", np.allclose(out_a[0], out_b[2]))
print("attention, dog same in both:", np.allclose(out_a[2], out_b[0]))
print("attention, rows reordered:", np.allclose(out_a, out_b[::-1]))

w = init_rnn(8, 16, seed=0)
h_a = rnn_forward(a, *w)[-1]                    # (16,) after last word
h_b = rnn_forward(b, *w)[-1]                    # (16,)
print(f"RNN final states differ by: {np.linalg.norm(h_a - h_b):.2f}")
