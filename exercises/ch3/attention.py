"""3.6 Scaled dot-product attention: the four steps in one function."""
import numpy as np

from attnkit import scaled_dot_product_attention
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def attention(q, k, v):
    # q: (n_q, d_k)，k: (n_k, d_k)，v: (n_k, d_v) [zh]
    # q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v) [en]
    # 四步：打分、除以 √d_k、每行 softmax、按份额把 v 加权求和；返回 (n_q, d_v) [zh]
    # four steps: score, divide by √d_k, softmax each row, mix the rows of v by the shares; return (n_q, d_v) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def attention(q, k, v):
    d_k = q.shape[-1]
    scores = q @ k.T / np.sqrt(d_k)                     # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)          # (n_q, n_k) 每一行加起来是 1 [zh]
    weights = e / e.sum(axis=1, keepdims=True)          # (n_q, n_k) each row adds up to 1 [en]
    return weights @ v                                  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)
'''

q1 = np.array([[1.0], [-2.0]])                     # (2, 1): with d_k = 1, √d_k = 1
k1 = np.array([[2.0], [0.0], [-1.0]])              # (3, 1)
v1 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
q2 = np.array([[2.0, 0.0, 1.0, 1.0]])                                                     # (1, 4)
k2 = np.array([[2.0, 0.0, 1.0, 1.0], [0.0, 2.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [-1.0, 0.0, 0.0, 2.0]])
v2 = np.array([[10.0], [20.0], [30.0], [40.0]])                                           # (4, 1)


def expected(q, k, v):
    return scaled_dot_product_attention(q, k, v)[0]


def held_out(rng):
    """Attention the page does not list: random queries, keys and values, as many queries as keys
    never, d_k never 1 (so the scaling shows)."""
    cases = []
    for n_q, n_k, d_k, d_v in ((3, 5, 4, 2), (1, 3, 9, 3)):
        q_, k_, v_ = rng.normal(size=(n_q, d_k)) * 2, rng.normal(size=(n_k, d_k)) * 2, rng.normal(size=(n_k, d_v))
        cases.append(Case(args=(q_, k_, v_), expected=expected(q_, k_, v_),
                          about={"zh": f"随机的 {n_q} 个查询、{n_k} 个键，d_k = {d_k}",
                                 "en": f"{n_q} random queries, {n_k} keys, d_k = {d_k}"},
                          hint={"zh": "打分 q @ k.T，除以 √d_k，每一行做 softmax，再乘 v。",
                                "en": "Score with q @ k.T, divide by √d_k, softmax each row, then multiply by v."}))
    return cases


EXERCISE = Exercise(
    id="ch3-attention",
    title={"zh": "缩放点积注意力", "en": "Scaled dot-product attention"},
    function="attention",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(q1, k1, v1), expected=expected(q1, k1, v1),
             about={"zh": "两个查询、三个键，d_k = 1", "en": "two queries, three keys, d_k = 1"},
             hint={"zh": "softmax 要在每一行里做（axis=1：一个查询对所有键的份额加起来是 1），不是每一列。",
                   "en": "Take the softmax along each row (axis=1: one query's shares over all keys add up to "
                         "1), not down each column."}),
        Case(args=(q2, k2, v2), expected=expected(q2, k2, v2),
             about={"zh": "一个查询、四个键，d_k = 4", "en": "one query, four keys, d_k = 4"},
             hint={"zh": "打分之后要除以 √dₖ（这里是 2），再做 softmax；不缩放，份额会过分偏向分数最高的键。",
                   "en": "After scoring, divide by √dₖ (here 2) before the softmax; unscaled, the shares lean "
                         "too hard towards the highest-scoring key."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.scaled_dot_product_attention", "attnkit.core.multi_head_attention"),
    wrong={
        "unscaled": ('''\
import numpy as np

def attention(q, k, v):
    scores = q @ k.T
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True) @ v
''', 1, {"zh": "你没有缩放：打分之后要除以 √d_k（d_k 是 q 的列数），再做 softmax；不缩放，份额会过分偏向分数最高的键。",
        "en": "You did not scale: after scoring, divide by √d_k (d_k is the number of columns of q) before the "
              "softmax; unscaled, the shares lean too hard towards the highest-scoring key."}),
        "columns": ('''\
import numpy as np

def attention(q, k, v):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    return (e / e.sum(axis=0, keepdims=True)) @ v
''', 0),
        "calls-attnkit": ('''\
from attnkit import scaled_dot_product_attention

def attention(q, k, v):
    return scaled_dot_product_attention(q, k, v)[0]
''', 0, None, "library"),
    },
)
