"""11.2 The previous-token score of one head's attention pattern."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.induction import previous_token_pattern, previous_token_score

STARTER = '''\
import numpy as np

def previous_token_score(w):
    # w：一个头的注意力权重，形状 (n, n)，第 i 行是位置 i 分给各个键的权重 [zh]
    # w: one head's attention weights, shape (n, n); row i is what position i gives each key [en]
    # 返回：第 1 到 n−1 行（从 0 数）放在“前一个位置”上的权重的平均值 [zh]
    # return: the mean, over rows 1 to n−1 (counting from 0), of the weight on the position just before [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def previous_token_score(w):
    n = w.shape[0]
    return float(np.mean([w[i, i - 1] for i in range(1, n)]))   # row 0 has nothing before it
'''


def even(n):
    """Causal attention spread evenly: row i gives 1/(i+1) to each of keys 0..i. (n, n)"""
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


def score(w):
    return float(previous_token_score(w[None])[0])


PURE = previous_token_pattern(5)
EVEN = even(4)

EXERCISE = Exercise(
    id="ch11-previous-token-score",
    title={"zh": "前一个词元分数", "en": "The previous-token score"},
    function="previous_token_score",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(PURE,), expected=score(PURE),
             about={"zh": "每一行都只看前一个位置", "en": "every row looks only one place back"},
             hint={"zh": "前一个位置是对角线下面紧挨着的那一格：第 i 行第 i−1 列。第 0 行前面没有位置，不算它。",
                   "en": "One place back is the cell just below the diagonal: row i, column i−1. Row 0 has nothing "
                         "before it, so leave it out."}),
        Case(args=(EVEN,), expected=score(EVEN),
             about={"zh": "每一行把权重平均分给自己和前面所有位置", "en": "every row spreads its weight evenly over itself and everything before"},
             hint={"zh": "第 i 行的前一个位置得到 1/(i+1)；把第 1 到 n−1 行的这个数取平均。",
                   "en": "Row i gives 1/(i+1) to the position before it; average that over rows 1 to n−1."}),
    ],
    wrong={
        "counts-row-0": ('''\
import numpy as np

def previous_token_score(w):
    n = w.shape[0]
    return float(np.mean([w[i, i - 1] for i in range(n)]))
''', 0),
        "above-the-diagonal": ('''\
import numpy as np

def previous_token_score(w):
    return float(np.mean(np.diag(w, k=1)))
''', 0),
    },
)
