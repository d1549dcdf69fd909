"""Chapter 1's checked questions (1.3 from one paper to ChatGPT). bookbuild/questions.py"""
import numpy as np

from attnkit import rnn
from bookbuild.questions import Choice, Mistake, Question, num, zhnum

N = 30
GROWTH = np.median(rnn.decay_curves(40, w_scale=3.0), axis=0)     # (40,) word 1's influence, step by step
SHORT, LONG = 2000, 4000
TIMES = rnn.pairwise_connections(LONG, "attention") / rnn.pairwise_connections(SHORT, "attention")

QUESTIONS = [
    Question(
        id="ch1-handoffs",
        title={"zh": "30 个词元，RNN 要传几次", "en": "30 tokens: how many hand-offs in an RNN?"},
        prompt={"zh": f"一句话有 {N} 个词元。在 RNN 里，第 1 个词的信息传到第 {N} 个词，要经过几次传递？",
                "en": f"A sentence has {N} tokens. In an RNN, how many hand-offs does token 1 need to reach token {N}?"},
        number=rnn.path_length(0, N - 1, "rnn"), decimals=0,
        explain={"zh": f"每一步只能传给下一个词：从第 1 个到第 {N} 个要传 {rnn.path_length(0, N - 1, 'rnn')} 次，"
                       f"而且 RNN 要排 {rnn.sequential_steps(N, 'rnn')} 步队。\n"
                       f"注意力一层只排 {rnn.sequential_steps(N, 'attention')} 步队，任意两个词之间只隔 "
                       f"{rnn.path_length(0, N - 1, 'attention')} 次传递；代价是要算 {rnn.pairwise_connections(N, 'attention')} 个得分。",
                 "en": f"Each step passes to the next token only: from token 1 to token {N} takes "
                       f"{rnn.path_length(0, N - 1, 'rnn')} hand-offs, and the RNN needs {rnn.sequential_steps(N, 'rnn')} "
                       f"steps one after another.\nOne layer of attention takes {rnn.sequential_steps(N, 'attention')} step, "
                       f"every token at once, and any two tokens are {rnn.path_length(0, N - 1, 'attention')} hand-off apart; "
                       f"the price is {rnn.pairwise_connections(N, 'attention')} scores."},
        mistakes=[Mistake(N, {"zh": f"那是词元的个数。第 1 个词自己不用传，传到第 {N} 个要少一次。",
                              "en": f"That is the number of tokens. Token 1 needs no hand-off to reach itself, so reaching token {N} takes one fewer."}),
                  Mistake(rnn.path_length(0, N - 1, "attention"),
                          {"zh": "那是注意力：任意两个词一步直达。RNN 只能一个传一个。",
                           "en": "That is attention, where any two tokens are one step apart. An RNN passes from token to token."})],
    ),
    Question(
        id="ch1-weight-scale",
        title={"zh": "RNN 的权重尺度调到 3", "en": "An RNN with weight scale 3"},
        prompt={"zh": "把 RNN 的权重尺度调到 3，第 1 个词的影响会怎样？",
                "en": "Turn the RNN's weight scale up to 3. What happens to word 1's influence?"},
        choices=[
            Choice(text={"zh": "淡得更快：权重大了，压缩得更厉害。",
                         "en": "It fades even faster: larger weights squash it harder."},
                   why={"zh": f"量出来正相反：20 个随机网络的中位数，第 1 步是 {num(GROWTH[0], 2)}，第 40 步是 {num(GROWTH[39], 1)}。",
                        "en": f"The measurement says the opposite: over 20 random networks the median is {num(GROWTH[0], 2)} "
                              f"at step 1 and {num(GROWTH[39], 1)} at step 40."}),
            Choice(text={"zh": "越传越大：这不是记性变好，而是对一点点扰动都过分敏感（梯度爆炸）。",
                         "en": "It grows instead: not a better memory, but an overreaction to the smallest "
                               "disturbance (the exploding gradient)."},
                   why={"zh": f"用 `attnkit.rnn.decay_curves(40, w_scale=3.0)` 量 20 个随机网络，取中位数：第 1 步是 {num(GROWTH[0], 2)}，"
                              f"第 40 步变成了 {num(GROWTH[39], 1)}。\n"
                              f"把第 1 个词轻轻推一下，40 步后的隐藏状态会跟着动大约 {num(GROWTH[39], 0)} 倍的距离。\n"
                              "训练时误差信号沿同一条路倒着传，同样一步步被放大，这就是梯度爆炸；对付它靠梯度裁剪，对付消失要靠 LSTM、GRU 的“门”。",
                        "en": f"Measure 20 random networks with `attnkit.rnn.decay_curves(40, w_scale=3.0)` and take the median: "
                              f"{num(GROWTH[0], 2)} at step 1, {num(GROWTH[39], 1)} at step 40.\n"
                              f"Nudge word 1 slightly, and 40 steps later the hidden state moves about {num(GROWTH[39], 0)} "
                              "times as far.\nIn training, the error signal travelling back along the same path grows "
                              "step by step as well: the exploding gradient, which gradient clipping cuts down to size; "
                              "vanishing needs the gates of the LSTM and GRU."},
                   right=True),
            Choice(text={"zh": "不增不减：权重够大，信息就原样保留下来，记性变好了。",
                         "en": "It stays just as strong: with large enough weights the RNN remembers perfectly."},
                   why={"zh": f"它不是保持不变，而是一直在变大：第 40 步是第 1 步的 {num(GROWTH[39] / GROWTH[0], 0)} 倍。",
                        "en": f"It does not hold steady, it keeps growing: at step 40 it is {num(GROWTH[39] / GROWTH[0], 0)} "
                              "times what it was at step 1."}),
        ],
    ),
    Question(
        id="ch1-scores-growth",
        title={"zh": "词元翻倍，注意力得分变成几倍", "en": "Twice the tokens: how many times the scores?"},
        prompt={"zh": f"句子从 {SHORT} 个词元变成 {LONG} 个，一层一个头的注意力得分变成原来的几倍？",
                "en": f"A sentence grows from {SHORT} tokens to {LONG}. How many times as many attention scores "
                      "does one head in one layer need?"},
        number=TIMES, decimals=0,
        explain={"zh": f"从 {zhnum(rnn.pairwise_connections(SHORT, 'attention'), 6)}个变成 "
                       f"{zhnum(rnn.pairwise_connections(LONG, 'attention'), 6)}个，是原来的 {num(TIMES, 0)} 倍：每个词都要和每个词打分，"
                       "词元翻倍，得分就翻两次倍。\n"
                       f"而 RNN 排的队只是从 {rnn.sequential_steps(SHORT, 'rnn')} 步变成 {rnn.sequential_steps(LONG, 'rnn')} 步，翻一倍。",
                 "en": f"It goes from {rnn.pairwise_connections(SHORT, 'attention'):,} to "
                       f"{rnn.pairwise_connections(LONG, 'attention'):,}, {num(TIMES, 0)} times as many: every token "
                       "scores every token, so twice the tokens doubles the scores twice.\n"
                       f"The RNN's chain of steps merely doubles, from {rnn.sequential_steps(SHORT, 'rnn')} to "
                       f"{rnn.sequential_steps(LONG, 'rnn')} steps."},
        mistakes=[Mistake(LONG / SHORT, {"zh": "那是 RNN 排队的步数变的倍数。得分表是 n × n 的，n 翻倍，它要变成 4 倍。",
                                         "en": "That is how the RNN's chain grows. The table of scores is n by n: "
                                               "double n and it grows fourfold."})],
    ),
]
