"""4.1 Split the model's width into heads."""
import numpy as np

from attnkit import split_heads
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def split_heads(x, n_heads):
    # x: (n, d_model)，n_heads 整除 d_model [zh]
    # x: (n, d_model), and n_heads divides d_model [en]
    # 返回 (n_heads, n, d_head)：第 h 个头拿到第 h 段 d_head 列 [zh]
    # return (n_heads, n, d_head): head h gets the h-th run of d_head columns [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def split_heads(x, n_heads):
    n, d_model = x.shape
    d_head = d_model // n_heads
    x = x.reshape(n, n_heads, d_head)   # (n, n_heads, d_head)：每一行切成 n_heads 段 [zh]
    x = x.reshape(n, n_heads, d_head)   # (n, n_heads, d_head): cut each row into n_heads pieces [en]
    return x.transpose(1, 0, 2)         # (n_heads, n, d_head)
'''

x1 = np.arange(12.0).reshape(3, 4)     # (n=3, d_model=4): 0..11, so every number says where it came from
x2 = np.arange(24.0).reshape(3, 8)      # (n=3, d_model=8)


def held_out(rng):
    """Splits the page does not list: random widths, never as many words as heads."""
    cases = []
    for n, n_heads, d_head in ((5, 2, 3), (2, 3, 2)):
        x = rng.integers(-9, 10, size=(n, n_heads * d_head)).astype(float)   # (n, d_model)
        cases.append(Case(args=(x, n_heads), expected=split_heads(x, n_heads),
                          about={"zh": f"{n} 个词、宽 {n_heads * d_head}、{n_heads} 个头",
                                 "en": f"{n} words, width {n_heads * d_head}, {n_heads} heads"},
                          hint={"zh": "先 reshape 成 (n, n_heads, d_head)，再交换前两个轴。",
                                "en": "Reshape to (n, n_heads, d_head), then swap the first two axes."}))
    return cases


EXERCISE = Exercise(
    id="ch4-split-heads",
    title={"zh": "把宽度切成多个头", "en": "Split the width into heads"},
    function="split_heads",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(x1, 2), expected=split_heads(x1, 2),
             about={"zh": "三个词、宽 4、两个头", "en": "three words, width 4, two heads"},
             hint={"zh": "形状对了数却不对，通常是直接 reshape 成 (n_heads, n, d_head)：那样切的是整段内存，"
                         "头 1 拿到的是第一个词的全部列。先 reshape 成 (n, n_heads, d_head)，再交换前两个轴。",
                   "en": "The right shape with the wrong numbers usually means a direct reshape to (n_heads, n, "
                         "d_head): that cuts memory in order, so head 1 gets all of the first word's columns. "
                         "Reshape to (n, n_heads, d_head) first, then swap the first two axes."}),
        Case(args=(x2, 4), expected=split_heads(x2, 4),
             about={"zh": "三个词、宽 8、四个头", "en": "three words, width 8, four heads"},
             hint={"zh": "d_head = d_model // n_heads，这里是 2；返回的形状应是 (n_heads, n, d_head)。",
                   "en": "d_head = d_model // n_heads, here 2; the result's shape is (n_heads, n, d_head)."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.split_heads",),
    wrong={
        "plain-reshape": ('''\
import numpy as np

def split_heads(x, n_heads):
    n, d_model = x.shape
    return x.reshape(n_heads, n, d_model // n_heads)
''', 0, {"zh": "形状对了，数却不对：直接 reshape 成 (n_heads, n, d_head) 切的是整段内存，头 1 拿到的是第一个词的全部列。"
              "先 reshape 成 (n, n_heads, d_head)，再交换前两个轴。",
        "en": "The right shape with the wrong numbers: a direct reshape to (n_heads, n, d_head) cuts memory in order, "
              "so head 1 gets all of the first word's columns. Reshape to (n, n_heads, d_head) first, then swap the "
              "first two axes."}),
        "words-first": ('''\
import numpy as np

def split_heads(x, n_heads):
    n, d_model = x.shape
    return x.reshape(n, n_heads, d_model // n_heads)
''', 0),
        "calls-attnkit": ('''\
from attnkit import split_heads
''', 0, None, "library"),
    },
)
