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
    i = np.arange(n)[:, None]   # (n, 1) 正在看的位置 [zh]
    i = np.arange(n)[:, None]   # (n, 1) the looking position [en]
    j = np.arange(n)[None, :]   # (1, n) 被看的位置 [zh]
    j = np.arange(n)[None, :]   # (1, n) the position looked at [en]
    return j <= i               # (n, n) 它自己和它前面的所有位置 [zh]
    return j <= i               # (n, n) itself and everything before it [en]
'''


def held_out(rng):
    """Sizes the page does not list."""
    return [Case(args=(n,), expected=causal_mask(n),
                 about={"zh": f"{n} 个位置", "en": f"{n} positions"},
                 hint={"zh": "第 i 行第 j 列：j ≤ i 时为 True。", "en": "Row i, column j: True when j ≤ i."})
            for n in (int(rng.integers(7, 12)), int(rng.choice([2, 4, 5])))]

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
    held_out=held_out,
    forbidden=("attnkit.core.causal_mask", "attnkit.window.sliding_window_mask"),
    wrong={
        "looks-ahead": ('''\
import numpy as np

def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
''', 0, {"zh": "方向反了：True 在对角线上方，位置就能看到它后面的词了。要的是对角线和它下方（j ≤ i）。",
        "en": "It points the wrong way: with True above the diagonal a position sees the words after it. Keep "
              "the diagonal and below (j ≤ i)."}),
        "not-itself": ('''\
import numpy as np

def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)
''', 0, {"zh": "对角线也要是 True：每个位置可以看它自己。",
        "en": "The diagonal is True too: every position may look at itself."}),
        "ones-and-zeros": ('''\
import numpy as np

def causal_mask(n):
    return np.tril(np.ones((n, n)))
''', 0, {"zh": "位置是对的，但返回的是 1 和 0。要返回布尔值：np.tril(np.ones((n, n), dtype=bool))，或者 j <= i。",
        "en": "The places are right, but you returned 1s and 0s. Return booleans: np.tril(np.ones((n, n), "
              "dtype=bool)), or j <= i."}),
        "calls-attnkit": ('''\
from attnkit import causal_mask
''', 0, None, "library"),
    },
)
