"""6.2 The Illustrated Transformer's grids: the shape of every array in multi-head attention."""
import numpy as np

from attnkit import multi_head_attention, split_heads
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    # n 个词，每个 d_model 个数，分给 n_heads 个头 [zh]
    # n words of d_model numbers each, shared out among n_heads heads [en]
    # 返回三个形状（元组，和数组的 .shape 一样）： [zh]
    #   分好头的 Q，每个头的权重表，多头注意力最后的输出 [zh]
    # return three shapes (tuples, like an array's .shape): [en]
    #   Q split into heads, every head's table of weights, the output of multi-head attention [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    d_k = d_model // n_heads               # each head gets its share of the columns
    q = (n_heads, n, d_k)                  # one (n, d_k) grid per head
    weights = (n_heads, n, n)              # every word scores every word, in every head
    out = (n, d_model)                     # heads side by side again, then @ W_O
    return q, weights, out
'''


def expected(n, d_model, n_heads):
    """The shapes attnkit's own multi-head attention produces for a sentence of zeros."""
    x = np.zeros((n, d_model))                                   # (n, d_model)
    w = np.eye(d_model)                                          # (d_model, d_model)
    out, weights = multi_head_attention(x, w, w, w, w, n_heads)  # (n, d_model), (n_heads, n, n)
    return split_heads(x @ w, n_heads).shape, weights.shape, out.shape


EXERCISE = Exercise(
    id="ch6-grid-shapes",
    title={"zh": "图解里的格子：每个数组的形状", "en": "The grids of an illustration: every array’s shape"},
    function="grid_shapes",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(4, 8, 2), expected=expected(4, 8, 2),
             about={"zh": "4 个词，d_model = 8，2 个头", "en": "4 words, d_model = 8, 2 heads"},
             hint={"zh": "每个头只分到 d_model 的一份：d_k = d_model / n_heads。"
                         "最后各个头的结果并排拼回去，输出又是 (n, d_model)。",
                   "en": "Each head gets only its share of d_model: d_k = d_model / n_heads. At the end the heads "
                         "are put side by side again, so the output is (n, d_model)."}),
        Case(args=(10, 512, 8), expected=expected(10, 512, 8),
             about={"zh": "论文的尺寸：10 个词，d_model = 512，8 个头",
                    "en": "the paper's sizes: 10 words, d_model = 512, 8 heads"},
             hint={"zh": "权重表是每个词给每个词打的分：每个头一张 n × n 的表，和 d_k 无关。",
                   "en": "A table of weights holds what every word gives every word: n × n in each head, "
                         "whatever d_k is."}),
    ],
    wrong={
        "whole-width-heads": ('''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    return (n_heads, n, d_model), (n_heads, n, n), (n, d_model)
''', 0),
        "weights-n-by-d_k": ('''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    d_k = d_model // n_heads
    return (n_heads, n, d_k), (n_heads, n, d_k), (n, d_model)
''', 1),
    },
)
