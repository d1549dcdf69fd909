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
    # 头的轴在最前面：分好头的 Q 是 (头数, 词数, 每个头的宽度) [zh]
    # return three shapes (tuples, like an array's .shape): [en]
    #   Q split into heads, every head's table of weights, the output of multi-head attention [en]
    # the heads' axis comes first: Q split into heads is (heads, words, each head's width) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    d_k = d_model // n_heads               # 每个头分到一份列 [zh]
    d_k = d_model // n_heads               # each head gets its share of the columns [en]
    q = (n_heads, n, d_k)                  # 每个头一张 (n, d_k) 的格子 [zh]
    q = (n_heads, n, d_k)                  # one (n, d_k) grid per head [en]
    weights = (n_heads, n, n)              # 每个头里，每个词给每个词打分 [zh]
    weights = (n_heads, n, n)              # every word scores every word, in every head [en]
    out = (n, d_model)                     # 各个头并排拼回去，再乘 W_O [zh]
    out = (n, d_model)                     # heads side by side again, then @ W_O [en]
    return q, weights, out
'''


def expected(n, d_model, n_heads):
    """The shapes attnkit's own multi-head attention produces for a sentence of zeros."""
    x = np.zeros((n, d_model))                                   # (n, d_model)
    w = np.eye(d_model)                                          # (d_model, d_model)
    out, weights = multi_head_attention(x, w, w, w, w, n_heads)  # (n, d_model), (n_heads, n, n)
    return split_heads(x @ w, n_heads).shape, weights.shape, out.shape


def held_out(rng):
    """Sizes the page does not list: never as many words as heads, nor as d_k."""
    cases = []
    for n, n_heads, d_k in ((int(rng.integers(5, 30)), 4, 3), (3, 6, int(rng.choice([16, 32, 64])))):
        cases.append(Case(args=(n, n_heads * d_k, n_heads), expected=expected(n, n_heads * d_k, n_heads),
                          about={"zh": f"{n} 个词，d_model = {n_heads * d_k}，{n_heads} 个头",
                                 "en": f"{n} words, d_model = {n_heads * d_k}, {n_heads} heads"},
                          hint={"zh": "Q：(n_heads, n, d_model // n_heads)；权重：(n_heads, n, n)；输出：(n, d_model)。",
                                "en": "Q: (n_heads, n, d_model // n_heads); weights: (n_heads, n, n); output: (n, d_model)."}))
    return cases


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
    held_out=held_out,
    forbidden=("attnkit.core.multi_head_attention", "attnkit.core.split_heads"),
    wrong={
        "whole-width-heads": ('''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    return (n_heads, n, d_model), (n_heads, n, n), (n, d_model)
''', 0, {"zh": "每个头只分到 d_model 的一份：d_k = d_model / n_heads，不是整个 d_model。",
        "en": "Each head gets only its share of d_model: d_k = d_model / n_heads, not the whole d_model."}),
        "words-first": ('''\
def grid_shapes(n, d_model, n_heads):
    d_k = d_model // n_heads
    return (n, n_heads, d_k), (n_heads, n, n), (n, d_model)
''', 0, {"zh": "轴的顺序不对：头的轴在最前面，分好头的 Q 是 (n_heads, n, d_k)，不是 (n, n_heads, d_k)。"
              "reshape 成 (n, n_heads, d_k) 以后还要交换前两个轴。",
        "en": "The axes are in the wrong order: the heads come first, so Q split into heads is (n_heads, n, d_k), "
              "not (n, n_heads, d_k). After the reshape to (n, n_heads, d_k), the first two axes are swapped."}),
        "weights-n-by-d_k": ('''\
import numpy as np

def grid_shapes(n, d_model, n_heads):
    d_k = d_model // n_heads
    return (n_heads, n, d_k), (n_heads, n, d_k), (n, d_model)
''', 1, {"zh": "权重表是每个词给每个词打的分：每个头一张 n × n 的表，和 d_k 无关。",
        "en": "A table of weights holds what every word gives every word: n × n in each head, whatever d_k is."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit import multi_head_attention, split_heads

def grid_shapes(n, d_model, n_heads):
    x, w = np.zeros((n, d_model)), np.eye(d_model)
    out, weights = multi_head_attention(x, w, w, w, w, n_heads)
    return split_heads(x, n_heads).shape, weights.shape, out.shape
''', 0, None, "library"),
    },
)
