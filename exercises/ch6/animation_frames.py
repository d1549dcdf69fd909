"""6.1 Before you watch: compute what the matrix animation draws, frame by frame."""
import numpy as np

from attnkit import toy
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    # x：一排词向量，形状 (n, d_model)；w_q、w_k：(d_model, d_k)；w_v：(d_model, d_v) [zh]
    # x: a row of word vectors, shape (n, d_model); w_q, w_k: (d_model, d_k); w_v: (d_model, d_v) [en]
    # 动画的顺序：生成 Q、K、V，点积，缩放，softmax，加权求和 [zh]
    # the animation's order: make Q, K, V; dot products; scale; softmax; weighted sum [en]
    # 返回两帧画面：热力图 weights (n, n)，和混合后的结果 (n, d_v) [zh]
    # return two of its frames: the heatmap weights (n, n) and the mixed result (n, d_v) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v         # (n, d_k), (n, d_k), (n, d_v)
    d_k = q.shape[1]
    scaled = q @ k.T / np.sqrt(d_k)              # (n, n) 每一对词一个分数 [zh]
    scaled = q @ k.T / np.sqrt(d_k)              # (n, n) one score for every pair of words [en]
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)   # (n, n) 每一行加起来是 1 [zh]
    weights = e / e.sum(axis=1, keepdims=True)   # (n, n) each row adds up to 1 [en]
    return weights, weights @ v                  # (n, n) @ (n, d_v) -> (n, d_v)
'''

x_small = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])     # (3, 2) three words, d_model = 2
eye = np.eye(2)                                                # (2, 2) Q = K = V = x
hungry = toy.run("cat-ball-hungry").x                          # (7, 10) the toy sentence of chapter 2
w_q1, w_k1, w_v1 = toy.STEPS[1]                                # its round 1: d_k = 2, d_model = 10


def expected(x, w_q, w_k, w_v):
    step = toy.attention_step(x, w_q, w_k, w_v)
    return step.weights, step.out


def held_out(rng):
    """Animations the page does not list: random words and weights, d_k neither 1 nor d_model."""
    cases = []
    for n, d_model, d_k, d_v in ((4, 6, 3, 6), (5, 3, 2, 3)):   # d_v = d_model: x + out is the next x
        x = rng.normal(size=(n, d_model))                                           # (n, d_model)
        w_q, w_k, w_v = (rng.normal(size=(d_model, d)) for d in (d_k, d_k, d_v))
        cases.append(Case(args=(x, w_q, w_k, w_v), expected=expected(x, w_q, w_k, w_v),
                          about={"zh": f"随机的 {n} 个词，d_model = {d_model}，d_k = {d_k}",
                                 "en": f"{n} random words, d_model = {d_model}, d_k = {d_k}"},
                          hint={"zh": "Q、K、V 各乘各的 W；打分除以 √d_k（Q 的列数），每一行 softmax，再乘 V。",
                                "en": "Q, K and V each take their own W; divide the scores by √d_k (the columns of Q), "
                                      "softmax each row, then multiply by V."}))
    return cases


EXERCISE = Exercise(
    id="ch6-animation-frames",
    title={"zh": "看动画之前：先算出它要画什么", "en": "Before you watch: compute what the animation draws"},
    function="frames",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(x_small, eye, eye, eye), expected=expected(x_small, eye, eye, eye),
             about={"zh": "三个词，W 都是单位矩阵（Q = K = V = x）", "en": "three words, every W the identity (Q = K = V = x)"},
             hint={"zh": "点积要先缩放，除以 √dₖ，再做 softmax；softmax 在每一行里做（axis=1），"
                         "热力图的每一行加起来是 1。",
                   "en": "Scale the dot products, dividing by √dₖ, before the softmax; take the softmax along "
                         "each row (axis=1), so that every row of the heatmap adds up to 1."}),
        Case(args=(hungry, w_q1, w_k1, w_v1), expected=expected(hungry, w_q1, w_k1, w_v1),
             about={"zh": "第 2 章玩具模型的第 1 轮（7 个词，d_model = 10，d_k = 2）",
                    "en": "round 1 of chapter 2's toy model (7 words, d_model = 10, d_k = 2)"},
             hint={"zh": "Q = x @ w_q，K = x @ w_k，V = x @ w_v；d_k 是 Q 的列数（这里是 2），不是 x 的列数。",
                   "en": "Q = x @ w_q, K = x @ w_k, V = x @ w_v; d_k is the number of columns of Q (here 2), "
                         "not of x."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.scaled_dot_product_attention", "attnkit.toy.attention_step"),
    wrong={
        "no-scaling": ('''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    e = np.exp(q @ k.T)
    weights = e / e.sum(axis=1, keepdims=True)
    return weights, weights @ v
''', 0, {"zh": "你没有缩放：点积要先除以 √d_k（d_k 是 Q 的列数），再做 softmax。",
        "en": "You did not scale: divide the dot products by √d_k (d_k is the number of columns of Q) before "
              "the softmax."}),
        "columns": ('''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    e = np.exp(q @ k.T / np.sqrt(q.shape[1]))
    weights = e / e.sum(axis=0, keepdims=True)
    return weights, weights @ v
''', 0),
        "scale-by-d-model": ('''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    e = np.exp(q @ k.T / np.sqrt(x.shape[1]))
    weights = e / e.sum(axis=1, keepdims=True)
    return weights, weights @ v
''', 1, {"zh": "你除以的是 √d_model。缩放用的是 √d_k：Q 和 K 的列数，不是 x 的列数。",
        "en": "You divided by √d_model. The scaling uses √d_k: the number of columns of Q and K, not of x."}),
        "keys-from-w_q": ('''\
import numpy as np

def frames(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_q, x @ w_v
    e = np.exp(q @ k.T / np.sqrt(q.shape[1]))
    weights = e / e.sum(axis=1, keepdims=True)
    return weights, weights @ v
''', 1, {"zh": "你用 w_q 算了 K。K = x @ w_k：键和查询各有各的权重。",
        "en": "You made K with w_q. K = x @ w_k: keys and queries have weights of their own."}),
        "calls-attnkit": ('''\
from attnkit import scaled_dot_product_attention

def frames(x, w_q, w_k, w_v):
    out, weights = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v)
    return weights, out
''', 0, None, "library"),
    },
)
