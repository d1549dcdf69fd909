"""2.1 A word's new meaning: the other words' vectors mixed by its attention weights."""
import numpy as np

from attnkit import softmax, toy
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
    # 句子里的每个词 [zh]
    # every word of the sentence [en]
    for j in range(len(weights)):
        # 词 j 的份量就是它的权重 [zh]
        # word j counts as much as its weight [en]
        mixed += weights[j] * values[j]
    return mixed                               # 和 weights @ values 一样 [zh]
    return mixed                               # the same as weights @ values [en]
'''

hungry = toy.run("cat-ball-hungry")           # the toy model of chapter 2, both rounds
round_1, round_2 = hungry.steps
cat, it = hungry.index("小猫"), hungry.index("它")


def held_out(rng):
    """Mixes the page does not list: random weights that add up to 1 and random vectors,
    never as many words as numbers per vector."""
    cases = []
    for n, d in ((5, 3), (3, 6)):
        w = softmax(rng.normal(scale=1.5, size=n))      # (n,) adds up to 1
        v = rng.normal(size=(n, d))                     # (n, d)
        cases.append(Case(args=(w, v), expected=w @ v,
                          about={"zh": f"随机的权重和向量：{n} 个词，每个 d = {d}",
                                 "en": f"random weights and vectors: {n} words, d = {d} each"},
                          hint={"zh": "把 values[j] 乘上 weights[j]，再把这 n 个乘积加起来。",
                                "en": "Multiply values[j] by weights[j] and add the n products up."}))
    return cases


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
    held_out=held_out,
    wrong={
        "divides-by-n": ('''\
import numpy as np

def mix(weights, values):
    return weights @ values / len(weights)
''', 0, {"zh": "你又除以了 n。权重本来就加起来是 1，加权求和以后不用再除。",
        "en": "You divided by n as well. The weights already add up to 1, so the weighted sum needs no division."}),
        "sums-each-word": ('''\
import numpy as np

def mix(weights, values):
    return np.sum(weights[:, None] * values, axis=1)
''', 0),
        "plain-average": ('''\
import numpy as np

def mix(weights, values):
    return np.mean(values, axis=0)
''', 1, {"zh": "你算的是普通平均，每个词一样重。要按权重混合：权重大的词占得多。",
        "en": "That is a plain average, every word counting the same. Mix by the weights: a word with a large "
              "weight counts for more."}),
    },
)
