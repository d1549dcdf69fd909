"""Chapter 0's checked questions (0.2 how a model learns). bookbuild/questions.py"""
from attnkit.basics import angle_degrees, dot, fit_line
from bookbuild.questions import Choice, Mistake, Question, num, sci, vec, zhnum

A, B = [2, -1, 0], [1, 3, 5]
ANGLE = angle_degrees(A, B)                    # degrees between A and B, as 0.2's answer says
ROWS, INNER, COLS = 4, 3, 5
LR, LR_BIG, STEPS = 0.05, 0.25, 30
BIG = fit_line([1, 2, 3], [4.1, 7.9, 12.2], w0=0.0, lr=LR_BIG, steps=STEPS)     # the learning rate that is too large
TIMES = round(LR_BIG / LR)

QUESTIONS = [
    Question(
        id="ch0-dot-sign",
        title={"zh": "[2, −1, 0] · [1, 3, 5] 是多少", "en": "What is [2, −1, 0] · [1, 3, 5]?"},
        prompt={"zh": "算一算 [2, -1, 0] · [1, 3, 5]。",
                "en": "Work out [2, -1, 0] · [1, 3, 5]."},
        number=dot(A, B), decimals=0,
        explain={"zh": f"\\(2 \\times 1 + (-1) \\times 3 + 0 \\times 5 = {num(dot(A, B), 0)}\\)。\n"
                       "负数只说明两个向量的夹角大于 90°，影子背着对方。\n"
                       f"这里夹角是 {num(ANGLE, 0)}°，几乎垂直，只是稍稍偏向相反的一边，所以点积虽是负数，却很小；"
                       "两个向量真的大体相反时，夹角接近 180°。\n"
                       "自己试：`attnkit.basics.dot([2, -1, 0], [1, 3, 5])`。",
                 "en": f"\\(2 \\times 1 + (-1) \\times 3 + 0 \\times 5 = {num(dot(A, B), 0)}\\).\n"
                       "Negative says only that the angle between the two vectors is more than 90°, and the shadow "
                       "points against the other arrow.\n"
                       f"Here the angle is {num(ANGLE, 0)}°: nearly a right angle, leaning just a little away, which is "
                       "why the dot product is negative but small; vectors that really point roughly opposite ways are near 180°.\n"
                       "Try it: `attnkit.basics.dot([2, -1, 0], [1, 3, 5])`."},
        mistakes=[Mistake(2 + 3 + 0, {"zh": "−1 乘以 3 是 −3，不是 3：负号要带着。",
                                      "en": "−1 times 3 is −3, not 3: keep the minus sign."})],
    ),
    Question(
        id="ch0-matmul-count",
        title={"zh": "(4, 3) 乘 (3, 5) 要做几个点积", "en": "How many dot products in (4, 3) times (3, 5)?"},
        prompt={"zh": "形状为 (4, 3) 的矩阵乘以形状为 (3, 5) 的矩阵，一共要做多少个点积？",
                "en": "A (4, 3) matrix times a (3, 5) matrix: how many dot products does it take?"},
        number=ROWS * COLS, decimals=0,
        explain={"zh": f"结果的形状是 ({ROWS}, {COLS})，每一格是一个点积，共 {ROWS * COLS} 个；每个点积有 {INNER} 对数相乘。",
                 "en": f"The result has shape ({ROWS}, {COLS}), one dot product per cell, {ROWS * COLS} in all; "
                       f"each multiplies {INNER} pairs of numbers."},
        mistakes=[Mistake(ROWS * INNER * COLS, {"zh": "这是乘法的次数：每个点积还要做 3 次乘法。问的是点积有几个。",
                                                "en": "That counts the multiplications: each dot product takes 3 of them. "
                                                      "The question asks for the dot products."}),
                  Mistake(ROWS * INNER, {"zh": "这是第一个矩阵有几个数。结果的每一格才是一个点积。",
                                         "en": "That is how many numbers the first matrix holds. Each cell of the result is one dot product."})],
    ),
    Question(
        id="ch0-learning-rate",
        title={"zh": f"学习率从 {LR} 调到 {LR_BIG}", "en": f"A learning rate of {LR_BIG} instead of {LR}"},
        prompt={"zh": f"买苹果的例子里，如果学习率从 {LR} 调到 {LR_BIG}，训练会怎样？",
                "en": f"In the apple example, what happens if the learning rate goes from {LR} to {LR_BIG}?"},
        choices=[
            Choice(text={"zh": "更快地走到谷底：步子大了，需要的步数少了。",
                         "en": "It reaches the bottom sooner: bigger steps, fewer of them."},
                   why={"zh": f"步子太大，走不到谷底：每一步都跨过了它。{STEPS} 步后 \\(w\\) 是 {zhnum(BIG.w[-1])}。",
                        "en": f"The steps are too big to land at the bottom: each one jumps over it. After {STEPS} steps "
                              f"\\(w\\) is {sci(BIG.w[-1])}."}),
            Choice(text={"zh": "越跳越远：每一步都跨过谷底，落在更远的地方，损失越来越大。",
                         "en": "It runs away: each step jumps over the bottom and lands further off, and the loss grows."},
                   why={"zh": f"前几步 \\(w\\) 是 {vec(BIG.w[:4], 2)}，{STEPS} 步后是 {zhnum(BIG.w[-1])}，损失大到 {zhnum(BIG.loss[-1])}。\n"
                              "学习率要小到每一步都不会越过谷底太多。\n"
                              f"自己试：`attnkit.basics.fit_line([1, 2, 3], [4.1, 7.9, 12.2], lr={LR_BIG}, steps={STEPS})`。",
                        "en": f"The first few values of \\(w\\) are {vec(BIG.w[:4], 2)}; after {STEPS} steps it is {sci(BIG.w[-1])} "
                              f"and the loss has grown to {sci(BIG.loss[-1])}.\n"
                              "The learning rate has to be small enough that no step overshoots the bottom by much.\n"
                              f"Try it: `attnkit.basics.fit_line([1, 2, 3], [4.1, 7.9, 12.2], lr={LR_BIG}, steps={STEPS})`."},
                   right=True),
            Choice(text={"zh": "什么也不变：每一步走多远由斜率决定，和学习率无关。",
                         "en": "Nothing changes: the slope decides how far each step goes, not the learning rate."},
                   why={"zh": f"每一步走的是“学习率 × 斜率”：学习率变成 {TIMES} 倍，步子也变成 {TIMES} 倍。",
                        "en": f"Each step is the learning rate times the slope: {TIMES} times the learning rate, {TIMES} times the step."}),
        ],
    ),
]
