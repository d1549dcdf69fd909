"""10.3 RoPE for one vector: turn each pair by its position times its frequency."""
import numpy as np

from attnkit.exercise import Case, Exercise
from attnkit.rope import rope

STARTER = '''\
import numpy as np

def rope_vector(x, p):
    # x：一个查询或键，形状 (d,)，d 是偶数；p：它的位置 [zh]
    # x: one query or key, shape (d,), d even; p: its position [en]
    # 第 i 对是 (x[i], x[i + d/2])，转 p * 10000^(-2i/d) 弧度 [zh]
    # pair i is (x[i], x[i + d/2]), turned by p * 10000^(-2i/d) radians [en]
    # 返回转过的向量，形状 (d,) [zh]
    # return the turned vector, shape (d,) [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def rope_vector(x, p):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    i = np.arange(half)                            # (d/2,) 每一对一个编号 [zh]
    i = np.arange(half)                            # (d/2,) the pairs [en]
    angle = p * 10000.0 ** (-2 * i / len(x))       # (d/2,) 弧度 [zh]
    angle = p * 10000.0 ** (-2 * i / len(x))       # (d/2,) radians [en]
    a, b = x[:half], x[half:]                      # (d/2,) 各一份：第 i 对是 (a[i], b[i]) [zh]
    a, b = x[:half], x[half:]                      # (d/2,) each: pair i is (a[i], b[i]) [en]
    c, s = np.cos(angle), np.sin(angle)
    return np.concatenate([a * c - b * s, b * c + a * s])   # (d,)
'''


def turned(x, p):
    """What attnkit's RoPE makes of one vector x at position p."""
    return rope(np.array([x], dtype=float), positions=[p])[0]      # (d,)


def held_out(rng):
    """Vectors the page does not list: random ones, at random positions after 0."""
    cases = []
    for d in (4, int(rng.choice([6, 8, 10]))):
        x = np.round(rng.normal(size=d), 2).tolist()
        p = int(rng.integers(1, 200))
        cases.append(Case(args=(x, p), expected=turned(x, p),
                          about={"zh": f"随机的 {d // 2} 对数，位置 {p}", "en": f"{d // 2} random pairs at position {p}"},
                          hint={"zh": "第 i 对 (x[i], x[i + d/2]) 逆时针转 p · 10000^(−2i/d) 弧度。",
                                "en": "Pair i, (x[i], x[i + d/2]), turns anticlockwise by p · 10000^(−2i/d) radians."}))
    return cases


