"""Chapter 3's checked questions (3.3 softmax, 3.6 the four steps). bookbuild/questions.py"""
import numpy as np

from attnkit import softmax
from attnkit.measure import scaling_experiment
from bookbuild.questions import Choice, Mistake, Question, num, pct, vec

SHARES = softmax([5, 2, 0])                  # (3,) Amy / 小明, Ben / 小红, Cal / 小刚
DOUBLED = softmax([10, 4, 0])                # (3,)
Q, K = np.array([1, 2, 3]), np.array([4, 0, -1])
COSINE = float(Q @ K / (np.linalg.norm(Q) * np.linalg.norm(K)))
D_K = 64
MEASURED = scaling_experiment([D_K])

QUESTIONS = [
    Question(
        id="ch3-softmax-shift",
        title={"zh": "分数都加 10，softmax 变不变", "en": "Add 10 to every score: does the softmax change?"},
        prompt={"zh": "分数 [5, 2, 0] 都加上 10，变成 [15, 12, 10]，softmax 的结果会变吗？",
                "en": "Add 10 to every score, [5, 2, 0] → [15, 12, 10]. Does the softmax change?"},
        choices=[
            Choice(text={"zh": "会变：每个分数都变大了，每一份也都变大。",
                         "en": "Yes: every score grew, so every share grows."},
                   why={"zh": "份额加起来永远是 1，不可能每一份都变大。",
                        "en": "The shares always add up to 1, so they cannot all grow."}),
            Choice(text={"zh": f"不会变：结果仍是 {vec(softmax([15, 12, 10]), 4)}。",
                         "en": f"No: it is still {vec(softmax([15, 12, 10]), 4)}."},
                   why={"zh": "每个分数都加同一个数 \\(c\\)，分子分母同乘 \\(e^{c}\\)，约掉了。\n"
                              "这也正是“先减去最大值”不改变结果的原因。",
                        "en": "Adding the same number \\(c\\) to every score multiplies the top and the bottom by \\(e^{c}\\), "
                              "which cancels. This is also why subtracting the largest score is safe."},
                   right=True),
            Choice(text={"zh": "会变：和 10 相比，分差显得小了，份额会更平均。",
                         "en": "Yes: next to 10, the gaps look smaller, so the shares even out."},
                   why={"zh": "softmax 只看分差，不看分差和分数本身比起来有多大：分差还是 3 和 2，份额就不变。",
                        "en": "Softmax looks only at the gaps, not at how they compare with the scores themselves: "
                              "the gaps are still 3 and 2, so the shares stay the same."}),
        ],
    ),
    Question(
        id="ch3-softmax-double",
        title={"zh": "分数都乘以 2，小明分到多少", "en": "Double every score: what does Amy get?"},
        prompt={"zh": f"分数 [5, 2, 0] 时，小明分到 {pct(SHARES[0])}。\n"
                      "分数都乘以 2，变成 [10, 4, 0]，小明分到百分之多少？",
                "en": f"With the scores [5, 2, 0], Amy gets {pct(SHARES[0])}. "
                      "Double every score, [10, 4, 0]. What percentage of the cake does Amy get now?"},
        number=DOUBLED[0], decimals=1, percent=True,
        explain={"zh": f"\\(e^{{10}} / (e^{{10}} + e^{{4}} + e^{{0}}) = {num(DOUBLED[0], 4)}\\)，也就是 {pct(DOUBLED[0])}。\n"
                       "分差翻倍，份额就差得更悬殊。\n"
                       "反过来，分数都除以一个数，份额就变得更平均：注意力里“除以 \\(\\sqrt{d_k}\\)”做的正是这件事。",
                 "en": f"\\(e^{{10}} / (e^{{10}} + e^{{4}} + e^{{0}}) = {num(DOUBLED[0], 4)}\\), that is {pct(DOUBLED[0])}. "
                       "Doubling the gaps drives the shares further apart. "
                       "Dividing every score by a number does the opposite and evens the shares out: "
                       "that is exactly what \"divide by \\(\\sqrt{d_k}\\)\" does in attention."},
        mistakes=[
            Mistake(100 * SHARES[0], {"zh": "这是乘以 2 以前的份额。softmax 看分差，分差翻了倍，份额就变了。",
                                      "en": "That is the share before doubling. Softmax reads the gaps, and the gaps doubled."}),
            Mistake(100 * 10 / 14, {"zh": "这是按分数占总分的比例分（10 / 14），没有先取 \\(e\\) 的幂。",
                                    "en": "That shares in proportion to the scores (10 / 14), without raising \\(e\\) to them first."}),
        ],
    ),
    Question(
        id="ch3-cosine",
        title={"zh": "[1, 2, 3] 和 [4, 0, −1] 的余弦相似度", "en": "The cosine of [1, 2, 3] and [4, 0, −1]"},
        prompt={"zh": "[1, 2, 3] 和 [4, 0, -1] 的余弦相似度是多少？",
                "en": "What is the cosine similarity of [1, 2, 3] and [4, 0, -1]?"},
        number=COSINE, decimals=3,
        explain={"zh": f"点积是 \\(1 \\times 4 + 2 \\times 0 + 3 \\times (-1) = {num(Q @ K, 0)}\\)。\n"
                       f"两个长度分别是 {num(np.linalg.norm(Q), 3)} 和 {num(np.linalg.norm(K), 3)}，"
                       f"余弦是点积除以两个长度的乘积：{num(COSINE, 3)}。\n"
                       f"方向差得不少，夹角约 {num(np.degrees(np.arccos(COSINE)), 0)} 度。",
                 "en": f"The dot product is \\(1 \\times 4 + 2 \\times 0 + 3 \\times (-1) = {num(Q @ K, 0)}\\). "
                       f"The lengths are {num(np.linalg.norm(Q), 3)} and {num(np.linalg.norm(K), 3)}, and the cosine is "
                       f"the dot product divided by both lengths: {num(COSINE, 3)}. "
                       f"Quite different directions, about {num(np.degrees(np.arccos(COSINE)), 0)} degrees apart."},
        mistakes=[Mistake(float(Q @ K), {"zh": "这是点积。余弦还要除以两个向量的长度。",
                                         "en": "That is the dot product. The cosine divides it by the lengths of both vectors."})],
    ),
    Question(
        id="ch3-scaled-spread",
        title={"zh": "dₖ = 64 时点积的标准差", "en": "The spread of a dot product when dₖ = 64"},
        prompt={"zh": "\\(q\\) 和 \\(k\\) 各有 \\(d_k = 64\\) 个分量，每个分量都是独立的随机数，均值 0、方差 1。\n"
                      "它们的点积 \\(q \\cdot k\\) 的标准差是多少？",
                "en": "\\(q\\) and \\(k\\) have \\(d_k = 64\\) components each, independent random numbers with mean 0 and "
                      "variance 1. What is the standard deviation of their dot product \\(q \\cdot k\\)?"},
        number=np.sqrt(D_K), decimals=0,
        explain={"zh": f"点积是 {D_K} 个乘积之和，每个乘积的方差是 1，所以方差是 {D_K}，标准差是 \\(\\sqrt{{{D_K}}} = {num(np.sqrt(D_K), 0)}\\)。\n"
                       f"实测：方差 {num(MEASURED.var_raw[0], 1)}。\n"
                       f"除以 \\(\\sqrt{{d_k}} = {num(np.sqrt(D_K), 0)}\\) 以后，标准差回到约 1（实测方差 {num(MEASURED.var_scaled[0], 2)}）。",
                 "en": f"The dot product adds up {D_K} products, each of variance 1, so its variance is {D_K} and its "
                       f"standard deviation \\(\\sqrt{{{D_K}}} = {num(np.sqrt(D_K), 0)}\\) (measured variance "
                       f"{num(MEASURED.var_raw[0], 1)}). After dividing by \\(\\sqrt{{d_k}} = {num(np.sqrt(D_K), 0)}\\), "
                       f"the standard deviation is about 1 again (measured variance {num(MEASURED.var_scaled[0], 2)})."},
        mistakes=[Mistake(D_K, {"zh": "这是方差。标准差是方差的平方根。",
                                "en": "That is the variance. The standard deviation is its square root."})],
    ),
]
