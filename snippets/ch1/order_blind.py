import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import init_rnn, random_tokens, rnn_forward

cat, chases, dog = random_tokens(3, 8, seed=5)   # three word vectors, (8,) each
a = np.stack([cat, chases, dog])                 # (3, 8) "cat chases dog"
b = np.stack([dog, chases, cat])                 # (3, 8) "dog chases cat"

out_a, _ = scaled_dot_product_attention(a, a, a)    # (3, 8)
out_b, _ = scaled_dot_product_attention(b, b, b)    # (3, 8)
# The result for each word, looked up by word rather than by position:
print("attention, 'cat' in both sentences: ", np.allclose(out_a[0], out_b[2]))
print("attention, 'dog' in both sentences: ", np.allclose(out_a[2], out_b[0]))
print("attention, all rows, reordered:     ", np.allclose(out_a, out_b[::-1]))

w = init_rnn(8, 16, seed=0)
h_a, h_b = rnn_forward(a, *w)[-1], rnn_forward(b, *w)[-1]   # (16,) state after the last word
print("RNN final states differ by:         ", f"{np.linalg.norm(h_a - h_b):.2f}")
