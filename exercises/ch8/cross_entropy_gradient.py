"""8.1 Which way to nudge the logits: the gradient of one guess's cross-entropy."""
import numpy as np

from attnkit import softmax
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def gradient(logits, target):
    # logits: (V,)；target: 正确答案的编号 [zh]
    # logits: (V,); target: the right answer's index [en]
    # 返回损失 −log softmax(logits)[target] 对每个 logit 的导数，形状 (V,) [zh]
    # 它等于 p − one_hot：p = softmax(logits)，one_hot 只在 target 处是 1，其余是 0 [zh]
    # return the derivative of the loss −log softmax(logits)[target] with respect to each logit, shape (V,) [en]
    # it is p − one_hot: p = softmax(logits), and one_hot is 1 at target, 0 elsewhere [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def gradient(logits, target):
    e = np.exp(logits - np.max(logits))
    p = e / np.sum(e)          # (V,) softmax
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0      # (V,) 正确答案处是 1 [zh]
    one_hot[target] = 1.0      # (V,) 1 at the right answer [en]
    return p - one_hot         # (V,) 把正确的 logit 往上推，其余的往下推 [zh]
    return p - one_hot         # (V,) push the right logit up, the others down [en]
'''

logits = np.array([2.0, 1.0, 0.1, -1.0])


def expected(logits, target):
    return softmax(logits) - np.eye(len(logits))[target]


def held_out(rng):
    """Gradients the page does not list: random logits, once around 1000."""
    cases = []
    for offset in (0.0, 1000.0):
        V = int(rng.integers(3, 8))
        logits_ = offset + np.round(rng.normal(scale=2.0, size=V), 2)       # (V,)
        target = int(rng.integers(V))
        cases.append(Case(args=(logits_, target), expected=expected(logits_, target),
                          about={"zh": f"{V} 个随机的分数，target = {target}（从 0 数起）",
                                 "en": f"{V} random logits, target = {target} (counting from 0)"},
                          hint={"zh": "p − one_hot：p = softmax(logits)（先减去最大的 logit），再在 target 处减 1。",
                                "en": "p − one_hot: p = softmax(logits) (after subtracting the largest logit), minus 1 "
                                      "at target."}))
    return cases


EXERCISE = Exercise(
    id="ch8-cross-entropy-gradient",
    title={"zh": "交叉熵对 logits 的梯度", "en": "The gradient of the cross-entropy"},
    function="gradient",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(logits, 2), expected=expected(logits, 2),
             about={"zh": "四个字母，target = 2（从 0 数起：第三个字母）",
                    "en": "four letters, target = 2 (counting from 0: the third letter)"},
             hint={"zh": "结果是 p − one_hot：每个字母的概率，正确答案那一项再减 1。"
                         "符号要对：梯度指向损失上升的方向，正确答案那一项应为负。",
                   "en": "The result is p − one_hot: each letter's probability, minus 1 at the right answer. "
                         "Mind the sign: the gradient points where the loss rises, so the right answer's entry "
                         "is negative."}),
        Case(args=(np.array([1000.0, 0.0, -1000.0]), 0), expected=expected(np.array([1000.0, 0.0, -1000.0]), 0),
             about={"zh": "很大的分数，模型已经很确定，target = 0", "en": "large logits: the model is already sure, target = 0"},
             hint={"zh": "先减去最大的 logit 再取 e 的幂，softmax 才不会溢出。",
                   "en": "Subtract the largest logit before raising e to the logits, so softmax does not "
                         "overflow."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.tinygpt.cross_entropy", "attnkit.tinygpt._cross_entropy"),
    wrong={
        "flipped-sign": ('''\
import numpy as np

def gradient(logits, target):
    e = np.exp(logits - np.max(logits))
    p = e / np.sum(e)
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0
    return one_hot - p
''', 0, {"zh": "符号反了：梯度指向损失上升的方向，是 p − one_hot，不是 one_hot − p；正确答案那一项应为负。",
        "en": "The sign is flipped: the gradient points where the loss rises, so it is p − one_hot, not "
              "one_hot − p; the right answer's entry is negative."}),
        "only-the-right-one": ('''\
import numpy as np

def gradient(logits, target):
    e = np.exp(logits - np.max(logits))
    p = e / np.sum(e)
    g = np.zeros_like(p)
    g[target] = p[target] - 1.0
    return g
''', 0, {"zh": "别的字母也有梯度：每一项都是 p，只有正确答案那一项再减 1。",
        "en": "The other letters have a gradient too: every entry is p, and only the right answer's has 1 taken off."}),
        "overflows": ('''\
import numpy as np

def gradient(logits, target):
    p = np.exp(logits) / np.sum(np.exp(logits))
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0
    return p - one_hot
''', 1, {"zh": "e^1000 溢出了：先减去最大的 logit 再取 e 的幂，softmax 才不会溢出。",
        "en": "e^1000 overflows: subtract the largest logit before raising e to the logits, so softmax does not "
              "overflow."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit.tinygpt import cross_entropy

def gradient(logits, target):
    return cross_entropy(logits[None, None], np.array([[target]]))[1][0, 0]
''', 0, None, "library"),
    },
)
