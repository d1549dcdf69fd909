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
    # 把 k、v 接到缓存末尾，再让 q 看缓存里的全部词： [zh]
    #   分数 = k_cache @ q / √d_k，softmax 之后按份额把 v_cache 加权求和 [zh]
    # 返回 (输出 (d_v,), 新 k_cache, 新 v_cache) [zh]
    # append k and v to the end of the cache, then let q attend over every cached token: [en]
    #   scores = k_cache @ q / √d_k, softmax, then mix the rows of v_cache by the shares [en]
    # return (output (d_v,), new k_cache, new v_cache) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    # 新的键放在最后 [zh]
    # the new key goes last [en]
    k_cache = np.vstack([k_cache, k])                  # (t + 1, d_k)
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


def held_out(rng):
    """Steps the page does not list: random caches of other lengths and widths (d_k never 1)."""
    cases = []
    for t, d_k, d_v in ((int(rng.integers(4, 8)), 9, 3), (1, 2, 5)):
        kc, vc = rng.normal(size=(t, d_k)) * 2, rng.normal(size=(t, d_v))      # (t, d_k), (t, d_v)
        q_, k_, v_ = rng.normal(size=d_k) * 2, rng.normal(size=d_k) * 2, rng.normal(size=d_v)
        cases.append(Case(args=(kc, vc, q_, k_, v_), expected=expected(kc, vc, q_, k_, v_),
                          about={"zh": f"缓存里已有 {t} 个随机的词，d_k = {d_k}，d_v = {d_v}",
                                 "en": f"{t} random tokens already cached, d_k = {d_k}, d_v = {d_v}"},
                          hint={"zh": "先把 k、v 接到缓存末尾，再算 softmax(k_cache @ q / √d_k) @ v_cache。",
                                "en": "Append k and v to the cache first, then compute softmax(k_cache @ q / √d_k) "
                                      "@ v_cache."}))
    return cases


EXERCISE = Exercise(
    id="ch9-kv-cache",
    title={"zh": "带 KV 缓存的一步解码", "en": "One decoding step with a KV cache"},
    function="step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(k_cache, v_cache, q, k, v), expected=expected(k_cache, v_cache, q, k, v),
             about={"zh": "缓存里已有 3 个词", "en": "3 tokens already cached"},
             hint={"zh": "先把新词的 k、v 接到缓存末尾（np.vstack），再打分：新词也要看它自己。"
                         "分数是 k_cache @ q / √d_k（这里 d_k = 4，除以 2）。",
                   "en": "Append the new token's k and v at the end of the cache first (np.vstack), then "
                         "score: the new token attends to itself too. The scores are k_cache @ q / √d_k "
                         "(here d_k = 4: divide by 2)."}),
        Case(args=(empty_k, empty_v, q, k, v), expected=expected(empty_k, empty_v, q, k, v),
             about={"zh": "第一个词，缓存是空的", "en": "the first token: the cache is empty"},
             hint={"zh": "缓存为空时，新词只能看自己，输出就是它自己的 v。",
                   "en": "With an empty cache the new token can only look at itself, so the output is its own v."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.scaled_dot_product_attention",),
    wrong={
        "attends-before-storing": ('''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    scores = k_cache @ q / np.sqrt(len(q))
    e = np.exp(scores - scores.max())
    out = (e / e.sum()) @ v_cache
    return out, np.vstack([k_cache, k]), np.vstack([v_cache, v])
''', 0, {"zh": "你先打分、后存：新词没有看到它自己。先把 k、v 接到缓存末尾，再让 q 看缓存里的全部词。",
        "en": "You scored before storing, so the new token did not see itself. Append k and v to the cache "
              "first, then let q attend over every cached token."}),
        "unscaled": ('''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    k_cache = np.vstack([k_cache, k])
    v_cache = np.vstack([v_cache, v])
    scores = k_cache @ q
    e = np.exp(scores - scores.max())
    return (e / e.sum()) @ v_cache, k_cache, v_cache
''', 0, {"zh": "k、v 接对了，但分数没有缩放：和所有的注意力一样，打分以后要除以 √d_k（d_k 是 q 的长度），再做 softmax。",
        "en": "k and v are appended right, but the scores are not scaled: as in all attention, divide them by "
              "√d_k (d_k is the length of q) before the softmax."}),
        "new-row-first": ('''\
import numpy as np

def step(k_cache, v_cache, q, k, v):
    k_cache = np.vstack([k, k_cache])
    v_cache = np.vstack([v, v_cache])
    scores = k_cache @ q / np.sqrt(len(q))
    e = np.exp(scores - scores.max())
    return (e / e.sum()) @ v_cache, k_cache, v_cache
''', 0, {"zh": "新的键和值要放在缓存的最后，不是最前：缓存按词的顺序排。",
        "en": "The new key and value go at the end of the cache, not the start: the cache keeps the tokens in order."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit import scaled_dot_product_attention

def step(k_cache, v_cache, q, k, v):
    k_cache, v_cache = np.vstack([k_cache, k]), np.vstack([v_cache, v])
    return scaled_dot_product_attention(q[None], k_cache, v_cache)[0][0], k_cache, v_cache
''', 0, None, "library"),
    },
)
