"""12.3 Top-p (nucleus) filtering: keep the fewest likeliest tokens whose probabilities reach p."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.sampling import top_p_filter

STARTER = '''\
import numpy as np

def top_p(probs, p):
    # probs：下一个词元的概率，形状 (V,)，加起来是 1；p：0 到 1 之间的阈值 [zh]
    # probs: the next token's probabilities, shape (V,), summing to 1; p: a threshold in (0, 1] [en]
    # 留下最可能的那几个词元，个数尽量少，但它们的概率加起来要 >= p； [zh]
    # keep the fewest most likely tokens whose probabilities add up to >= p; [en]
    # 其余的变成 0，再把留下的重新归一化（加起来是 1） [zh]
    # set the rest to 0, then renormalise what is kept (so it sums to 1) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def top_p(probs, p):
    order = np.argsort(-probs, kind="stable")        # most likely first; ties: smaller id first
    total = np.cumsum(probs[order])                  # probability of the 1, 2, 3 ... most likely
    n_kept = int(np.searchsorted(total, p - 1e-12)) + 1   # the first count that reaches p
    kept = np.zeros_like(probs)
    kept[order[:n_kept]] = probs[order[:n_kept]]
    return kept / kept.sum()
'''

SPREAD = (np.array([0.05, 0.4, 0.25, 0.2, 0.1]), 0.8)     # 0.4 + 0.25 + 0.2 = 0.85 >= 0.8
EXACT = (np.array([0.5, 0.25, 0.125, 0.125]), 0.75)       # 0.5 + 0.25 reaches 0.75 exactly
ALL = (np.array([0.7, 0.2, 0.1]), 1.0)                    # p = 1 keeps every token

EXERCISE = Exercise(
    id="ch12-top-p",
    title={"zh": "top-p 过滤：留下累计概率到 p 的那几个", "en": "Top-p filtering: keep the few that reach p"},
    function="top_p",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=SPREAD, expected=top_p_filter(*SPREAD),
             about={"zh": "概率没有按大小排好", "en": "the probabilities are not sorted"},
             hint={"zh": "先按概率从大到小排（np.argsort(-probs)），再累加；留下的是最可能的那几个，不是排在前面的那几个。",
                   "en": "Sort by probability, largest first (np.argsort(-probs)), then add up: keep the likeliest, not the first few in the list."}),
        Case(args=EXACT, expected=top_p_filter(*EXACT),
             about={"zh": "累计概率正好等于 p", "en": "the running total hits p exactly"},
             hint={"zh": "加到正好等于 p 就够了：0.5 + 0.25 = 0.75，留两个。用 >= p，不是 > p。",
                   "en": "Reaching p exactly is enough: 0.5 + 0.25 = 0.75 keeps two. Use >= p, not > p."}),
        Case(args=ALL, expected=top_p_filter(*ALL),
             about={"zh": "p = 1：全部留下", "en": "p = 1: keep everything"},
             hint={"zh": "p = 1 时每个词元都要留下，结果就是原来的概率。",
                   "en": "With p = 1 every token stays, and the result is the distribution itself."}),
    ],
    wrong={
        "unsorted": ('''\
import numpy as np

def top_p(probs, p):
    total = np.cumsum(probs)
    n_kept = int(np.searchsorted(total, p - 1e-12)) + 1
    kept = np.zeros_like(probs)
    kept[:n_kept] = probs[:n_kept]
    return kept / kept.sum()
''', 0),
        "strictly-above": ('''\
import numpy as np

def top_p(probs, p):
    order = np.argsort(-probs, kind="stable")
    total = np.cumsum(probs[order])
    n_kept = int(np.searchsorted(total, p, side="right")) + 1
    kept = np.zeros_like(probs)
    kept[order[:n_kept]] = probs[order[:n_kept]]
    return kept / kept.sum()
''', 1),
    },
)
