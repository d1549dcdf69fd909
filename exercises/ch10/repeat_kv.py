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
    return np.repeat(kv, n_rep, axis=0)     # (n_kv_heads * n_rep, n, d_head): 0, 0, 1, 1, ...
'''

mqa = np.arange(6.0).reshape(1, 3, 2)             # (n_kv_heads=1, n=3, d_head=2): every number says where it came from
gqa = np.arange(12.0).reshape(2, 3, 2)            # (n_kv_heads=2, n=3, d_head=2)

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
''', 1),
    },
)
