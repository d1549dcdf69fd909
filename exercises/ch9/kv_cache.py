"""9.3 One decoding step with a KV cache: store this token's key and value, then attend."""
import numpy as np

from attnkit import scaled_dot_product_attention
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    # k_cache: (t, d_k)、v_cache: (t, d_v)：之前 t 个词的键和值（t 可以是 0） [zh]
    # k_cache: (t, d_k), v_cache: (t, d_v): the keys and values of the t tokens so far (t may be 0) [en]
    # q、k: (d_k,)，v: (d_v,)：新词的查询、键、值 [zh]
    # q, k: (d_k,), v: (d_v,): the new token's query, key and value [en]
    # 把 k、v 接到缓存末尾，再让 q 看缓存里的全部词；返回 (输出 (d_v,), 新 k_cache, 新 v_cache) [zh]
    # append k and v to the end of the cache, then let q attend over every cached token; [en]
    # return (output (d_v,), new k_cache, new v_cache) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    k_cache = np.vstack([k_cache, k])                  # (t + 1, d_k): the new key goes last
    v_cache = np.vstack([v_cache, v])                  # (t + 1, d_v)
    scores = k_cache @ q / np.sqrt(len(q))             # (t + 1, d_k) @ (d_k,) -> (t + 1,)
    e = np.exp(scores - scores.max())
    weights = e / e.sum()                              # (t + 1,)
    return weights @ v_cache, k_cache, v_cache         # (d_v,), (t + 1, d_k), (t + 1, d_v)
'''

rng = np.random.default_rng(9)
k_cache, v_cache = rng.normal(size=(3, 4)), rng.normal(size=(3, 2))   # t = 3 tokens, d_k = 4, d_v = 2
q, k, v = rng.normal(size=4), rng.normal(size=4), rng.normal(size=2)
empty_k, empty_v = np.zeros((0, 4)), np.zeros((0, 2))                # the first token: nothing cached yet


def expected(k_cache, v_cache, q, k, v):
    keys, values = np.vstack([k_cache, k]), np.vstack([v_cache, v])   # (t + 1, d_k), (t + 1, d_v)
    out, _ = scaled_dot_product_attention(q[None, :], keys, values)   # (1, d_v)
    return out[0], keys, values


EXERCISE = Exercise(
    id="ch9-kv-cache",
    title={"zh": "带 KV 缓存的一步解码", "en": "One decoding step with a KV cache"},
    function="step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(k_cache, v_cache, q, k, v), expected=expected(k_cache, v_cache, q, k, v),
             about={"zh": "缓存里已有 3 个词", "en": "3 tokens already cached"},
             hint={"zh": "先把新词的 k、v 接到缓存末尾（np.vstack），再打分：新词也要看它自己。",
                   "en": "Append the new token's k and v at the end of the cache first (np.vstack), then "
                         "score: the new token attends to itself too."}),
        Case(args=(empty_k, empty_v, q, k, v), expected=expected(empty_k, empty_v, q, k, v),
             about={"zh": "第一个词，缓存是空的", "en": "the first token: the cache is empty"},
             hint={"zh": "缓存为空时，新词只能看自己，输出就是它自己的 v。",
                   "en": "With an empty cache the new token can only look at itself, so the output is its own v."}),
    ],
    wrong={
        "attends-before-storing": ('''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    scores = k_cache @ q / np.sqrt(len(q))
    e = np.exp(scores - scores.max())
    out = (e / e.sum()) @ v_cache
    return out, np.vstack([k_cache, k]), np.vstack([v_cache, v])
''', 0),
        "new-row-first": ('''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    k_cache = np.vstack([k, k_cache])
    v_cache = np.vstack([v, v_cache])
    scores = k_cache @ q / np.sqrt(len(q))
    e = np.exp(scores - scores.max())
    return (e / e.sum()) @ v_cache, k_cache, v_cache
''', 0),
    },
)
