"""0.2 One step of gradient descent for the line y ≈ w·x."""
import numpy as np

from attnkit.basics import line_loss_slope
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def step(w, x, y, lr):
    # 模型 y ≈ w·x，损失是 mean((w·x - y)²) [zh]
    # the model y ≈ w·x, its loss mean((w·x - y)²) [en]
    # 先算损失对 w 的斜率，再让 w 往下坡走一步，返回新的 w [zh]
    # work out the loss's slope at w, step w downhill, and return the new w [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def step(w, x, y, lr):
    # (w·x − y)² 对 w 的导数是 2·(w·x − y)·x，再对所有点取平均 [zh]
    # the derivative of (w·x − y)² with respect to w is 2·(w·x − y)·x, averaged over the points [en]
    slope = np.mean(2 * (w * x - y) * x)   # (n,) -> 一个数 [zh]
    slope = np.mean(2 * (w * x - y) * x)   # (n,) -> one number [en]
    return w - lr * slope
'''

x = np.array([2.0])            # one point: the mean of one number is that number
y = np.array([4.2])
x2 = np.array([0.5, -1.0, 2.0, 4.0])
y2 = np.array([1.0, -2.5, 3.0, 9.0])


def expected(w, x, y, lr):
    return w - lr * line_loss_slope(w, x, y)


def held_out(rng):
    """Steps the page does not list: random points, a random start, a random learning rate."""
    cases = []
    for n in (3, 6):
        xs = np.round(rng.uniform(-3, 3, size=n), 2)                  # (n,)
        ys = np.round(1.5 * xs + rng.normal(size=n), 2)               # (n,) near a line of slope 1.5
        w, lr = float(np.round(rng.uniform(-2, 4), 2)), float(rng.choice([0.01, 0.02, 0.05]))
        cases.append(Case(args=(w, xs, ys, lr), expected=expected(w, xs, ys, lr),
                          about={"zh": f"{n} 个随机的点，w 从 {w:g} 出发", "en": f"{n} random points, starting from w = {w:g}"},
                          hint={"zh": "新 w = w − lr × mean(2·(w·x − y)·x)。",
                                "en": "new w = w − lr × mean(2·(w·x − y)·x)."}))
    return cases


EXERCISE = Exercise(
    id="ch0-gradient-step",
    title={"zh": "梯度下降的一步", "en": "One step of gradient descent"},
    function="step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(3.0, x, y, 0.05), expected=expected(3.0, x, y, 0.05),
             about={"zh": "一个点，w 太大，应该变小", "en": "one point; w is too large and should shrink"},
             hint={"zh": "斜率是 mean(2·(w·x − y)·x)；新 w = w − lr × 斜率。",
                   "en": "The slope is mean(2·(w·x − y)·x); the new w is w − lr × slope."}),
        Case(args=(0.0, x2, y2, 0.01), expected=expected(0.0, x2, y2, 0.01),
             about={"zh": "四个点，w 从 0 出发", "en": "four points, starting from w = 0"},
             hint={"zh": "斜率是平均值 mean(2·(w·x − y)·x)，不是总和；点越多，总和越大，步子就会跟着变大。",
                   "en": "The slope is the mean of 2·(w·x − y)·x, not the sum: with more points a sum would make "
                         "the step bigger."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.basics.line_loss_slope", "attnkit.basics.nudge_slope", "attnkit.basics.fit_line"),
    wrong={
        "uphill": ('''\
import numpy as np

def step(w, x, y, lr):
    slope = np.mean(2 * (w * x - y) * x)
    return w + lr * slope
''', 0, {"zh": "斜率为正说明 w 变大损失就变大，所以要往反方向走：新 w = w − lr × 斜率（是减号）。",
        "en": "A positive slope means a larger w gives a larger loss, so step the other way: "
              "new w = w − lr × slope (a minus)."}),
        "no-factor-2": ('''\
import numpy as np

def step(w, x, y, lr):
    slope = np.mean((w * x - y) * x)
    return w - lr * slope
''', 0, {"zh": "少了因子 2：(w·x − y)² 对 w 求导，平方里的 2 会落下来，斜率是 mean(2·(w·x − y)·x)。",
        "en": "The factor 2 is missing: differentiating (w·x − y)² brings the square's 2 down, so the slope "
              "is mean(2·(w·x − y)·x)."}),
        "sum-not-mean": ('''\
import numpy as np

def step(w, x, y, lr):
    slope = np.sum(2 * (w * x - y) * x)
    return w - lr * slope
''', 1, {"zh": "你把各点的斜率加起来了。损失是平均值，斜率也取平均值 mean(2·(w·x − y)·x)，不是总和。",
        "en": "You added the points' slopes up. The loss is a mean, so the slope is the mean of 2·(w·x − y)·x, "
              "not the sum."}),
        "calls-attnkit": ('''\
from attnkit.basics import line_loss_slope

def step(w, x, y, lr):
    return w - lr * line_loss_slope(w, x, y)
''', 0, None, "library"),
    },
)
