import numpy as np
from attnkit import multi_head_attention
from attnkit.qa import PASSAGE, QUESTION, qa_weights, vectors
from attnkit.text import pad, width

lang = "zh"                                   # [zh]
lang = "en"                                   # [en]
question, passage = QUESTION[lang], PASSAGE[lang]
x = vectors(question, lang)                   # (n, d_model)：查询 [zh]
x = vectors(question, lang)                   # (n, d_model): queries [en]
memory = vectors(passage, lang)               # (n_kv, d_model)：键和值 [zh]
memory = vectors(passage, lang)               # (n_kv, d_model): keys, values [en]
w_q, w_k, w_v, w_o = qa_weights()             # 各 (d_model, d_model) [zh]
w_q, w_k, w_v, w_o = qa_weights()             # (d_model, d_model) each [en]
out, weights = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=1,
                                    memory=memory)   # (n, d), (heads, n, n_kv)
print(x.shape, memory.shape, "->", weights.shape)
cell = max(width(w) for w in passage + question) + 2     # 一个汉字占两列 [zh]
cell = max(width(w) for w in passage + question) + 2     # display columns per cell [en]
print(pad("", cell) + "".join(pad(w, cell, ">") for w in passage))
for word, row in zip(question, weights[0]):              # row: (n_kv,)
    cells = [pad(f"{100 * w:.0f}", cell, ">") for w in row]   # 百分数 [zh]
    cells = [pad(f"{100 * w:.0f}", cell, ">") for w in row]   # in percent [en]
    print(pad(word, cell, ">") + "".join(cells))

# 末尾补两行填充，填充掩码把它们挡住 [zh]
# two padding rows at the end, kept out by the padding mask [en]
padded = np.vstack([memory, np.zeros((2, memory.shape[1]))])   # (n_kv + 2, d_model)
real = np.array([True] * len(passage) + [False, False])        # (n_kv + 2,)
out_p, weights_p = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads=1,
                                        memory=padded, key_padding_mask=real)
print("填充位置的权重：", weights_p[0][:, ~real].max())                  # [zh]
print("和不填充时一样：", np.allclose(out_p, out, rtol=0, atol=1e-15))   # [zh]
print("weight on the padding:", weights_p[0][:, ~real].max())           # [en]
print("same as unpadded:", np.allclose(out_p, out, rtol=0, atol=1e-15)) # [en]
