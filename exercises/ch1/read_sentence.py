"""1.1 Reading a sentence the RNN way: one token after another, every hidden state kept."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.rnn import init_rnn, random_tokens, rnn_forward

STARTER = '''\
import numpy as np

def read(x, w_x, w_h, b):
    # x：一句话，形状 (n, d_in)，第 t 行是第 t 个词 [zh]
    # x: one sentence, shape (n, d_in); row t is token t [en]
    # 从全 0 的记忆 h_0 出发，从左往右一个词一个词地读： [zh]
    #   h_t = tanh(x_t @ w_x + h_(t-1) @ w_h + b) [zh]
    # start from a memory h_0 of zeros and read left to right, one token at a time: [en]
    #   h_t = tanh(x_t @ w_x + h_(t-1) @ w_h + b) [en]
    # 返回每一步的隐藏状态，形状 (n, d_h)：第 t 行是读完第 t 个词后的记忆 [zh]
    # return every step's hidden state, shape (n, d_h): row t is the memory after token t [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def read(x, w_x, w_h, b):
    n, d_h = len(x), len(b)
    states = np.zeros((n, d_h))          # (n, d_h) 每一步一行 [zh]
    states = np.zeros((n, d_h))          # (n, d_h) one row per step [en]
    h = np.zeros(d_h)                    # (d_h,) h_0：还什么都没读 [zh]
    h = np.zeros(d_h)                    # (d_h,) h_0: nothing read yet [en]
    # 严格地一个接一个读 [zh]
    # strictly one after another [en]
    for t in range(n):
        # (d_h,) 新的记忆 [zh]
        # (d_h,) the new memory [en]
        h = np.tanh(x[t] @ w_x + h @ w_h + b)
        states[t] = h
    return states
'''

w_x, w_h, b = init_rnn(2, 3, w_scale=1.5, seed=5)     # (2, 3), (3, 3), (3,)
b = b + np.array([0.2, -0.3, 0.1])                    # (3,) a bias that is not 0
one = random_tokens(1, 2, seed=6) * 2                 # (1, 2) a one-token sentence
four = random_tokens(4, 2, seed=7) * 2                # (4, 2)


def held_out(rng):
    """Sentences the page does not list: random tokens read by a random RNN of another size."""
    cases = []
    for n, d_in, d_h in ((5, 3, 2), (3, 2, 4)):
        w_x_, w_h_, b_ = init_rnn(d_in, d_h, w_scale=1.5, seed=int(rng.integers(1_000_000)))   # (d_in, d_h), (d_h, d_h), (d_h,)
        b_ = b_ + rng.normal(scale=0.3, size=d_h)                                            # (d_h,) a bias that is not 0
        sentence = random_tokens(n, d_in, seed=int(rng.integers(1_000_000))) * 2            # (n, d_in)
        cases.append(Case(args=(sentence, w_x_, w_h_, b_), expected=rnn_forward(sentence, w_x_, w_h_, b_),
                          about={"zh": f"随机的 {n} 个词，d_in = {d_in}，d_h = {d_h}",
                                 "en": f"{n} random tokens, d_in = {d_in}, d_h = {d_h}"},
                          hint={"zh": "从全 0 的 h_0 出发，每读一个词：h = tanh(x[t] @ w_x + h @ w_h + b)，存进第 t 行。",
                                "en": "Start from h_0 = zeros; for each token, h = tanh(x[t] @ w_x + h @ w_h + b), "
                                      "stored in row t."}))
    return cases


EXERCISE = Exercise(
    id="ch1-read-sentence",
    title={"zh": "一个词一个词地读完一句话", "en": "Reading a sentence, one token at a time"},
    function="read",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(one, w_x, w_h, b), expected=rnn_forward(one, w_x, w_h, b),
             about={"zh": "只有一个词的句子", "en": "a sentence of one token"},
             hint={"zh": "第一个词也要读：从全 0 的 h_0 出发，h_1 = tanh(x[0] @ w_x + h_0 @ w_h + b)。"
                         "结果是 (n, d_h) 的数组，每读一个词存一行。",
                   "en": "The first token is read too: start from h_0 = zeros and h_1 = tanh(x[0] @ w_x + "
                         "h_0 @ w_h + b). The result is an (n, d_h) array, one row stored per token."}),
        Case(args=(four, w_x, w_h, b), expected=rnn_forward(four, w_x, w_h, b),
             about={"zh": "四个词", "en": "four tokens"},
             hint={"zh": "每一步算出的 h 要留给下一步当 h_(t-1)：这就是传话。"
                         "循环走完所有的词以后再 return，别在循环里面 return。",
                   "en": "Each step's h is passed on as the next step's h_(t-1): that is the telephone game. "
                         "Return after the loop has read every token, not inside it."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.rnn.rnn_forward", "attnkit.rnn._forward"),
    wrong={
        "skips-first": ('''\
import numpy as np

def read(x, w_x, w_h, b):
    states = np.zeros((len(x), len(b)))
    h = np.zeros(len(b))
    for t in range(1, len(x)):
        h = np.tanh(x[t] @ w_x + h @ w_h + b)
        states[t] = h
    return states
''', 0),
        "no-hand-off": ('''\
import numpy as np

def read(x, w_x, w_h, b):
    states = np.zeros((len(x), len(b)))
    for t in range(len(x)):
        h_prev = np.zeros(len(b))
        states[t] = np.tanh(x[t] @ w_x + h_prev @ w_h + b)
    return states
''', 1),
        "returns-in-loop": ('''\
import numpy as np

def read(x, w_x, w_h, b):
    states = []
    h = np.zeros(len(b))
    for t in range(len(x)):
        h = np.tanh(x[t] @ w_x + h @ w_h + b)
        states.append(h)
        return np.array(states)
''', 1),
        "calls-attnkit": ('''\
from attnkit.rnn import rnn_forward

def read(x, w_x, w_h, b):
    return rnn_forward(x, w_x, w_h, b)
''', 0, None, "library"),
    },
)
