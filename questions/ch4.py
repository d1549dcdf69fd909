"""Chapter 4's checked questions (4.3 the two together). bookbuild/questions.py"""
from attnkit.heads import train_two_heads
from bookbuild.bookcache import memo
from bookbuild.questions import Choice, Mistake, Question, num

D_MODEL, H = 768, 12
SAME = memo(train_two_heads, "same")          # two heads that start out identical (memoized: a training run)
NEAR, FAR = (10, 7), (103, 100)              # (query, key) positions
SHIFT = FAR[0] - NEAR[0]

QUESTIONS = [
    Question(
        id="ch4-head-width",
        title={"zh": "d_model = 768、h = 12 时每个头多少维", "en": "d_model = 768 and h = 12: how wide is a head?"},
        prompt={"zh": f"\\(d_{{\\text{{model}}}} = {D_MODEL}\\)、\\(h = {H}\\) 时，每个头多少维？",
                "en": f"With \\(d_{{\\text{{model}}}} = {D_MODEL}\\) and \\(h = {H}\\), how many dimensions does each head get?"},
        number=D_MODEL // H, decimals=0,
        explain={"zh": f"每个头 \\({D_MODEL} / {H} = {D_MODEL // H}\\) 维，拼接后回到 {H * (D_MODEL // H)} 维，"
                       f"再乘一个 \\({D_MODEL} \\times {D_MODEL}\\) 的 \\(W_O\\)。\n"
                       "切成几个头并不增加 \\(W_Q\\)、\\(W_K\\)、\\(W_V\\) 的参数量，只是把同一批列分给不同的头。",
                 "en": f"Each head gets \\({D_MODEL} / {H} = {D_MODEL // H}\\) dimensions; concatenated they make "
                       f"{H * (D_MODEL // H)} again, followed by a \\({D_MODEL} \\times {D_MODEL}\\) \\(W_O\\).\n"
                       "Splitting into heads adds no parameters to \\(W_Q\\), \\(W_K\\) and \\(W_V\\); it only hands the "
                       "same columns out to different heads."},
        mistakes=[Mistake(D_MODEL * H, {"zh": "头是把 768 维切开分给 12 个头，不是每个头再复制 768 维：要除，不是乘。",
                                        "en": "The heads share the 768 dimensions out among 12 of them; they do not each "
                                              "get 768 more. Divide, do not multiply."}),
                  Mistake(D_MODEL, {"zh": "那是拼接以后的维数。每个头只拿其中一段。",
                                    "en": "That is the width after concatenation. Each head gets one slice of it."})],
    ),
    Question(
        id="ch4-same-start",
        title={"zh": "两个一样的头会自己分开吗", "en": "Will two identical heads separate?"},
        prompt={"zh": "把两个头初始化成一样，再用普通梯度下降训练，它们会自己分开吗？",
                "en": "Initialise two heads identically and train them with plain gradient descent. Will they separate by themselves?"},
        choices=[
            Choice(text={"zh": "会：训练数据各不相同，总会把它们推开。",
                         "en": "Yes: the training data differ, and sooner or later push them apart."},
                   why={"zh": "两个头看到的是同样的数据，梯度也一样；数据再多，也推不开。",
                        "en": "Both heads see the same data and get the same gradient; no amount of data pushes them apart."}),
            Choice(text={"zh": "不会：两个头相同时梯度也相同，每一步更新都一样。",
                         "en": "No: identical heads get identical gradients, so every update is the same."},
                   why={"zh": f"损失对两个头是对称的，差永远是 0。4.1 节的实验里，800 步之后差仍是 {num(SAME.head_gap[-1], 1)}，"
                              f"损失停在 {num(SAME.loss[-1], 4)}。\n"
                              "只要加一点点噪声（百万分之一），对称就被打破了。",
                        "en": f"The loss is symmetric in the two heads, so the gap stays 0: in the experiment of section 4.1 "
                              f"it is still {num(SAME.head_gap[-1], 1)} after 800 steps, and the loss stays at {num(SAME.loss[-1], 4)}.\n"
                              "A tiny bit of noise, one millionth, is enough to break the symmetry."},
                   right=True),
            Choice(text={"zh": "会合成一个：两个一样的头，训练会删掉其中一个。",
                         "en": "They merge: training deletes one of two identical heads."},
                   why={"zh": "梯度下降只改数，不会删掉一个头；两个头一直都在，而且一直一样。",
                        "en": "Gradient descent changes numbers; it never deletes a head. Both stay, and stay identical."}),
        ],
    ),
    Question(
        id="ch4-rope-offset",
        title={"zh": f"RoPE：位置 {NEAR[0]} 和 {NEAR[1]}，位置 {FAR[0]} 和 {FAR[1]}",
               "en": f"RoPE: positions {NEAR[0]} and {NEAR[1]}, positions {FAR[0]} and {FAR[1]}"},
        prompt={"zh": f"在 RoPE 下，同一个查询和同一个键，查询在位置 {NEAR[0]}、键在位置 {NEAR[1]}，"
                      f"和查询在位置 {FAR[0]}、键在位置 {FAR[1]}，得分一样吗？",
                "en": f"With RoPE, the same query and key, the query at position {NEAR[0]} and the key at {NEAR[1]}, "
                      f"then the query at {FAR[0]} and the key at {FAR[1]}: is their score the same?"},
        choices=[
            Choice(text={"zh": f"一样：得分里只剩下位置之差，两次都是 {NEAR[0] - NEAR[1]}。",
                         "en": f"Yes: only the difference of positions is left in the score, {NEAR[0] - NEAR[1]} both times."},
                   why={"zh": f"两个向量各转了自己位置对应的角度，点积只剩下角度之差，也就是位置之差 {NEAR[0] - NEAR[1]}。\n"
                              "这正是 RoPE 的用意：绝对位置用来转，得分里只留下相对位置。",
                        "en": "Each vector is turned by the angle of its own position, so their dot product keeps only the "
                              f"difference of angles, which comes from the difference of positions, {NEAR[0] - NEAR[1]}.\n"
                              "That is the point of RoPE: absolute positions do the turning, and only relative position is left in the score."},
                   right=True),
            Choice(text={"zh": "不一样：位置越大，转得越多，得分越小。",
                         "en": "No: larger positions turn further, so the score is smaller."},
                   why={"zh": f"两个向量都多转了同样的 {SHIFT} 个位置，它们之间的夹角不变，得分也就不变。",
                        "en": f"Both vectors turn {SHIFT} positions further, the same amount, so the angle between them, and the "
                              "score, stay the same."}),
            Choice(text={"zh": f"不一样：{FAR[0]} 和 {FAR[1]} 超出了训练时见过的长度。",
                         "en": f"No: {FAR[0]} and {FAR[1]} lie beyond the lengths seen in training."},
                   why={"zh": "这里问的是算式本身：同一对向量，位置之差相同，得分就相同，和训练见过多长无关。",
                        "en": "The question is about the formula itself: the same pair of vectors at the same difference of "
                              "positions gives the same score, whatever lengths training saw."}),
        ],
    ),
]
