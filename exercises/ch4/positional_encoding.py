"""4.2 The sinusoidal positional encoding of the 2017 paper."""
import numpy as np

from attnkit import sinusoidal_positional_encoding
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def positional_encoding(n_positions, d_model):
    # 返回 (n_positions, d_model) 的表：位置 p、第 2i 列是 sin(p / 10000^(2i/d_model))， [zh]
    # 第 2i+1 列是同一个角度的 cos [zh]
    # return the (n_positions, d_model) table: at position p, column 2i is sin(p / 10000^(2i/d_model)) [en]
    # and column 2i+1 the cos of the same angle [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def positional_encoding(n_positions, d_model):
    pe = np.zeros((n_positions, d_model))
    for p in range(n_positions):
        # i 取 0、2、4……：它就是公式里的“2i” [zh]
        # i runs over 0, 2, 4, ...: it is "2i" [en]
        for i in range(0, d_model, 2):
            angle = p / 10000 ** (i / d_model)
            pe[p, i] = np.sin(angle)
            if i + 1 < d_model:
                pe[p, i + 1] = np.cos(angle)
    return pe
'''


def held_out(rng):
    """Tables the page does not list: random lengths and even widths."""
    cases = []
    for d_model in (8, int(rng.choice([2, 10, 12]))):
        n = int(rng.integers(3, 9))
        cases.append(Case(args=(n, d_model), expected=sinusoidal_positional_encoding(n, d_model),
                          about={"zh": f"{n} 个位置、宽 {d_model}", "en": f"{n} positions, width {d_model}"},
                          hint={"zh": "位置 p 的第 2i 列是 sin(p / 10000^(2i/d_model))，第 2i+1 列是同一个角度的 cos。",
                                "en": "At position p, column 2i is sin(p / 10000^(2i/d_model)) and column 2i+1 the cos "
                                      "of the same angle."}))
    return cases


EXERCISE = Exercise(
    id="ch4-positional-encoding",
    title={"zh": "正弦位置编码", "en": "The sinusoidal positional encoding"},
    function="positional_encoding",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(1, 4), expected=sinusoidal_positional_encoding(1, 4),
             about={"zh": "只有位置 0、宽 4", "en": "position 0 alone, width 4"},
             hint={"zh": "偶数列放 sin、奇数列放 cos，同一对列用同一个角度；位置 0 的角度全是 0，这一行应是 0, 1, 0, 1。",
                   "en": "Even columns hold sin and odd columns cos, one angle per pair of columns; at position 0 "
                         "every angle is 0, so its row is 0, 1, 0, 1."}),
        Case(args=(5, 6), expected=sinusoidal_positional_encoding(5, 6),
             about={"zh": "5 个位置、宽 6", "en": "5 positions, width 6"},
             hint={"zh": "指数是 2i / d_model，其中 2i 是这一对列里偶数列的编号（0、2、4……），"
                         "不是列号 j 本身，也不是 i。",
                   "en": "The exponent is 2i / d_model, where 2i is the number of the pair's even column "
                         "(0, 2, 4, ...): not the column number j itself, and not i."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.core.sinusoidal_positional_encoding",),
    wrong={
        "sin-cos-swapped": ('''\
import numpy as np

def positional_encoding(n_positions, d_model):
    pe = np.zeros((n_positions, d_model))
    for p in range(n_positions):
        for i in range(0, d_model, 2):
            angle = p / 10000 ** (i / d_model)
            pe[p, i] = np.cos(angle)
            pe[p, i + 1] = np.sin(angle)
    return pe
''', 0),
        "column-as-exponent": ('''\
import numpy as np

def positional_encoding(n_positions, d_model):
    pe = np.zeros((n_positions, d_model))
    for p in range(n_positions):
        for j in range(d_model):
            angle = p / 10000 ** (j / d_model)
            pe[p, j] = np.sin(angle) if j % 2 == 0 else np.cos(angle)
    return pe
''', 1, {"zh": "你用列号 j 当了指数。一对列（2i 和 2i+1）共用一个角度：指数是这对列里偶数列的编号 2i，除以 d_model。",
        "en": "You used the column number j as the exponent. A pair of columns (2i and 2i+1) shares one angle: the "
              "exponent is the pair's even column number, 2i, over d_model."}),
        "calls-attnkit": ('''\
from attnkit import sinusoidal_positional_encoding

def positional_encoding(n_positions, d_model):
    return sinusoidal_positional_encoding(n_positions, d_model)
''', 0, None, "library"),
    },
)
