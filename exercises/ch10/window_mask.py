"""10.4 The sliding-window mask: look back over the last w positions, itself included."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.window import sliding_window_mask

STARTER = '''\
import numpy as np

def window_mask(n, w):
    # 返回 (n, n) 的布尔表 [zh]
    # return an (n, n) table of booleans [en]
    # 位置 i 可以看位置 j 时为 True [zh]
    # True where position i may look at position j [en]
    # 每个位置只看最近的 w 个位置，它自己也算一个 [zh]
    # each position sees only the last w positions, itself counted [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def window_mask(n, w):
    i = np.arange(n)[:, None]          # (n, 1) 正在看的位置 [zh]
    i = np.arange(n)[:, None]          # (n, 1) the looking position [en]
    j = np.arange(n)[None, :]          # (1, n) 被看的位置 [zh]
    j = np.arange(n)[None, :]          # (1, n) the position looked at [en]
    return (j <= i) & (j > i - w)      # (n, n) 每一行最多 w 个键 [zh]
    return (j <= i) & (j > i - w)      # (n, n) at most w keys per row [en]
'''

def held_out(rng):
    """Masks the page does not list: random lengths and windows shorter than them."""
    cases = []
    for _ in range(2):
        n = int(rng.integers(5, 12))
        w = int(rng.integers(2, n - 1))
        cases.append(Case(args=(n, w), expected=sliding_window_mask(n, w),
                          about={"zh": f"{n} 个位置，窗口 {w}", "en": f"{n} positions, a window of {w}"},
                          hint={"zh": "i − w < j ≤ i 时为 True：每行正好（最多）w 个 True。",
                                "en": "True when i − w < j ≤ i: exactly (at most) w Trues per row."}))
    return cases


EXERCISE = Exercise(
    id="ch10-window-mask",
    title={"zh": "滑动窗口掩码", "en": "The sliding-window mask"},
    function="window_mask",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(5, 2), expected=sliding_window_mask(5, 2),
             about={"zh": "5 个位置，窗口 2", "en": "5 positions, a window of 2"},
             hint={"zh": "窗口 2 就是每行正好 2 个 True：自己和前一个（i − w < j ≤ i），"
                         "不是往回 2 个再加自己；后面的位置永远是 False。",
                   "en": "A window of 2 means exactly 2 Trues per row: the position itself and the one before "
                         "(i − w < j ≤ i), not two back plus itself; positions ahead are always False."}),
        Case(args=(4, 10), expected=sliding_window_mask(4, 10),
             about={"zh": "窗口比序列还长", "en": "a window longer than the sequence"},
             hint={"zh": "窗口不小于 n 时，窗口掩码就是因果掩码：对角线和它下方全是 True。",
                   "en": "With a window of at least n, the window mask is the causal mask: True on and below the diagonal."}),
        Case(args=(6, 1), expected=sliding_window_mask(6, 1),
             about={"zh": "窗口 1", "en": "a window of 1"},
             hint={"zh": "窗口 1 时每个位置只看它自己：对角线上是 True。",
                   "en": "With a window of 1 each position sees only itself: True on the diagonal."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.window.sliding_window_mask",),
    wrong={
        "one-too-many": ('''\
import numpy as np

def window_mask(n, w):
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    return (j <= i) & (i - j <= w)
''', 0, {"zh": "多了一个：你让每个位置看了往回 w 个再加它自己，一共 w + 1 个。窗口 w 把它自己也算在内：i − w < j ≤ i。",
        "en": "One too many: each position sees w back plus itself, w + 1 in all. A window of w counts the position "
              "itself: i − w < j ≤ i."}),
        "looks-ahead": ('''\
import numpy as np

def window_mask(n, w):
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    return np.abs(i - j) < w
''', 0, {"zh": "窗口只往回看：后面的位置永远是 False（j ≤ i），不是前后各看一段。",
        "en": "The window only looks back: positions ahead are always False (j ≤ i); it does not reach both ways."}),
        "calls-attnkit": ('''\
from attnkit.window import sliding_window_mask

def window_mask(n, w):
    return sliding_window_mask(n, w)
''', 0, None, "library"),
    },
)
