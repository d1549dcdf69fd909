"""8.1 The loss of one guess: cross-entropy, stable for large logits."""
import numpy as np

from attnkit import softmax
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def cross_entropy(logits, target):
    # logits: 模型对每个可能的下一个字母打的分，形状 (V,)；target: 正确答案的编号 [zh]
    # logits: the model's score for every possible next letter, shape (V,); target: the right one's index [en]
    # 返回 −log p(target)，其中 p = softmax(logits)；logits 很大时也要算对 [zh]
    # return −log p(target), where p = softmax(logits); it must work for large logits too [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def cross_entropy(logits, target):
    shifted = logits - np.max(logits)                      # (V,) 最大的变成 0 [zh]
    shifted = logits - np.max(logits)                      # (V,) the largest becomes 0 [en]
    log_p = shifted - np.log(np.sum(np.exp(shifted)))      # (V,) log softmax
    return -log_p[target]
'''

small = np.array([2.0, 1.0, 0.1])
large = np.array([1000.0, 999.0, 990.0])


def expected(logits, target):
    return float(-np.log(softmax(logits)[target]))


def held_out(rng):
    """Guesses the page does not list: random logits, once around 1000."""
    cases = []
    for offset in (0.0, 1000.0):
        V = int(rng.integers(4, 9))
        logits_ = offset + np.round(rng.normal(scale=2.0, size=V), 2)      # (V,)
        target = int(rng.integers(V))
        cases.append(Case(args=(logits_, target), expected=expected(logits_, target),
                          about={"zh": f"{V} 个随机的分数（都在 {offset:g} 附近），target = {target}（从 0 数起）",
                                 "en": f"{V} random logits (near {offset:g}), target = {target} (counting from 0)"},
                          hint={"zh": "−log softmax(logits)[target]，先减去最大的 logit。",
                                "en": "−log softmax(logits)[target], after subtracting the largest logit."}))
    return cases


EXERCISE = Exercise(
    id="ch8-cross-entropy",
    title={"zh": "一次猜测的交叉熵", "en": "The cross-entropy of one guess"},
    function="cross_entropy",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(small, 0), expected=expected(small, 0),
             about={"zh": "三个字母，target = 0（从 0 数起：第一个字母）",
                    "en": "three letters, target = 0 (counting from 0: the first letter)"},
             hint={"zh": "logits 不是概率：先用 softmax 把它们变成加起来等于 1 的 p，再取 −log p[target]。",
                   "en": "Logits are not probabilities: turn them into p with softmax (they then add up to 1), "
                         "then take −log p[target]."}),
        Case(args=(large, 1), expected=expected(large, 1),
             about={"zh": "很大的分数 1000、999、990，target = 1", "en": "large logits 1000, 999, 990, target = 1"},
             hint={"zh": "e^1000 会溢出。先把每个分数减去最大值（p 不变），或者直接算 log softmax："
                         "shifted − log(sum(exp(shifted)))。",
                   "en": "e^1000 overflows. Subtract the largest logit first (p does not change), or work with "
                         "log softmax directly: shifted − log(sum(exp(shifted)))."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.tinygpt.cross_entropy", "attnkit.tinygpt._cross_entropy"),
    wrong={
        "no-softmax": ('''\
import numpy as np

def cross_entropy(logits, target):
    return -np.log(logits[target])
''', 0),
        "overflows": ('''\
import numpy as np

def cross_entropy(logits, target):
    p = np.exp(logits) / np.sum(np.exp(logits))
    return -np.log(p[target])
''', 1, {"zh": "e^1000 溢出了。先把每个分数减去最大值（p 不变），或者直接算 log softmax：shifted − log(sum(exp(shifted)))。",
        "en": "e^1000 overflows. Subtract the largest logit first (p does not change), or work with log softmax "
              "directly: shifted − log(sum(exp(shifted)))."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit.tinygpt import cross_entropy as book

def cross_entropy(logits, target):
    return book(logits[None, None], np.array([[target]]))[0]
''', 0, None, "library"),
    },
)
