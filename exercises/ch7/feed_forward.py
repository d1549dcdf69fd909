"""7.3 Act five: the feed-forward network, the same two layers on every word."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.layers import feed_forward
from attnkit.story import story, story_weights

STARTER = '''\
import numpy as np

def ffn(h, w_1, b_1, w_2, b_2):
    # h：每个词一行，形状 (n, d_model) [zh]
    # h: one row per word, shape (n, d_model) [en]
    # w_1: (d_model, d_ff)，b_1: (d_ff,)，w_2: (d_ff, d_model)，b_2: (d_model,) [zh]
    # w_1: (d_model, d_ff), b_1: (d_ff,), w_2: (d_ff, d_model), b_2: (d_model,) [en]
    # 两层：先乘 w_1 加 b_1，过 ReLU（负数变成 0），再乘 w_2 加 b_2；返回 (n, d_model) [zh]
    # two layers: times w_1 plus b_1, then ReLU (negatives become 0), then times w_2 plus b_2; return (n, d_model) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def ffn(h, w_1, b_1, w_2, b_2):
    hidden = np.maximum(0, h @ w_1 + b_1)     # (n, d_model) @ (d_model, d_ff) -> (n, d_ff)，ReLU [zh]
    hidden = np.maximum(0, h @ w_1 + b_1)     # (n, d_model) @ (d_model, d_ff) -> (n, d_ff), ReLU [en]
    return hidden @ w_2 + b_2                 # (n, d_ff) @ (d_ff, d_model) -> (n, d_model)
'''

s = story("zh")                               # the layer of 7.3, after act four
w = story_weights()                           # its hand-written FFN: one hidden unit, "eater"
ffn_weights = (w["w_1"], w["b_1"], w["w_2"], w["b_2"])
she = s.h[[s.index("她")]]                    # (1, 12) the pronoun's row (the same in "en")
people = s.h[[s.index("小明"), s.index("小红"), s.index("她")]]   # (3, 12) the same in "en" too
threshold = w["b_1"][0]
rng = np.random.default_rng(7)
h_small = rng.normal(size=(3, 2))             # (3, 2) three words, d_model = 2
small = (rng.normal(size=(2, 4)), rng.normal(size=4), rng.normal(size=(4, 2)), rng.normal(size=2))   # d_ff = 4

def held_out(rng):
    """Networks the page does not list: random sizes, weights and biases."""
    cases = []
    for n, d_model, d_ff in ((4, 3, 6), (2, 5, 3)):
        h = rng.normal(size=(n, d_model))                                       # (n, d_model)
        weights = (rng.normal(size=(d_model, d_ff)), rng.normal(size=d_ff),
                   rng.normal(size=(d_ff, d_model)), rng.normal(size=d_model))  # w_1, b_1, w_2, b_2
        cases.append(Case(args=(h, *weights), expected=feed_forward(h, *weights),
                          about={"zh": f"随机的网络：{n} 个词，d_model = {d_model}，d_ff = {d_ff}",
                                 "en": f"a random network: {n} words, d_model = {d_model}, d_ff = {d_ff}"},
                          hint={"zh": "max(0, h @ w_1 + b_1) @ w_2 + b_2。", "en": "max(0, h @ w_1 + b_1) @ w_2 + b_2."}))
    return cases


EXERCISE = Exercise(
    id="ch7-feed-forward",
    title={"zh": "前馈网络：每个词各自消化", "en": "The feed-forward network: each word on its own"},
    function="ffn",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(she, *ffn_weights), expected=feed_forward(she, *ffn_weights),
             about={"zh": "7.3 节里代词那一行（“吃的人”会亮起来）",
                    "en": "the pronoun's row in 7.3 (where \u201ceater\u201d lights up)"},
             hint={"zh": f"第一层是 h @ w_1 + b_1：偏置 b_1（这里是 {threshold:g}，也就是门槛）不能少。",
                   "en": f"The first layer is h @ w_1 + b_1: the bias b_1 (here {threshold:g}, the threshold) "
                         "must be there."}),
        Case(args=(people, *ffn_weights), expected=feed_forward(people, *ffn_weights),
             about={"zh": "7.3 节里小明、小红和“她”三行", "en": "the rows of Tom, Mary and she in 7.3"},
             hint={"zh": "两层中间要过 ReLU：负数变成 0。没有它，没越过门槛的词（比如两个人名）也会往“吃的人”里写数。",
                   "en": "Between the two layers comes the ReLU: negatives become 0. Without it, words below the "
                         "threshold (the two names, say) write into \u201ceater\u201d too."}),
        Case(args=(h_small, *small), expected=feed_forward(h_small, *small),
             about={"zh": "随机的小网络（d_model = 2，d_ff = 4）", "en": "a small random network (d_model = 2, d_ff = 4)"},
             hint={"zh": "ReLU 只在两层中间用一次；第二层的结果可以是负数，别再截成 0，也别忘了 b_2。",
                   "en": "The ReLU is used once, between the layers; the second layer's result may be negative, "
                         "so do not cut it to 0, and do not forget b_2."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.layers.feed_forward",),
    wrong={
        "no-b_1": ('''\
import numpy as np

def ffn(h, w_1, b_1, w_2, b_2):
    return np.maximum(0, h @ w_1) @ w_2 + b_2
''', 0),
        "no-relu": ('''\
import numpy as np

def ffn(h, w_1, b_1, w_2, b_2):
    return (h @ w_1 + b_1) @ w_2 + b_2
''', 1),
        "relu-at-the-end": ('''\
import numpy as np

def ffn(h, w_1, b_1, w_2, b_2):
    return np.maximum(0, np.maximum(0, h @ w_1 + b_1) @ w_2 + b_2)
''', 2, {"zh": "ReLU 只在两层中间用一次：第二层的结果可以是负数，别再截成 0。",
        "en": "The ReLU is used once, between the layers: the second layer's result may be negative, so do not "
              "cut it to 0."}),
        "calls-attnkit": ('''\
from attnkit.layers import feed_forward

def ffn(h, w_1, b_1, w_2, b_2):
    return feed_forward(h, w_1, b_1, w_2, b_2)
''', 0, None, "library"),
    },
)
