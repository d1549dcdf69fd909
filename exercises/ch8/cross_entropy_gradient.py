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
    # return the derivative of the loss −log softmax(logits)[target] with respect to each logit, shape (V,) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def gradient(logits, target):
    e = np.exp(logits - np.max(logits))
    p = e / np.sum(e)          # (V,) softmax
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0      # (V,) 1 at the right answer
    return p - one_hot         # (V,) push the right logit up, the others down
'''

logits = np.array([2.0, 1.0, 0.1, -1.0])


def expected(logits, target):
    return softmax(logits) - np.eye(len(logits))[target]


EXERCISE = Exercise(
    id="ch8-cross-entropy-gradient",
    title={"zh": "交叉熵对 logits 的梯度", "en": "The gradient of the cross-entropy"},
    function="gradient",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(logits, 2), expected=expected(logits, 2),
             about={"zh": "四个字母，正确答案是第 2 个", "en": "four letters, the right one is number 2"},
             hint={"zh": "结果是 p − one_hot：每个字母的概率，正确答案那一项再减 1。"
                         "符号要对：梯度指向损失上升的方向，正确答案那一项应为负。",
                   "en": "The result is p − one_hot: each letter's probability, minus 1 at the right answer. "
                         "Mind the sign: the gradient points where the loss rises, so the right answer's entry "
                         "is negative."}),
        Case(args=(np.array([1000.0, 0.0, -1000.0]), 0), expected=expected(np.array([1000.0, 0.0, -1000.0]), 0),
             about={"zh": "很大的分数，模型已经很确定", "en": "large logits: the model is already sure"},
             hint={"zh": "先减去最大的 logit 再取 e 的幂，softmax 才不会溢出。",
                   "en": "Subtract the largest logit before raising e to the logits, so softmax does not "
                         "overflow."}),
    ],
    wrong={
        "flipped-sign": ('''\
import numpy as np

def gradient(logits, target):
    p = np.exp(logits) / np.sum(np.exp(logits))
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0
    return one_hot - p
''', 0),
        "only-the-right-one": ('''\
import numpy as np

def gradient(logits, target):
    p = np.exp(logits) / np.sum(np.exp(logits))
    g = np.zeros_like(p)
    g[target] = p[target] - 1.0
    return g
''', 0),
        "overflows": ('''\
import numpy as np

def gradient(logits, target):
    p = np.exp(logits) / np.sum(np.exp(logits))
    one_hot = np.zeros_like(p)
    one_hot[target] = 1.0
    return p - one_hot
''', 1),
    },
)
