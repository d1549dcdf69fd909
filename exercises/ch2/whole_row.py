"""2.2 A row of vectors in, a row out: every word's new vector at once."""
import numpy as np

from attnkit import softmax, toy
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
    out = np.zeros(values.shape)               # (n, d) 每个词一个新向量 [zh]
    out = np.zeros(values.shape)               # (n, d) one new vector per word [en]
    # 每个词都算，谁也不用等谁 [zh]
    # every word, and none waits for another [en]
    for i in range(len(weights)):
        out[i] = weights[i] @ values           # (n,) @ (n, d) -> (d,) 词 i 按自己那一行混合 [zh]
        out[i] = weights[i] @ values           # (n,) @ (n, d) -> (d,) word i mixes by its own row [en]
    return out                                 # 和 weights @ values 一样，一次算完 [zh]
    return out                                 # the same as weights @ values, all at once [en]
'''

hungry = toy.run("cat-ball-hungry").steps[1]     # round 2 of chapter 2's toy model
fun = toy.run("cat-ball-fun").steps[1]


def held_out(rng):
    """Tables the page does not list: random rows of weights (each adding up to 1), not 7 words."""
    cases = []
    for n, d in ((4, 3), (9, 2)):
        w = softmax(rng.normal(scale=1.5, size=(n, n)), axis=1)   # (n, n) each row adds up to 1
        v = rng.normal(size=(n, d))                               # (n, d)
        cases.append(Case(args=(w, v), expected=w @ v,
                          about={"zh": f"随机的权重表，{n} 个词，d = {d}", "en": f"a random table of weights, {n} words, d = {d}"},
                          hint={"zh": "out[i] = weights[i] @ values，对每个词 i 都算一次，结果是 (n, d)。",
                                "en": "out[i] = weights[i] @ values for every word i; the result is (n, d)."}))
    return cases


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
    held_out=held_out,
    wrong={
        "columns": ('''\
import numpy as np

def whole_row(weights, values):
    return weights.T @ values
''', 0, {"zh": "你按列混合了（weights.T）。第 i 个词的新向量用的是第 i 行：它分给每个词的权重。",
        "en": "You mixed by the columns (weights.T). Word i's new vector uses row i: the shares word i gives "
              "every word."}),
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
