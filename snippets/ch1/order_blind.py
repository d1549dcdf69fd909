import numpy as np
from attnkit import scaled_dot_product_attention
from attnkit.rnn import init_rnn, random_tokens, rnn_forward

cat, chases, dog = random_tokens(3, 8, seed=5)  # (8,) x 3
a = np.stack([cat, chases, dog])                # (3, 8) 猫 追 狗 [zh]
b = np.stack([dog, chases, cat])                # (3, 8) 狗 追 猫 [zh]
a = np.stack([cat, chases, dog])                # (3, 8) cat chases dog [en]
b = np.stack([dog, chases, cat])                # (3, 8) dog chases cat [en]

out_a, _ = scaled_dot_product_attention(a, a, a)   # (3, 8)
out_b, _ = scaled_dot_product_attention(b, b, b)   # (3, 8)
# 按词（而不是按位置）比较每个词的结果： [zh]
# Compare each word's result, looked up by word, not by position: [en]
print("注意力，两句里“猫”的结果相同：", np.allclose(out_a[0], out_b[2]))  # [zh]
print("注意力，两句里“狗”的结果相同：", np.allclose(out_a[2], out_b[0]))  # [zh]
print("注意力，只是行的顺序换了：", np.allclose(out_a, out_b[::-1]))      # [zh]
print("attention, cat same in both:", np.allclose(out_a[0], out_b[2]))  # [en]
print("attention, dog same in both:", np.allclose(out_a[2], out_b[0]))  # [en]
print("attention, rows reordered:", np.allclose(out_a, out_b[::-1]))    # [en]

w = init_rnn(8, 16, seed=0)
h_a = rnn_forward(a, *w)[-1]                    # (16,)
h_b = rnn_forward(b, *w)[-1]                    # (16,)
print(f"RNN 两句的最终状态相差：{np.linalg.norm(h_a - h_b):.2f}")  # [zh]
print(f"RNN final states differ by: {np.linalg.norm(h_a - h_b):.2f}")  # [en]
