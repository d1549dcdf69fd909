"""5.3 What one layer costs: its multiply-adds, part by part, and which parts grow with n²."""
import numpy as np

from attnkit.cost import layer_macs
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def layer_cost(n, d, d_ff):
    # n 个词，每个词 d 个数，前馈网络的隐藏层有 d_ff 个数 [zh]
    # n words of d numbers each; the feed-forward network's hidden layer has d_ff numbers [en]
    # (a, b) @ (b, c) 要做 a·b·c 次乘加 [zh]
    # (a, b) @ (b, c) takes a·b·c multiply-adds [en]
    # 返回四个数：投影、打分、加权求和、前馈网络各要多少次乘加 [zh]
    # return four numbers: the multiply-adds of the projections, the scores, the weighted sum, the feed-forward [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def layer_cost(n, d, d_ff):
    projections = 4 * n * d * d          # Q、K、V 和输出：四次 (n, d) @ (d, d) [zh]
    projections = 4 * n * d * d          # Q, K, V and the output: four (n, d) @ (d, d) [en]
    scores = n * n * d                   # Q @ K.T: (n, d) @ (d, n)
    weighted_sum = n * n * d             # 权重 @ V：(n, n) @ (n, d) [zh]
    weighted_sum = n * n * d             # weights @ V: (n, n) @ (n, d) [en]
    feed_forward = 2 * n * d * d_ff      # (n, d) @ (d, d_ff)，然后 (n, d_ff) @ (d_ff, d) [zh]
    feed_forward = 2 * n * d * d_ff      # (n, d) @ (d, d_ff), then (n, d_ff) @ (d_ff, d) [en]
    return projections, scores, weighted_sum, feed_forward
'''


def expected(n, d, d_ff):
    parts = layer_macs(n, d, d_ff)
    return tuple(parts[name] for name in ("projections", "scores", "weighted_sum", "feed_forward"))


HINT = {"zh": "投影是四次 (n, d) @ (d, d)：Q、K、V 和输出；打分 Q @ K.T 是 (n, d) @ (d, n)，"
              "每一对词一个点积，所以是 n·n·d；加权求和 (n, n) @ (n, d) 又是 n·n·d；"
              "前馈网络是两次乘法，(n, d) @ (d, d_ff) 和 (n, d_ff) @ (d_ff, d)。",
        "en": "The projections are four (n, d) @ (d, d): Q, K, V and the output. The scores Q @ K.T are "
              "(n, d) @ (d, n), one dot product for every pair of words, so n·n·d; the weighted sum "
              "(n, n) @ (n, d) is n·n·d again; the feed-forward network is two products, "
              "(n, d) @ (d, d_ff) and (n, d_ff) @ (d_ff, d)."}

def held_out(rng):
    """Layers the page does not list: random numbers of words and widths."""
    cases = []
    for _ in range(2):
        n, d = int(rng.integers(2, 5000)), int(rng.choice([48, 64, 96, 256, 768, 1024]))
        d_ff = int(d * rng.choice([2, 3, 4]))
        cases.append(Case(args=(n, d, d_ff), expected=expected(n, d, d_ff),
                          about={"zh": f"n = {n}，d = {d}，d_ff = {d_ff}", "en": f"n = {n}, d = {d}, d_ff = {d_ff}"},
                          hint=HINT))
    return cases


EXERCISE = Exercise(
    id="ch5-layer-cost",
    title={"zh": "一层要做多少次乘加", "en": "How many multiply-adds one layer does"},
    function="layer_cost",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(6, 4, 16), expected=expected(6, 4, 16),
             about={"zh": "6 个词，d = 4，d_ff = 16", "en": "6 words, d = 4, d_ff = 16"},
             hint=HINT),
        Case(args=(512, 512, 2048), expected=expected(512, 512, 2048),
             about={"zh": "论文的尺寸：n = 512，d = 512，d_ff = 2048",
                    "en": "the paper's sizes: n = 512, d = 512, d_ff = 2048"},
             hint={"zh": "用传进来的 n、d、d_ff 计算，别把上一组的数写死在代码里。",
                   "en": "Count with the n, d and d_ff you are given; do not write the last case's numbers "
                         "into the code."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.cost.layer_macs",),
    wrong={
        "three-projections": ('''\
import numpy as np

def layer_cost(n, d, d_ff):
    return 3 * n * d * d, n * n * d, n * n * d, 2 * n * d * d_ff
''', 0, {"zh": "投影有四个，不是三个：Q、K、V 之外还有把各个头拼回去以后的输出投影 W_O。",
        "en": "There are four projections, not three: besides Q, K and V there is the output projection W_O, "
              "applied after the heads are put side by side."}),
        "scores-n-times-d": ('''\
import numpy as np

def layer_cost(n, d, d_ff):
    return 4 * n * d * d, n * d, n * d, 2 * n * d * d_ff
''', 0, {"zh": "打分是每一对词一个长度为 d 的点积：n × n 对，所以是 n·n·d，不是 n·d。加权求和也一样。",
        "en": "The scores are one dot product of length d for every pair of words: n × n pairs, so n·n·d, "
              "not n·d. The same goes for the weighted sum."}),
        "one-ffn-product": ('''\
import numpy as np

def layer_cost(n, d, d_ff):
    return 4 * n * d * d, n * n * d, n * n * d, n * d * d_ff
''', 0, {"zh": "前馈网络是两次乘法：(n, d) @ (d, d_ff) 和 (n, d_ff) @ (d_ff, d)，所以是 2·n·d·d_ff。",
        "en": "The feed-forward network is two products, (n, d) @ (d, d_ff) and (n, d_ff) @ (d_ff, d), "
              "so 2·n·d·d_ff."}),
        "calls-attnkit": ('''\
from attnkit.cost import layer_macs

def layer_cost(n, d, d_ff):
    m = layer_macs(n, d, d_ff)
    return m["projections"], m["scores"], m["weighted_sum"], m["feed_forward"]
''', 0, None, "library"),
    },
)
