"""8.2 The causal mask: a position may look back, never ahead."""
import numpy as np

from attnkit import causal_mask
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def causal_mask(n):
    # 返回 (n, n) 的布尔表：第 i 行第 j 列为 True 表示位置 i 可以看位置 j [zh]
    # return an (n, n) table of booleans: row i, column j is True when position i may look at position j [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def causal_mask(n):
    i = np.arange(n)[:, None]   # (n, 1) the looking position
    j = np.arange(n)[None, :]   # (1, n) the position looked at
    return j <= i               # (n, n) itself and everything before it
'''

EXERCISE = Exercise(
    id="ch8-causal-mask",
    title={"zh": "因果掩码", "en": "The causal mask"},
    function="causal_mask",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(3,), expected=causal_mask(3),
             about={"zh": "3 个位置", "en": "3 positions"},
             hint={"zh": "位置 i 能看 j ≤ i 的位置，包括它自己：对角线和它下方为 True，上方为 False。"
                         "返回布尔值（True/False），不是 1 和 0。",
                   "en": "Position i may look at every j ≤ i, itself included: True on and below the "
                         "diagonal, False above it. Return booleans (True/False), not 1s and 0s."}),
        Case(args=(1,), expected=causal_mask(1),
             about={"zh": "只有 1 个位置", "en": "a single position"},
             hint={"zh": "只有一个位置时，它只能看自己：[[True]]。",
                   "en": "With one position, it can look only at itself: [[True]]."}),
        Case(args=(6,), expected=causal_mask(6),
             about={"zh": "6 个位置", "en": "6 positions"},
             hint={"zh": "表的大小要跟着 n 变：(n, n)。",
                   "en": "The table's size follows n: (n, n)."}),
    ],
    wrong={
        "looks-ahead": ('''\
import numpy as np

def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
''', 0),
        "not-itself": ('''\
import numpy as np

def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)
''', 0),
        "ones-and-zeros": ('''\
import numpy as np

def causal_mask(n):
    return np.tril(np.ones((n, n)))
''', 0),
    },
)
