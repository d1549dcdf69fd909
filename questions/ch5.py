"""Chapter 5's checked questions (5.3 the attention matrix). bookbuild/questions.py"""
from attnkit import cost, rnn
from bookbuild.questions import Choice, Mistake, Question, num, sci, zhnum

N = 500
SHORT, LONG = 4000, 32000
GROWTH = (LONG / SHORT) ** 2
FADE = cost.influence_ratios()[0]         # the RNN's influence of word 1, against the last word's, 39 words back

QUESTIONS = [
    Question(
        id="ch5-path-length",
        title={"zh": f"{N} 个词元，RNN 的路径有多长", "en": f"{N} tokens: how long is an RNN’s path?"},
        prompt={"zh": f"一句话 {N} 个词元。在 RNN 里，第 1 个词到第 {N} 个词的路径长度是多少？",
                "en": f"A sentence has {N} tokens. In an RNN, how long is the path from token 1 to token {N}?"},
        number=rnn.path_length(0, N - 1, "rnn"), decimals=0,
        explain={"zh": f"RNN 排 {rnn.sequential_steps(N, 'rnn')} 步，路径长度 {rnn.path_length(0, N - 1, 'rnn')}；"
                       f"注意力 {rnn.sequential_steps(N, 'attention')} 步，路径长度 {rnn.path_length(0, N - 1, 'attention')}。",
                 "en": f"The RNN takes {rnn.sequential_steps(N, 'rnn')} steps, with a path of {rnn.path_length(0, N - 1, 'rnn')}; "
                       f"attention needs {rnn.sequential_steps(N, 'attention')} step, with a path of "
                       f"{rnn.path_length(0, N - 1, 'attention')}."},
        mistakes=[Mistake(N, {"zh": "那是 RNN 要排的步数。路径数的是传递的次数：第 1 个词不用传给自己，少一次。",
                              "en": "That is how many steps the RNN takes. The path counts hand-offs: token 1 needs "
                                    "none to reach itself, so one fewer."}),
                  Mistake(rnn.path_length(0, N - 1, "attention"),
                          {"zh": "那是注意力的路径长度。RNN 只能一个词传给下一个词。",
                           "en": "That is attention's path. An RNN passes from each token to the next only."})],
    ),
    Question(
        id="ch5-matrix-growth",
        title={"zh": f"上下文变成 {LONG // SHORT} 倍，权重表变成几倍", "en": f"{LONG // SHORT} times the context: how many times the matrix?"},
        prompt={"zh": f"上下文从 {SHORT} 个词元变成 {LONG} 个，一个头一层的权重表变成原来的几倍？",
                "en": f"A context grows from {SHORT:,} tokens to {LONG:,}. How many times larger is the attention "
                      "matrix of one head in one layer?"},
        number=GROWTH, decimals=0,
        explain={"zh": f"\\(({LONG} / {SHORT})^2 = {num(GROWTH, 0)}\\) 倍：表是 \\(n \\times n\\) 的。\n"
                       f"用 float32 存，从 {num(cost.score_bytes(SHORT, 4) / 1e6, 0)} MB 变成 "
                       f"{num(cost.score_bytes(LONG, 4) / 1e9, 1)} GB。",
                 "en": f"\\(({LONG} / {SHORT})^2 = {num(GROWTH, 0)}\\) times: the matrix is \\(n \\times n\\).\n"
                       f"Stored as float32, it goes from {num(cost.score_bytes(SHORT, 4) / 1e6, 0)} MB to "
                       f"{num(cost.score_bytes(LONG, 4) / 1e9, 1)} GB."},
        mistakes=[Mistake(LONG / SHORT, {"zh": "那是词元变成的倍数。表的行和列都变成这么多倍，要再乘一次。",
                                         "en": "That is how much the tokens grew. Rows and columns both grow that much: "
                                               "multiply once more."})],
    ),
    Question(
        id="ch5-not-vanishing",
        title={"zh": "注意力里远处的词影响小，是梯度消失吗", "en": "Less influence from far away in attention: a vanishing gradient?"},
        prompt={"zh": "5.2 节里，注意力中第 1 个词的影响也比最后一个词小。这是不是也是梯度消失？",
                "en": "In section 5.2, word 1 also has less influence than the last word in attention. Is that a vanishing gradient too?"},
        choices=[
            Choice(text={"zh": "是：只要影响随距离变小，就是梯度消失。",
                         "en": "Yes: influence that shrinks with distance is a vanishing gradient."},
                   why={"zh": "梯度消失是每多隔一个词就再缩小同样的倍数；注意力里没有这样一条链，相隔 1 个词和 39 个词的影响在同一量级。",
                        "en": "A vanishing gradient shrinks by about the same factor with every word of distance; attention "
                              "has no such chain, and words 1 and 39 places away have influence of the same order."}),
            Choice(text={"zh": "不是：注意力里远近的影响在同一量级，远处的词影响小是因为分到的份额小。",
                         "en": "No: near and far have influence of the same order; a far word counts less only when its share is small."},
                   why={"zh": f"5.2 节那个 RNN（权重尺度 1）里，影响每隔一个词都缩小差不多同样的倍数，距离 39 时只剩最后一个词的 "
                              f"{zhnum(FADE, 1)} 倍；注意力里相隔 1 个词和相隔 39 个词的影响在同一量级。\n"
                              "40 个词分一份注意力、权重又是随机的，远处的词才影响小；只要某个词得分高，它就能拿走大部分份额，不论远近。",
                        "en": f"In section 5.2's RNN (weight scale 1), influence shrinks by about the same factor with every word "
                              f"of distance, down to {sci(FADE, 1)} of the last word's at distance 39; in attention, words 1 "
                              "and 39 places away have influence of the same order.\n"
                              "Distant words count less in attention because 40 words share one unit of attention and the "
                              "weights are random; a word with a high score takes most of the share, near or far."},
                   right=True),
            Choice(text={"zh": "是：注意力也要一层一层地把梯度传回去。",
                         "en": "Yes: attention passes the gradient back layer by layer too."},
                   why={"zh": "这里只有一层注意力：第 1 个词和最后一个词一步直达，中间没有要连乘的链。",
                        "en": "There is one layer of attention here: word 1 reaches the last word in one step, with no "
                              "chain of factors in between."}),
        ],
    ),
]
