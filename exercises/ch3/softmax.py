"""3.3 softmax, stable for large scores."""
import numpy as np

from attnkit import softmax
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def softmax(x):
    # x: 一行分数，形状 (n,)；返回形状 (n,) 的份额，全为正、加起来等于 1 [zh]
    # x: one row of scores, shape (n,); return shares of shape (n,), all positive, adding up to 1 [en]
    # 分数很大（比如 1000）时也要算对 [zh]
    # it must also work when the scores are large (say 1000) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def softmax(x):
    e = np.exp(x - np.max(x))   # (n,) the largest becomes e^0 = 1: nothing overflows
    return e / np.sum(e)        # (n,) shares that add up to 1
'''

EXERCISE = Exercise(
    id="ch3-softmax",
    title={"zh": "不会溢出的 softmax", "en": "A softmax that never overflows"},
    function="softmax",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(np.array([5.0, 2.0, 0.0]),), expected=softmax([5.0, 2.0, 0.0]),
             about={"zh": "小明、小红、小刚的分数 5、2、0", "en": "the scores 5, 2, 0"},
             hint={"zh": "先对每个分数取 e 的幂，再除以它们的和，份额才会加起来等于 1。",
                   "en": "Raise e to each score, then divide by their sum, so that the shares add up to 1."}),
        Case(args=(np.array([1000.0, 997.0, 995.0]),), expected=softmax([1000.0, 997.0, 995.0]),
             about={"zh": "很大的分数 1000、997、995", "en": "large scores 1000, 997, 995"},
             hint={"zh": "e^1000 超出了浮点数能表示的范围。先把每个分数减去最大值：份额不变，最大的一项变成 e^0 = 1。",
                   "en": "e^1000 is beyond what a float can hold. Subtract the largest score from every score "
                         "first: the shares do not change, and the largest term becomes e^0 = 1."}),
        Case(args=(np.array([-1000.0, -1001.0]),), expected=softmax([-1000.0, -1001.0]),
             about={"zh": "很小的分数 −1000、−1001", "en": "very negative scores −1000, −1001"},
             hint={"zh": "e^−1000 会变成 0，0 除以 0 得不到份额。同样先减去最大值。",
                   "en": "e^−1000 rounds to 0, and 0 / 0 is no share at all. Subtract the largest score first "
                         "here too."}),
    ],
    wrong={
        "overflows": ('''\
import numpy as np

def softmax(x):
    e = np.exp(x)
    return e / np.sum(e)
''', 1),
        "no-division": ('''\
import numpy as np

def softmax(x):
    return np.exp(x - np.max(x))
''', 0),
    },
)
