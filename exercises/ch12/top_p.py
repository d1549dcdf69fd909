"""12.3 Top-p (nucleus) filtering: keep the fewest likeliest tokens whose probabilities reach p."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.sampling import top_p_filter

STARTER = '''\
import numpy as np

def top_p(probs, p):
    # probs：下一个词元的概率，形状 (V,)，加起来是 1；p：0 到 1 之间的阈值 [zh]
    # probs: the next token's probabilities, shape (V,), summing to 1; p: a threshold in (0, 1] [en]
    # 按概率从大到小，留下最少的几个词元，让它们的概率加起来 >= p（p = 1 时全部留下）； [zh]
    # keep the fewest likeliest tokens whose probabilities add up to >= p (all when p = 1); [en]
    # 其余的变成 0，再把留下的重新归一化（加起来是 1） [zh]
    # set the rest to 0, then renormalise what is kept (so it sums to 1) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def top_p(probs, p):
    order = np.argsort(-probs, kind="stable")        # 最可能的在前；一样大时编号小的在前 [zh]
    order = np.argsort(-probs, kind="stable")        # most likely first; ties: smaller id first [en]
    total = np.cumsum(probs[order])                  # 最可能的 1、2、3……个加起来的概率 [zh]
    total = np.cumsum(probs[order])                  # probability of the 1, 2, 3 ... most likely [en]
    # 第一个达到 p 的个数（留一点余量：浮点数加起来可能差一丝） [zh]
    # the first count that reaches p (with a little slack: sums of floats can fall a hair short) [en]
    n_kept = int(np.searchsorted(total, p - 1e-12)) + 1
    kept = np.zeros_like(probs)
    kept[order[:n_kept]] = probs[order[:n_kept]]
    return kept / kept.sum()
'''

SPREAD = (np.array([0.05, 0.4, 0.25, 0.2, 0.1]), 0.8)     # 0.4 + 0.25 + 0.2 = 0.85 >= 0.8
EXACT = (np.array([0.5, 0.25, 0.125, 0.125]), 0.75)       # 0.5 + 0.25 reaches 0.75 exactly
ALL = (np.array([0.2, 0.5, 0.3]), 1.0)                    # p = 1 keeps every token (0.5 + 0.3 + 0.2 is exactly 1.0)
FEW_LARGE = (np.array([0.18, 0.32, 0.22, 0.28]), 0.7)     # 0.32 + 0.28 + 0.22 = 0.82 >= 0.7; only 0.32 is >= 1 − 0.7
SHORT = np.cumsum([0.7, 0.2, 0.1])[-1]                    # a float sum a hair short of 1 (0.9999999999999999)


def _sum(probs, p) -> str:
    """'0.32 + 0.28 + 0.22 = 0.82': the likeliest probabilities that first reach p, and their total."""
    ranked = np.sort(probs)[::-1]
    kept = ranked[:int(np.argmax(np.cumsum(ranked) >= p - 1e-12)) + 1]
    return f"{' + '.join(f'{x:g}' for x in kept)} = {kept.sum():.2f}"



def held_out(rng):
    """Distributions the page does not list. One random, whose running totals stay clear of p (so no
    rounding decides it); one of sixteenths (exact sums), with p one of its running totals exactly."""
    while True:
        probs = rng.dirichlet(np.ones(int(rng.integers(5, 9))))                     # (V,) adds up to 1
        p = float(np.round(rng.uniform(0.3, 0.95), 2))
        total = np.cumsum(np.sort(probs)[::-1])
        kept = top_p_filter(probs, p)
        if (np.min(np.abs(total - p)) > 1e-3 and not np.array_equal(kept > 0, probs >= 1 - p)
                and not np.array_equal(kept > 0, np.arange(len(probs)) < np.count_nonzero(kept))):
            break
    sixteenths = rng.permutation(np.array([6.0, 4.0, 3.0, 2.0, 1.0]) / 16)          # (5,) exact in binary
    exact = float(np.cumsum(np.sort(sixteenths)[::-1])[int(rng.integers(1, 3))])  # 10/16 or 13/16
    hint = {"zh": "按概率从大到小累加，加到 >= p 就停，留下这几个，再除以它们的和。",
            "en": "Add up the probabilities from the largest down, stop once the total is >= p, keep those, "
                  "then divide by their sum."}
    return [Case(args=(probs, p), expected=top_p_filter(probs, p), hint=hint,
                 about={"zh": f"{len(probs)} 个随机的概率，p = {p:g}", "en": f"{len(probs)} random probabilities, p = {p:g}"}),
            Case(args=(sixteenths, exact), expected=top_p_filter(sixteenths, exact), hint=hint,
                 about={"zh": f"以 1/16 为单位的 5 个概率，累计正好到 p = {exact:g}",
                        "en": f"5 probabilities in sixteenths, whose running total hits p = {exact:g} exactly"})]

EXERCISE = Exercise(
    id="ch12-top-p",
    title={"zh": "top-p 过滤：留下累计概率到 p 的那几个", "en": "Top-p filtering: keep the few that reach p"},
    function="top_p",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=SPREAD, expected=top_p_filter(*SPREAD),
             about={"zh": "概率没有按大小排好", "en": "the probabilities are not sorted"},
             hint={"zh": "先按概率从大到小排（np.argsort(-probs)），再累加；留下的是最可能的那几个，不是排在前面的那几个。",
                   "en": "Sort by probability, largest first (np.argsort(-probs)), then add up: keep the likeliest, not the first few in the list."}),
        Case(args=EXACT, expected=top_p_filter(*EXACT),
             about={"zh": "累计概率正好等于 p", "en": "the running total hits p exactly"},
             hint={"zh": f"加到正好等于 p 就够了：{_sum(*EXACT)}，留两个。用 >= p，不是 > p。",
                   "en": f"Reaching p exactly is enough: {_sum(*EXACT)} keeps two. Use >= p, not > p."}),
        Case(args=ALL, expected=top_p_filter(*ALL),
             about={"zh": "p = 1：全部留下", "en": "p = 1: keep everything"},
             hint={"zh": "p = 1 时每个词元都要留下，结果就是原来的概率。"
                         f"（浮点数加起来可能差一丝：0.7 + 0.2 + 0.1 得 {SHORT!r}。"
                         "比较时留一点余量，比如 total >= p − 1e-9。）",
                   "en": "With p = 1 every token stays, and the result is the distribution itself. (Sums of floats "
                         f"can fall a hair short: 0.7 + 0.2 + 0.1 gives {SHORT!r}. Compare with a little "
                         "slack, such as total >= p − 1e-9.)"}),
        Case(args=FEW_LARGE, expected=top_p_filter(*FEW_LARGE),
             about={"zh": "四个差不多大的概率，p = 0.7", "en": "four probabilities of about the same size, p = 0.7"},
             hint={"zh": f"要比的是累计概率和 p，不是每个概率和 1 − p：{_sum(*FEW_LARGE)} 才到 0.7，留三个。",
                   "en": f"Compare the running total with p, not each probability with 1 − p: it takes {_sum(*FEW_LARGE)} "
                         "to reach 0.7, so three stay."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.sampling.top_p_filter",),
    wrong={
        "unsorted": ('''\
import numpy as np

def top_p(probs, p):
    total = np.cumsum(probs)
    n_kept = int(np.searchsorted(total, p - 1e-12)) + 1
    kept = np.zeros_like(probs)
    kept[:n_kept] = probs[:n_kept]
    return kept / kept.sum()
''', 0, {"zh": "你按列表里的顺序累加了。先按概率从大到小排（np.argsort(-probs)），留下的是最可能的那几个。",
        "en": "You added up in the list's order. Sort by probability, largest first (np.argsort(-probs)): keep the "
              "likeliest ones."}),
        "strictly-above": ('''\
import numpy as np

def top_p(probs, p):
    order = np.argsort(-probs, kind="stable")
    total = np.cumsum(probs[order])
    n_kept = int(np.searchsorted(total, p, side="right")) + 1
    kept = np.zeros_like(probs)
    kept[order[:n_kept]] = probs[order[:n_kept]]
    return kept / kept.sum()
''', 1, {"zh": "加到正好等于 p 就够了：用 >= p，不是 > p。",
        "en": "Reaching p exactly is enough: use >= p, not > p."}),
        "above-one-minus-p": ('''\
import numpy as np

def top_p(probs, p):
    kept = np.where(probs >= 1 - p, probs, 0.0)
    return kept / kept.sum()
''', 3, {"zh": "你留下的是单个概率 >= 1 − p 的词元。top-p 比的是最可能的几个加起来的累计概率：加到 >= p 为止。",
        "en": "You kept the tokens whose own probability is >= 1 − p. Top-p compares the running total of the "
              "likeliest tokens with p: add them up until it is >= p."}),
        "calls-attnkit": ('''\
from attnkit.sampling import top_p_filter

def top_p(probs, p):
    return top_p_filter(probs, p)
''', 0, None, "library"),
    },
)
