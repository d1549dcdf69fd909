"""1.1 One step of an RNN: h_t = tanh(x_t W_x + h_{t-1} W_h + b)."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.rnn import init_rnn, random_tokens, rnn_step

STARTER = '''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    # x_t：这一步读进来的词，形状 (d_in,)；h_prev：上一步的隐藏状态，形状 (d_h,) [zh]
    # x_t: the token read at this step, shape (d_in,); h_prev: the previous hidden state, shape (d_h,) [en]
    # w_x: (d_in, d_h)，w_h: (d_h, d_h)，b: (d_h,) [zh]
    # w_x: (d_in, d_h), w_h: (d_h, d_h), b: (d_h,) [en]
    # 返回这一步的隐藏状态 h_t，形状 (d_h,) [zh]
    # return this step's hidden state h_t, shape (d_h,) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    a = x_t @ w_x + h_prev @ w_h + b     # (d_in,) @ (d_in, d_h) + (d_h,) @ (d_h, d_h) + (d_h,) -> (d_h,)
    return np.tanh(a)                    # 压回 (-1, 1) 之间 [zh]
    return np.tanh(a)                    # squashed into (-1, 1) [en]
'''

w_x, w_h, _ = init_rnn(2, 3, seed=3)      # (2, 3), (3, 3): an untrained RNN, as in 1.1
no_bias = np.zeros(3)                                 # (3,)
bias = np.array([0.5, -1.0, 0.25])                    # (3,)
x = random_tokens(3, 2, seed=4)                       # (3, 2) three made-up tokens
h_0 = np.zeros(3)                                     # (3,) nothing read yet
h_1 = rnn_step(x[0], h_0, w_x, w_h, no_bias)          # (3,) the memory after the first token


def case(x_t, h_prev, b):
    return (x_t, h_prev, w_x, w_h, b), rnn_step(x_t, h_prev, w_x, w_h, b)


args_first, expected_first = case(x[1], h_0, no_bias)
args_memory, expected_memory = case(x[1], h_1, no_bias)
args_bias, expected_bias = case(x[2], h_1, bias)


def held_out(rng):
    """Steps the page does not list: a random RNN of another size, a remembered state and a bias."""
    cases = []
    for d_in, d_h in ((3, 4), (4, 2)):
        w_x_, w_h_, _ = init_rnn(d_in, d_h, seed=int(rng.integers(1_000_000)))   # (d_in, d_h), (d_h, d_h)
        b_ = rng.normal(size=d_h)                                                 # (d_h,)
        x_t, h_prev = rng.normal(size=d_in), np.tanh(rng.normal(size=d_h))        # (d_in,), (d_h,)
        cases.append(Case(args=(x_t, h_prev, w_x_, w_h_, b_), expected=rnn_step(x_t, h_prev, w_x_, w_h_, b_),
                          about={"zh": f"随机的一步：d_in = {d_in}，d_h = {d_h}", "en": f"a random step: d_in = {d_in}, d_h = {d_h}"},
                          hint={"zh": "h_t = tanh(x_t @ w_x + h_prev @ w_h + b)。",
                                "en": "h_t = tanh(x_t @ w_x + h_prev @ w_h + b)."}))
    return cases


EXERCISE = Exercise(
    id="ch1-rnn-step",
    title={"zh": "RNN 的一步", "en": "One step of an RNN"},
    function="rnn_step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=args_first, expected=expected_first,
             about={"zh": "第一步：还什么都不记得（h_prev 全是 0），b 也是 0",
                    "en": "the first step: nothing remembered yet (h_prev is all 0), and b is 0"},
             hint={"zh": "加起来以后还要过一次 tanh，把每个数压回 −1 到 1 之间：np.tanh(...)。",
                   "en": "After adding up, squash with tanh so that every number lands between −1 and 1: "
                         "np.tanh(...)."}),
        Case(args=args_memory, expected=expected_memory,
             about={"zh": "已经记住了一个词（h_prev 不是 0）", "en": "one token already remembered (h_prev is not 0)"},
             hint={"zh": "上一步的记忆也要算进来：h_prev @ w_h，和公式里的顺序一样（行向量在左，矩阵在右）。",
                   "en": "The memory from the last step counts too: h_prev @ w_h, in the formula's order "
                         "(the row vector on the left, the matrix on the right)."}),
        Case(args=args_bias, expected=expected_bias,
             about={"zh": "偏置 b 不是 0", "en": "a bias b that is not 0"},
             hint={"zh": "别忘了偏置：tanh 里面是 x_t @ w_x + h_prev @ w_h + b。",
                   "en": "Do not forget the bias: inside the tanh is x_t @ w_x + h_prev @ w_h + b."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.rnn.rnn_step", "attnkit.rnn.rnn_forward", "attnkit.rnn._forward"),
    wrong={
        "no-tanh": ('''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    return x_t @ w_x + h_prev @ w_h + b
''', 0),
        "forgets-memory": ('''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    return np.tanh(x_t @ w_x + b)
''', 1),
        "matrix-first": ('''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    return np.tanh(x_t @ w_x + w_h @ h_prev + b)
''', 1, {"zh": "顺序反了：w_h @ h_prev 把矩阵放在了左边。按公式写 h_prev @ w_h（行向量在左，矩阵在右）。",
        "en": "The order is reversed: w_h @ h_prev puts the matrix on the left. Write h_prev @ w_h as the formula "
              "does (the row vector on the left, the matrix on the right)."}),
        "no-bias": ('''\
import numpy as np

def rnn_step(x_t, h_prev, w_x, w_h, b):
    return np.tanh(x_t @ w_x + h_prev @ w_h)
''', 2),
        "calls-attnkit": ('''\
from attnkit.rnn import rnn_step
''', 0, None, "library"),
    },
)
