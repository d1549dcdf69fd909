"""10.2 Repeat each key/value head for its group of query heads (GQA's repeat_kv)."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.grouped import repeat_kv

STARTER = '''\
import numpy as np

def repeat_kv(kv, n_rep):
    # kv：(n_kv_heads, n, d_head)，每个键/值头一张 (n, d_head) 的表 [zh]
    # kv: (n_kv_heads, n, d_head), one (n, d_head) table per key/value head [en]
    # 返回 (n_kv_heads * n_rep, n, d_head)：查询头 h 拿到键/值头 h // n_rep [zh]
    # return (n_kv_heads * n_rep, n, d_head): query head h gets key/value head h // n_rep [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def repeat_kv(kv, n_rep):
    # np.repeat 把每个头各复制 n_rep 份：0, 0, 1, 1, …… [zh]
    # np.repeat copies each head n_rep times: 0, 0, 1, 1, ... [en]
    return np.repeat(kv, n_rep, axis=0)     # (n_kv_heads * n_rep, n, d_head)
'''

mqa = np.arange(6.0).reshape(1, 3, 2)             # (n_kv_heads=1, n=3, d_head=2): every number says where it came from
gqa = np.arange(12.0).reshape(2, 3, 2)            # (n_kv_heads=2, n=3, d_head=2)

def held_out(rng):
    """Groups the page does not list: random heads (at least two) each copied two or more times."""
    cases = []
    for n_kv_heads in (2, int(rng.integers(3, 5))):
        n, d_head, n_rep = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(2, 5))
        kv = rng.integers(-9, 10, size=(n_kv_heads, n, d_head)).astype(float)   # (n_kv_heads, n, d_head)
        cases.append(Case(args=(kv, n_rep), expected=repeat_kv(kv, n_rep),
                          about={"zh": f"{n_kv_heads} 个随机的键/值头，每个给 {n_rep} 个查询头",
                                 "en": f"{n_kv_heads} random key/value heads, each for {n_rep} query heads"},
                          hint={"zh": "沿第 0 个轴把每个头各复制 n_rep 份：np.repeat(kv, n_rep, axis=0)。",
                                "en": "Copy each head n_rep times along axis 0: np.repeat(kv, n_rep, axis=0)."}))
    return cases


EXERCISE = Exercise(
    id="ch10-repeat-kv",
    title={"zh": "给每组查询头复制键/值头", "en": "Repeat the key/value heads for each group"},
    function="repeat_kv",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(mqa, 4), expected=repeat_kv(mqa, 4),
             about={"zh": "MQA：1 个键/值头给 4 个查询头", "en": "MQA: 1 key/value head for 4 query heads"},
             hint={"zh": "结果要有 n_kv_heads × n_rep 个头：沿第 0 个轴把每个键/值头复制 n_rep 份。",
                   "en": "The result has n_kv_heads × n_rep heads: copy each key/value head n_rep times along axis 0."}),
        Case(args=(gqa, 2), expected=repeat_kv(gqa, 2),
             about={"zh": "GQA：2 个键/值头，每个给 2 个查询头", "en": "GQA: 2 key/value heads, each for 2 query heads"},
             hint={"zh": "查询头 1、2 读键/值头 1，查询头 3、4 读键/值头 2：顺序是 1, 1, 2, 2，不是 1, 2, 1, 2。"
                         "np.tile 把整叠重复，np.repeat 把每个重复。",
                   "en": "Query heads 1 and 2 read key/value head 1, heads 3 and 4 read head 2: the order is 1, 1, 2, 2, "
                         "not 1, 2, 1, 2. np.tile repeats the whole stack; np.repeat repeats each one."}),
        Case(args=(gqa, 1), expected=repeat_kv(gqa, 1),
             about={"zh": "n_rep = 1：就是 MHA，什么都不用复制", "en": "n_rep = 1: plain MHA, nothing to copy"},
             hint={"zh": "n_rep = 1 时原样返回这些头。", "en": "With n_rep = 1 the heads come back as they are."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.grouped.repeat_kv",),
    wrong={
        "no-repeat": ('''\
import numpy as np

def repeat_kv(kv, n_rep):
    return kv
''', 0),
        "tiled": ('''\
import numpy as np

def repeat_kv(kv, n_rep):
    return np.tile(kv, (n_rep, 1, 1))
''', 1, {"zh": "你把整叠头重复了（np.tile），顺序成了 1, 2, 1, 2。每个头要挨着复制：1, 1, 2, 2，用 np.repeat。",
        "en": "You repeated the whole stack (np.tile), giving the order 1, 2, 1, 2. Copy each head next to itself, "
              "1, 1, 2, 2: np.repeat."}),
        "calls-attnkit": ('''\
from attnkit.grouped import repeat_kv
''', 0, None, "library"),
    },
)
