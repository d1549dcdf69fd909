"""2.2 A row of vectors in, a row out: every word's new vector at once."""
import numpy as np

from attnkit import toy
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def whole_row(weights, values):
    # weights：注意力权重表，形状 (n, n)：第 i 行是第 i 个词分给每个词的权重 [zh]
    # weights: the table of attention weights, shape (n, n): row i is what word i gives every word [en]
    # values：每个词拿出来的向量，形状 (n, d) [zh]
    # values: the vector each word offers, shape (n, d) [en]
    # 返回每个词的新向量，一排进、一排出：形状 (n, d) [zh]
    # return every word's new vector, a row in and a row out: shape (n, d) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def whole_row(weights, values):
    out = np.zeros(values.shape)               # (n, d) one new vector per word
    for i in range(len(weights)):              # every word, and none waits for another
        out[i] = weights[i] @ values           # (n,) @ (n, d) -> (d,) word i mixes by its own row
    return out                                 # the same as weights @ values, all at once
'''

hungry = toy.run("cat-ball-hungry").steps[1]     # round 2 of chapter 2's toy model
fun = toy.run("cat-ball-fun").steps[1]

EXERCISE = Exercise(
    id="ch2-whole-row",
    title={"zh": "一排进，一排出", "en": "A row in, a row out"},
    function="whole_row",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(hungry.weights, hungry.v), expected=hungry.out,
             about={"zh": "玩具模型第 2 轮的整张权重表，7 个词", "en": "a whole table of the toy model's round 2, 7 words"},
             hint={"zh": "第 i 个词的新向量按第 i 行的权重混合：out[i] = weights[i] @ values。"
                         "每个词都要算一个，结果是 (n, d)。",
                   "en": "Word i's new vector mixes the values by row i of the weights: out[i] = weights[i] @ "
                         "values. Every word gets one, so the result is (n, d)."}),
        Case(args=(fun.weights, fun.v), expected=fun.out,
             about={"zh": "换一句话：8 个词", "en": "another sentence: 8 words"},
             hint={"zh": "词数 n 每句都不一样：用 len(weights) 或 weights.shape[0]，别写死成 7。",
                   "en": "The number of words n changes from sentence to sentence: use len(weights) or "
                         "weights.shape[0], not a fixed 7."}),
    ],
    wrong={
        "columns": ('''\
import numpy as np

def whole_row(weights, values):
    return weights.T @ values
''', 0),
        "one-word": ('''\
import numpy as np

def whole_row(weights, values):
    return weights[0] @ values
''', 0),
        "seven-words": ('''\
import numpy as np

def whole_row(weights, values):
    out = np.zeros((7, values.shape[1]))
    for i in range(7):
        out[i] = weights[i] @ values
    return out
''', 1),
    },
)
