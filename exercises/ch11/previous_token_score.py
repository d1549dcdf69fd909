"""11.2 The previous-token score of one head's attention pattern.

Its expected values come from attnkit.induction.previous_token_score, the score chapter 11 measures.
"""
import numpy as np

from attnkit import softmax
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
    # 第 0 行前面没有位置，不算它 [zh]
    # row 0 has nothing before it [en]
    return float(np.mean([w[i, i - 1] for i in range(1, n)]))
'''


def even(n):
    """Causal attention spread evenly: row i gives 1/(i+1) to each of keys 0..i. (n, n)"""
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


def score(w):
    return float(previous_token_score(w[None])[0])


PURE = previous_token_pattern(5)
EVEN = even(4)


def held_out(rng):
    """Heads the page does not list: random causal attention tables."""
    cases = []
    for n in (4, int(rng.integers(6, 10))):
        logits = rng.normal(scale=2.0, size=(n, n))
        w = softmax(logits, mask=np.tril(np.ones((n, n), dtype=bool)))      # (n, n) each row adds up to 1, causal
        cases.append(Case(args=(w,), expected=score(w),
                          about={"zh": f"一个随机的因果注意力头（{n} 个位置）", "en": f"a random causal head ({n} positions)"},
                          hint={"zh": "第 1 到 n−1 行各取 w[i, i − 1]，再取平均。",
                                "en": "Take w[i, i − 1] in rows 1 to n−1, then their mean."}))
    return cases

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
    held_out=held_out,
    forbidden=("attnkit.induction.previous_token_score",),
    wrong={
        "counts-row-0": ('''\
import numpy as np

def previous_token_score(w):
    n = w.shape[0]
    return float(np.mean([w[i, i - 1] for i in range(n)]))
''', 0, {"zh": "第 0 行不能算：它前面没有位置，w[0, −1] 取到的是最后一列。从第 1 行开始。",
        "en": "Leave row 0 out: it has nothing before it, and w[0, −1] is the last column. Start at row 1."}),
        "above-the-diagonal": ('''\
import numpy as np

def previous_token_score(w):
    return float(np.mean(np.diag(w, k=1)))
''', 0, {"zh": "你取的是对角线上面那一条（k=1：往后一个）。前一个位置在对角线下面：第 i 行第 i−1 列，np.diag(w, k=-1)。",
        "en": "You took the line above the diagonal (k=1: one place ahead). One place back is below it: row i, "
              "column i−1, np.diag(w, k=-1)."}),
        "calls-attnkit": ('''\
from attnkit.induction import previous_token_score as book

def previous_token_score(w):
    return float(book(w[None])[0])
''', 0, None, "library"),
    },
)
