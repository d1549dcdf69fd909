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
    slope = np.mean(2 * (w * x - y) * x)   # (n,) -> one number
    return w - lr * slope
'''

x = np.array([2.0])            # one point: the mean of one number is that number
y = np.array([4.2])
x2 = np.array([0.5, -1.0, 2.0, 4.0])
y2 = np.array([1.0, -2.5, 3.0, 9.0])


def expected(w, x, y, lr):
    return w - lr * line_loss_slope(w, x, y)


EXERCISE = Exercise(
    id="ch0-gradient-step",
    title={"zh": "梯度下降的一步", "en": "One step of gradient descent"},
    function="step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(3.0, x, y, 0.05), expected=expected(3.0, x, y, 0.05),
             about={"zh": "一个点，w 太大，应该变小", "en": "one point; w is too large and should shrink"},
             hint={"zh": "斜率为正说明 w 变大损失就变大：新 w = w − lr × 斜率（是减号）。",
                   "en": "A positive slope means a larger w gives a larger loss: new w = w − lr × slope (a minus)."}),
        Case(args=(0.0, x2, y2, 0.01), expected=expected(0.0, x2, y2, 0.01),
             about={"zh": "四个点，w 从 0 出发", "en": "four points, starting from w = 0"},
             hint={"zh": "斜率是平均值 mean(2·(w·x − y)·x)，不是总和；点越多，总和越大，步子就会跟着变大。",
                   "en": "The slope is the mean of 2·(w·x − y)·x, not the sum: with more points a sum would make "
                         "the step bigger."}),
    ],
    wrong={
        "uphill": ('''\
import numpy as np

def step(w, x, y, lr):
    slope = np.mean(2 * (w * x - y) * x)
    return w + lr * slope
''', 0),
        "sum-not-mean": ('''\
import numpy as np

def step(w, x, y, lr):
    slope = np.sum(2 * (w * x - y) * x)
    return w - lr * slope
''', 1),
    },
)
