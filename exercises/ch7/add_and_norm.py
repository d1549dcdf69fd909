"""7.3 Act four: the residual connection and layer norm, LN(x + sublayer(x)), row by row."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.layers import layer_norm, residual
from attnkit.story import story

STARTER = '''\
import numpy as np

def add_and_norm(x, sublayer_out):
    # x：这一层的输入，形状 (n, d_model)；sublayer_out：子层（比如多头注意力）的输出，形状相同 [zh]
    # x: the layer's input, shape (n, d_model); sublayer_out: what the sub-layer (multi-head attention, say) gave, same shape [en]
    # 先做残差连接，再对每一行做层归一化：平均值变成 0，方差变成 1（分母里加 eps = 1e-5） [zh]
    # first the residual connection, then layer norm on every row: mean 0, variance 1 (add eps = 1e-5 under the root) [en]
    # 返回形状 (n, d_model) [zh]
    # return shape (n, d_model) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = x + sublayer_out                              # (n, d_model) 留住输入，加上子层找到的 [zh]
    s = x + sublayer_out                              # (n, d_model) keep the input, add what was found [en]
    mean = s.mean(axis=1, keepdims=True)              # (n, 1) 每一行自己的平均值 [zh]
    mean = s.mean(axis=1, keepdims=True)              # (n, 1) each row's own mean [en]
    var = s.var(axis=1, keepdims=True)                # (n, 1) 每一行自己的方差 [zh]
    var = s.var(axis=1, keepdims=True)                # (n, 1) each row's own variance [en]
    return (s - mean) / np.sqrt(var + eps)            # (n, d_model) 每一行：平均值 0，方差约为 1 [zh]
    return (s - mean) / np.sqrt(var + eps)            # (n, d_model) each row: mean 0, variance ~1 [en]
'''


def expected(x, sublayer_out):
    return layer_norm(residual(x, sublayer_out))     # attnkit: gamma = 1, beta = 0, eps = 1e-5


zeros = np.zeros((1, 4))                              # (1, 4) an input of zeros: only the sub-layer counts
found = np.array([[1.0, 2.0, 3.0, 6.0]])              # (1, 4)
x_one = np.array([[2.0, -1.0, 0.0, 3.0]])             # (1, 4)
s = story("zh")                                       # the layer of 7.3 (these two rows are the same in "en")
mary_and_she = [s.index("小红"), s.index("她")]
x_two, attn_two = s.x[mary_and_she], s.attn[mary_and_she]       # (2, 12) two rows of 7.3's layer

def held_out(rng):
    """Layers the page does not list: random inputs and sub-layer outputs, each row with its own
    mean, and a variance near 1 (so that leaving eps out shows)."""
    cases = []
    for n, d in ((3, 5), (2, 8)):
        x_ = rng.normal(size=(n, d)) + rng.normal(scale=3.0, size=(n, 1))     # (n, d) rows of different means
        found_ = rng.normal(size=(n, d))                                       # (n, d)
        cases.append(Case(args=(x_, found_), expected=expected(x_, found_),
                          about={"zh": f"随机的 {n} 行，d_model = {d}", "en": f"{n} random rows, d_model = {d}"},
                          hint={"zh": "s = x + sublayer_out；每一行 (s − 平均值) / √(方差 + eps)。",
                                "en": "s = x + sublayer_out; each row becomes (s − its mean) / √(its variance + eps)."}))
    return cases


EXERCISE = Exercise(
    id="ch7-add-and-norm",
    title={"zh": "残差连接和层归一化", "en": "The residual connection and layer norm"},
    function="add_and_norm",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(zeros, found), expected=expected(zeros, found),
             about={"zh": "一行，输入全是 0", "en": "one row whose input is all 0"},
             hint={"zh": "层归一化先减去这一行的平均值（让平均值变成 0），再除以 √(方差 + eps)。"
                         "只除不减，平均值就还不是 0。",
                   "en": "Layer norm first subtracts the row's mean (so the mean becomes 0), then divides by "
                         "√(variance + eps). Dividing without subtracting leaves the mean where it was."}),
        Case(args=(x_one, found), expected=expected(x_one, found),
             about={"zh": "一行，输入不是 0", "en": "one row whose input is not 0"},
             hint={"zh": "残差连接：先把输入 x 和子层的输出加起来，再归一化；别把 x 丢掉。",
                   "en": "The residual connection: add the input x and the sub-layer's output first, then "
                         "normalise; do not drop x."}),
        Case(args=(x_two, attn_two), expected=expected(x_two, attn_two),
             about={"zh": "7.3 节那一层里小红和“她”两行", "en": "the rows of Mary and she in the layer of 7.3"},
             hint={"zh": "每一行用自己的平均值和方差（axis=1，keepdims=True），不是整张表的平均值。",
                   "en": "Each row uses its own mean and variance (axis=1, keepdims=True), not the mean of the "
                         "whole table."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.layers.layer_norm", "attnkit.layers.layer_norm_forward"),
    wrong={
        "no-centring": ('''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = x + sublayer_out
    return s / np.sqrt(s.var(axis=1, keepdims=True) + eps)
''', 0),
        "eps-outside-root": ('''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = x + sublayer_out
    return (s - s.mean(axis=1, keepdims=True)) / (np.sqrt(s.var(axis=1, keepdims=True)) + eps)
''', 0, {"zh": "eps 要加在根号里面：除以 √(方差 + eps)，不是 √方差 + eps。两者只差百万分之几，但检查看得出来。",
        "en": "eps goes under the square root: divide by √(variance + eps), not √variance + eps. The two differ "
              "by a few millionths, which the check does see."}),
        "no-eps": ('''\
import numpy as np

def add_and_norm(x, sublayer_out):
    s = x + sublayer_out
    return (s - s.mean(axis=1, keepdims=True)) / np.sqrt(s.var(axis=1, keepdims=True))
''', 0, {"zh": "少了 eps：除以 √(方差 + eps)，eps = 1e-5。它让一行全相同的数（方差为 0）也不会除以 0；"
              "少了它，结果只差百万分之几，但检查看得出来。",
        "en": "eps is missing: divide by √(variance + eps), with eps = 1e-5. It keeps a row of equal numbers "
              "(variance 0) from dividing by 0; without it the result is off by a few millionths, which the "
              "check does see."}),
        "sample-variance": ('''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = x + sublayer_out
    return (s - s.mean(axis=1, keepdims=True)) / np.sqrt(s.var(axis=1, ddof=1, keepdims=True) + eps)
''', 0, {"zh": "层归一化用的是普通方差（除以 d_model，np.var 的默认），不是样本方差（ddof=1，除以 d_model − 1）。",
        "en": "Layer norm uses the plain variance (divided by d_model, np.var's default), not the sample "
              "variance (ddof=1, divided by d_model − 1)."}),
        "no-residual": ('''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = sublayer_out
    return (s - s.mean(axis=1, keepdims=True)) / np.sqrt(s.var(axis=1, keepdims=True) + eps)
''', 1),
        "whole-table": ('''\
import numpy as np

def add_and_norm(x, sublayer_out, eps=1e-5):
    s = x + sublayer_out
    return (s - s.mean()) / np.sqrt(s.var() + eps)
''', 2),
        "calls-attnkit": ('''\
from attnkit.layers import layer_norm

def add_and_norm(x, sublayer_out):
    return layer_norm(x + sublayer_out)
''', 0, None, "library"),
    },
)