EXERCISE = Exercise(
    id="ch10-rope-vector",
    title={"zh": "给一个向量加上 RoPE", "en": "RoPE for one vector"},
    function="rope_vector",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=([1.0, 0.0], 1), expected=turned([1.0, 0.0], 1),
             about={"zh": "一对数 (1, 0)，位置 1", "en": "one pair (1, 0) at position 1"},
             hint={"zh": "第 0 对每个位置转 1 弧度：(a, b) 变成 (a cos θ − b sin θ, b cos θ + a sin θ)，逆时针转。",
                   "en": "Pair 0 turns 1 radian per position: (a, b) becomes (a cos θ − b sin θ, b cos θ + a sin θ), "
                         "turning anticlockwise."}),
        Case(args=([0.5, -1.0, 2.0, 0.3, 1.5, -0.7], 0), expected=turned([0.5, -1.0, 2.0, 0.3, 1.5, -0.7], 0),
             about={"zh": "位置 0", "en": "position 0"},
             hint={"zh": "位置 0 的角度都是 0，向量原样返回；位置就是 p，不是 p + 1。",
                   "en": "At position 0 every angle is 0 and the vector comes back unchanged; the position is p, not p + 1."}),
        Case(args=([1.0, 2.0, 3.0, 4.0], 3), expected=turned([1.0, 2.0, 3.0, 4.0], 3),
             about={"zh": "两对数，位置 3", "en": "two pairs at position 3"},
             hint={"zh": "第 i 对是 x[i] 和 x[i + d/2]（前一半配后一半，不是相邻两个），"
                         "频率是 10000^(−2i/d)：d = 4 时第 1 对每个位置转 0.01 弧度。",
                   "en": "Pair i is x[i] with x[i + d/2] (the first half with the second, not neighbours), "
                         "and its frequency is 10000^(−2i/d): with d = 4, pair 1 turns 0.01 rad per position."}),
        Case(args=([0.2, -0.4, 0.9, 1.1, 0.0, 0.6, -0.3, 0.8], 50), expected=turned([0.2, -0.4, 0.9, 1.1, 0.0, 0.6, -0.3, 0.8], 50),
             about={"zh": "四对数，位置 50", "en": "four pairs at position 50"},
             hint={"zh": "每一对用自己的频率：10000^(−2i/d) 随 i 变小，i 从 0 数到 d/2 − 1。",
                   "en": "Each pair has its own frequency, 10000^(−2i/d), smaller as i grows from 0 to d/2 − 1."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.rope.rope", "attnkit.rope.apply_rope", "attnkit.rope.rope_pairs"),
    wrong={
        "turns-clockwise": ('''\
import numpy as np

def rope_vector(x, p):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    angle = p * 10000.0 ** (-2 * np.arange(half) / len(x))
    a, b = x[:half], x[half:]
    c, s = np.cos(angle), np.sin(angle)
    return np.concatenate([a * c + b * s, b * c - a * s])
''', 0, {"zh": "你转反了方向（顺时针）。(a, b) 逆时针转 θ 是 (a cos θ − b sin θ, b cos θ + a sin θ)。",
        "en": "You turned the wrong way (clockwise). Turning (a, b) anticlockwise by θ gives "
              "(a cos θ − b sin θ, b cos θ + a sin θ)."}),
        "position-plus-one": ('''\
import numpy as np

def rope_vector(x, p):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    angle = (p + 1) * 10000.0 ** (-2 * np.arange(half) / len(x))
    a, b = x[:half], x[half:]
    c, s = np.cos(angle), np.sin(angle)
    return np.concatenate([a * c - b * s, b * c + a * s])
''', 0, {"zh": "位置就是 p，不是 p + 1：位置 0 的向量一点也不转。",
        "en": "The position is p, not p + 1: at position 0 the vector does not turn at all."}),
        "neighbours-as-pairs": ('''\
import numpy as np

def rope_vector(x, p):
    x = np.asarray(x, dtype=float)
    angle = p * 10000.0 ** (-2 * np.arange(len(x) // 2) / len(x))
    a, b = x[0::2], x[1::2]
    c, s = np.cos(angle), np.sin(angle)
    out = np.empty_like(x)
    out[0::2], out[1::2] = a * c - b * s, b * c + a * s
    return out
''', 2, {"zh": "你把相邻的两个数配成了一对。这一节的写法是前一半配后一半：第 i 对是 x[i] 和 x[i + d/2]。",
        "en": "You paired neighbours. This section's layout pairs the first half with the second: pair i is "
              "x[i] with x[i + d/2]."}),
        "one-speed-for-all": ('''\
import numpy as np

def rope_vector(x, p):
    x = np.asarray(x, dtype=float)
    half = len(x) // 2
    a, b = x[:half], x[half:]
    c, s = np.cos(p), np.sin(p)
    return np.concatenate([a * c - b * s, b * c + a * s])
''', 2, {"zh": "每一对转的速度不一样：第 i 对每个位置转 10000^(−2i/d) 弧度，不是都转 1 弧度。",
        "en": "Each pair turns at its own speed: pair i turns 10000^(−2i/d) radians per position, not 1 radian "
              "for all."}),
        "calls-attnkit": ('''\
from attnkit.rope import rope

def rope_vector(x, p):
    return rope([x], positions=[p])[0]
''', 0, None, "library"),
    },
)
