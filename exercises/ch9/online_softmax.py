"""9.5 One update of the online softmax: fold a new block of scores into the running max and sum."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.tiled import online_softmax_trace

STARTER = '''\
import numpy as np

def update(m, l, block):
    # m：目前见过的最大分数；l：目前见过的 e^(分数 − m) 之和；block：新一块分数，形状 (b,) [zh]
    # m: the largest score so far; l: the sum of e^(score − m) so far; block: the next scores, shape (b,) [en]
    # 返回把这一块也算进去之后的 (m_new, l_new) [zh]
    # return (m_new, l_new) with this block counted in [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def update(m, l, block):
    m_new = max(m, np.max(block))                              # 到目前为止最大的分数 [zh]
    m_new = max(m, np.max(block))                              # the largest score so far [en]
    l_new = l * np.exp(m - m_new) + np.sum(np.exp(block - m_new))   # 旧的和换算到 m_new [zh]
    l_new = l * np.exp(m - m_new) + np.sum(np.exp(block - m_new))   # old sum re-measured against m_new [en]
    return m_new, l_new
'''


def case_from(seen, block):
    """(m, l) after ``seen`` and the expected (m, l) after ``block`` too, from attnkit's own trace."""
    trace = online_softmax_trace(np.concatenate([seen, block]), block_size=len(seen))
    return (float(trace.running_max[0]), float(trace.running_sum[0]), block), \
        (float(trace.running_max[1]), float(trace.running_sum[1]))


args_same, expected_same = case_from(np.array([1.0, 3.0]), np.array([2.0, 0.0]))   # the max stays 3
args_new, expected_new = case_from(np.array([1.0, 3.0]), np.array([5.0, 2.0]))     # the max becomes 5

def held_out(rng):
    """Updates the page does not list: random blocks, one that raises the max and one that does not."""
    cases = []
    for raises in (True, False):
        seen = np.round(rng.normal(scale=2.0, size=int(rng.integers(2, 6))), 2)       # (b_seen,)
        block = np.round(rng.normal(scale=2.0, size=len(seen)), 2)                     # (b,)
        top = seen.max() + (np.round(rng.uniform(0.5, 3.0), 2) if raises else -np.round(rng.uniform(0.5, 3.0), 2))
        block[int(rng.integers(len(block)))] = top
        if not raises:
            block = np.minimum(block, top)
        args, answer = case_from(seen, block)
        cases.append(Case(args=args, expected=answer,
                          about={"zh": "随机的一块分数，" + ("其中有更大的分数" if raises else "里面没有更大的分数"),
                                 "en": "a random block " + ("holding a larger score" if raises else "holding no larger score")},
                          hint={"zh": "m_new = max(m, max(block))；l_new = l·e^(m − m_new) + Σ e^(block − m_new)。",
                                "en": "m_new = max(m, max(block)); l_new = l·e^(m − m_new) + Σ e^(block − m_new)."}))
    return cases


EXERCISE = Exercise(
    id="ch9-online-softmax",
    title={"zh": "在线 softmax 的一次更新", "en": "One update of the online softmax"},
    function="update",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=args_same, expected=expected_same,
             about={"zh": "新一块里没有更大的分数", "en": "the new block holds no larger score"},
             hint={"zh": "最大值不变时，只要把这一块的 e^(分数 − m) 加进 l。",
                   "en": "When the max does not change, just add the block's e^(score − m) to l."}),
        Case(args=args_new, expected=expected_new,
             about={"zh": "新一块里有更大的分数 5", "en": "the new block holds a larger score, 5"},
             hint={"zh": "新的最大值是 max(m, 这一块的最大值)。旧的 l 是相对旧 m 算的，"
                         "要先乘以 e^(m − m_new) 换算到新的最大值，再加上这一块的项。",
                   "en": "The new max is max(m, the block's max). The old l was measured against the old m: "
                         "multiply it by e^(m − m_new) to re-measure it against the new max, then add the "
                         "block's terms."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.tiled.online_softmax_trace",),
    wrong={
        "no-rescale": ('''\
import numpy as np

def update(m, l, block):
    m_new = max(m, np.max(block))
    return m_new, l + np.sum(np.exp(block - m_new))
''', 1, {"zh": "最大值变了，旧的 l 却没有换算：它是相对旧的 m 算的，要先乘以 e^(m − m_new)，再加上这一块的项。",
        "en": "The max changed but the old l was not re-measured: it was counted against the old m, so multiply "
              "it by e^(m − m_new) before adding the block's terms."}),
        "keeps-old-max": ('''\
import numpy as np

def update(m, l, block):
    return m, l + np.sum(np.exp(block - m))
''', 1, {"zh": "新的一块里有更大的分数：最大值要更新成 max(m, 这一块的最大值)。",
        "en": "The new block holds a larger score: the max becomes max(m, the block's max)."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit.tiled import online_softmax_trace

def update(m, l, block):
    trace = online_softmax_trace(np.concatenate([[m], block]), block_size=1)
    return trace.running_max[-1], trace.running_sum[-1] - 1 + l
''', 0, None, "library"),
    },
)
