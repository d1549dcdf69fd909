"""5.3 Reading a heatmap: which word does each word look at most?"""
import numpy as np

from attnkit import softmax, toy
from attnkit.cost import score_matrix
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def looks_at(weights):
    # weights：一个头的注意力权重表，形状 (n, n)：行是正在看的词，列是被看的词 [zh]
    # weights: one head's table of attention weights, shape (n, n): rows are the words looking, columns the words looked at [en]
    # 对每个正在看的词，返回它份额最大的那个词的位置（从 0 数起），形状 (n,) [zh]
    # for each word that looks, return the position (counting from 0) of the word it gives the largest share, shape (n,) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def looks_at(weights):
    return np.argmax(weights, axis=1)     # (n, n) -> (n,) 每一行最深的那一格 [zh]
    return np.argmax(weights, axis=1)     # (n, n) -> (n,) the darkest cell of each row [en]
'''

hungry = toy.run("cat-ball-hungry")       # the heatmap of 5.3: round 2 of the toy model
tops = np.array([hungry.index(hungry.top(t)) for t in hungry.tokens])   # (n,) attnkit's own reading
random_head = score_matrix(6, d_k=4, seed=3)                            # (6, 6) a random head


def darkest_per_row(weights):
    """The column of the largest share in each row, as attnkit.toy's Result.top reads a row."""
    return np.array([int(np.argmax(row)) for row in weights])           # (n,)


def held_out(rng):
    """Heatmaps the page does not list: random heads, whose darkest cell per row is not the one per column."""
    cases = []
    for n in (4, 8):
        while True:
            w = softmax(rng.normal(scale=2.0, size=(n, n)), axis=1)       # (n, n) each row adds up to 1
            if not np.array_equal(np.argmax(w, axis=0), np.argmax(w, axis=1)):
                break
        cases.append(Case(args=(w,), expected=darkest_per_row(w),
                          about={"zh": f"一个随机的头（{n} 个词）", "en": f"a random head ({n} words)"},
                          hint={"zh": "每一行找最大的那一格，返回它的位置（列号，从 0 数起）。",
                                "en": "In each row find the largest cell and return its position (its column, "
                                      "counting from 0)."}))
    return cases


EXERCISE = Exercise(
    id="ch5-read-heatmap",
    title={"zh": "读热力图：每个词最看重谁", "en": "Reading a heatmap: whom each word heeds most"},
    function="looks_at",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(hungry.steps[1].weights,), expected=tops,
             about={"zh": "玩具模型第 2 轮的热力图（7 个词）", "en": "a heatmap of the toy model's round 2 (7 words)"},
             hint={"zh": "行是正在看的词：在每一行里找最大的那一格（是每一行，不是每一列），"
                         "每个词一个答案，共 n 个。",
                   "en": "Rows are the words doing the looking: find the largest cell within each row "
                         "(each row, not each column), one answer per word, n in all."}),
        Case(args=(random_head,), expected=darkest_per_row(random_head),
             about={"zh": "一个随机的头（6 个词）", "en": "a random head (6 words)"},
             hint={"zh": "答案是位置（0、1、2……），不是份额本身。",
                   "en": "The answer is a position (0, 1, 2, ...), not the share itself."}),
    ],
    held_out=held_out,
    wrong={
        "columns": ('''\
import numpy as np

def looks_at(weights):
    return np.argmax(weights, axis=0)
''', 0, {"zh": "你在每一列里找了最大值（axis=0）。行是正在看的词：要在每一行里找（axis=1）。",
        "en": "You looked for the largest cell in each column (axis=0). Rows are the words doing the looking: "
              "search each row (axis=1)."}),
        "one-answer": ('''\
import numpy as np

def looks_at(weights):
    return np.argmax(weights)
''', 0),
        "shares": ('''\
import numpy as np

def looks_at(weights):
    return np.max(weights, axis=1)
''', 0, {"zh": "你返回的是最大的份额本身。要返回它在哪一列：np.argmax，不是 np.max。",
        "en": "You returned the largest shares themselves. Return where they are, their columns: np.argmax, "
              "not np.max."}),
    },
)
