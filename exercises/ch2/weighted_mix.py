"""2.1 A word's new meaning: the other words' vectors mixed by its attention weights."""
import numpy as np

from attnkit import toy
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def mix(weights, values):
    # weights：一个词分给句子里每个词的注意力权重，形状 (n,)，加起来是 1 [zh]
    # weights: the attention one word gives each word of the sentence, shape (n,), adding up to 1 [en]
    # values：每个词拿出来的向量，形状 (n, d)，第 j 行属于第 j 个词 [zh]
    # values: the vector each word offers, shape (n, d); row j belongs to word j [en]
    # 返回按权重混合以后的向量，形状 (d,) [zh]
    # return the vectors mixed by the weights, shape (d,) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def mix(weights, values):
    mixed = np.zeros(values.shape[1])          # (d,)
    for j in range(len(weights)):              # every word of the sentence
        mixed += weights[j] * values[j]        # word j counts as much as its weight
    return mixed                               # the same as weights @ values
'''

hungry = toy.run("cat-ball-hungry")           # the toy model of chapter 2, both rounds
round_1, round_2 = hungry.steps
cat, it = hungry.index("小猫"), hungry.index("它")

EXERCISE = Exercise(
    id="ch2-weighted-mix",
    title={"zh": "按权重混合：一个词的新意思", "en": "Mixing by the weights: one word’s new meaning"},
    function="mix",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(round_1.weights[cat], round_1.v), expected=round_1.out[cat],
             about={"zh": "玩具模型里一个平均看每个词的词（7 个词，每个 d = 10）",
                    "en": "a toy-model word that looks at every word equally (7 words, d = 10 each)"},
             hint={"zh": "把每个词的向量 values[j] 乘上它的权重 weights[j]，再把这 n 个乘积加起来（沿着词的方向，"
                         "axis=0），得到 d 个数。权重本来就加起来是 1，不用再除以 n。",
                   "en": "Multiply each word's vector values[j] by its weight weights[j] and add the n products "
                         "up (across the words, axis=0), which leaves d numbers. The weights already add up to 1, "
                         "so there is nothing to divide by."}),
        Case(args=(round_2.weights[it], round_2.v), expected=round_2.out[it],
             about={"zh": "玩具模型第 2 轮里代词那一行：大部分权重在一个词上",
                    "en": "the pronoun's row in the toy model's round 2: most of the weight on one word"},
             hint={"zh": "这是加权平均，不是普通平均：权重大的词占得多，权重小的词占得少。",
                   "en": "This is a weighted average, not a plain one: a word with a large weight counts for more, "
                         "one with a small weight for less."}),
    ],
    wrong={
        "divides-by-n": ('''\
import numpy as np

def mix(weights, values):
    return weights @ values / len(weights)
''', 0),
        "sums-each-word": ('''\
import numpy as np

def mix(weights, values):
    return np.sum(weights[:, None] * values, axis=1)
''', 0),
        "plain-average": ('''\
import numpy as np

def mix(weights, values):
    return np.mean(values, axis=0)
''', 1),
    },
)
