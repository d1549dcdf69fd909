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
    e = np.exp(x - np.max(x))   # (n,) 最大的一项变成 e^0 = 1：不会溢出 [zh]
    e = np.exp(x - np.max(x))   # (n,) the largest becomes e^0 = 1: nothing overflows [en]
    return e / np.sum(e)        # (n,) 加起来等于 1 的份额 [zh]
    return e / np.sum(e)        # (n,) shares that add up to 1 [en]
'''

WIDE = np.array([3.0, 0.0, -1000.0])          # far apart: the largest minus the smallest is 1003


def held_out(rng):
    """Rows the page does not list: random scores around a large positive and a large negative
    number, and one row spread over more than 1500 (subtracting its smallest score overflows)."""
    cases = []
    for offset in (1000.0, -1000.0):
        x = offset + np.round(rng.normal(scale=3.0, size=int(rng.integers(3, 7))), 2)   # (n,)
        cases.append(Case(args=(x,), expected=softmax(x),
                          about={"zh": f"{len(x)} 个随机的分数，都在 {offset:g} 附近",
                                 "en": f"{len(x)} random scores, all near {offset:g}"},
                          hint={"zh": "先把每个分数减去最大值，再取 e 的幂、除以总和。",
                                "en": "Subtract the largest score from each, then raise e to them and divide by the sum."}))
    spread = np.round(rng.uniform(-800.0, 800.0, size=5), 2)
    spread[:2] = np.round(rng.uniform(700.0, 800.0), 2), np.round(rng.uniform(-800.0, -700.0), 2)
    cases.append(Case(args=(spread,), expected=softmax(spread),
                      about={"zh": "5 个相差很远的随机分数", "en": "5 random scores far apart"},
                      hint={"zh": "减去的是最大值，不是最小值。", "en": "Subtract the largest score, not the smallest."}))
    return cases


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
        Case(args=(WIDE,), expected=softmax(WIDE),
             about={"zh": "相差很远的分数 3、0、−1000", "en": "scores far apart: 3, 0, −1000"},
             hint={"zh": "减去的是最大值 3，不是最小值 −1000：减去最小值，最大的一项就成了 e^1003，照样溢出。",
                   "en": "Subtract the largest score, 3, not the smallest, −1000: after subtracting the smallest, "
                         "the largest term is e^1003, which overflows all the same."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.softmax", "attnkit.core.softmax_unchecked"),
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
''', 0, {"zh": "还要除以它们的和：np.exp(...) / np.sum(np.exp(...))，份额才会加起来等于 1。",
        "en": "Divide by their sum as well, np.exp(...) / np.sum(np.exp(...)), so that the shares add up to 1."}),
        "subtracts-min": ('''\
import numpy as np

def softmax(x):
    e = np.exp(x - np.min(x))
    return e / np.sum(e)
''', 3, {"zh": "你减去的是最小值。要减去最大值 np.max(x)：那样最大的一项是 e^0 = 1，其余都小于 1，谁也不会溢出。",
        "en": "You subtracted the smallest score. Subtract the largest, np.max(x): then the largest term is "
              "e^0 = 1, every other one is below 1, and nothing overflows."}),
        "calls-attnkit": ('''\
from attnkit import softmax
''', 0, None, "library"),
    },
)
