"""Chapter 8's checked questions (8.6 summary). bookbuild/questions.py"""
import numpy as np

from bookbuild.questions import Choice, Mistake, Question, num

V, V_LARGE = 8, 50000

QUESTIONS = [
    Question(
        id="ch8-guessing-loss",
        title={"zh": f"{V} 种词元时瞎猜的损失", "en": f"The loss of guessing among {V} tokens"},
        prompt={"zh": f"词元有 {V} 种时，一个瞎猜的模型（每个词元的概率都一样）损失是多少？保留 3 位小数。",
                "en": f"With {V} kinds of token, what is the loss of a model that guesses at random (the same "
                      "probability for every token)? Give 3 decimal places."},
        number=np.log(V), decimals=3,
        explain={"zh": "瞎猜就是给每个词元同样的概率 \\(1/V\\)，交叉熵损失是 \\(-\\ln(1/V) = \\ln V\\)。\n"
                       f"\\(V = {V}\\) 时是 {num(np.log(V), 3)}，\\(V = {V_LARGE}\\) 时是 {num(np.log(V_LARGE), 3)}。\n"
                       "所以训练大模型时，开头的损失总在 \\(\\ln V\\) 附近，这是一个检查初始化有没有出错的好办法。",
                 "en": "Guessing gives every token the same probability \\(1/V\\), so the cross-entropy loss is "
                       "\\(-\\ln(1/V) = \\ln V\\).\n"
                       f"For \\(V = {V}\\) that is {num(np.log(V), 3)}; for \\(V = {V_LARGE}\\) it is {num(np.log(V_LARGE), 3)}.\n"
                       "That is why a large model's training starts with a loss near \\(\\ln V\\): a handy check that "
                       "the initialisation is sane."},
        mistakes=[Mistake(1 / V, {"zh": "那是每个词元的概率 \\(1/V\\)。损失是它的负对数。",
                                  "en": "That is each token's probability, \\(1/V\\). The loss is its negative logarithm."}),
                  Mistake(np.log2(V), {"zh": "那是以 2 为底的对数。交叉熵损失用自然对数 \\(\\ln\\)。",
                                       "en": "That is the logarithm to base 2. The cross-entropy loss uses the natural logarithm, \\(\\ln\\)."})],
    ),
    Question(
        id="ch8-no-mask",
        title={"zh": "去掉因果掩码训练复制任务", "en": "The copy task trained without the causal mask"},
        prompt={"zh": "把因果掩码去掉再训练这个复制任务，会怎样？",
                "en": "Remove the causal mask and train on the copy task. What happens?"},
        choices=[
            Choice(text={"zh": "训练损失降不下去：模型看到太多东西，学乱了。",
                         "en": "The training loss will not go down: the model sees too much and gets confused."},
                   why={"zh": "正相反：看得到答案，训练损失降得又快又低。",
                        "en": "The other way round: with the answer in sight, the training loss falls fast and low."}),
            Choice(text={"zh": "训练损失很低，可生成时写出来的东西不对。",
                         "en": "The training loss gets very low, but what it writes is wrong."},
                   why={"zh": "位置 \\(i\\) 直接就能看到第 \\(i+1\\) 个词元，也就是答案本身，模型只要学会“抄右边一格”，就能把训练损失压下去。\n"
                              "但生成时右边什么都没有，它学会的那一招用不上。\n"
                              "训练时的输入和生成时的输入必须看到同样多的东西，因果掩码保证的正是这一点。",
                        "en": "Position \\(i\\) can then see token \\(i+1\\), the answer itself, so “copy the token on my "
                              "right” pushes the training loss down.\n"
                              "But when it writes there is nothing on its right, and the trick it learned is useless.\n"
                              "What the model sees in training has to match what it will see when it writes; the causal "
                              "mask guarantees exactly that."},
                   right=True),
            Choice(text={"zh": "什么也不变：复制任务本来就只往回看。",
                         "en": "Nothing changes: the copy task only looks back anyway."},
                   why={"zh": "任务是只往回看，可没有掩码，模型也能往前看；往前看能直接抄到答案，它就会学这个更容易的办法。",
                        "en": "The task looks back, but without the mask the model can look ahead as well, and copying the "
                              "answer from ahead is the easier thing to learn."}),
        ],
    ),
    Question(
        id="ch8-cold-sampling",
        title={"zh": "温度趋近 0 时的抽样", "en": "Sampling as the temperature goes to 0"},
        prompt={"zh": "温度 \\(T\\) 趋近 0 时，抽样变成什么？",
                "en": "What does sampling become as the temperature \\(T\\) goes to 0?"},
        choices=[
            Choice(text={"zh": "贪心：总是挑最可能的词元。",
                         "en": "Greedy: it always takes the likeliest token."},
                   why={"zh": "分数除以一个很小的数，差距被无限放大，softmax 把几乎全部概率给最高分。\n"
                              "反过来，\\(T \\to \\infty\\) 时所有分数都趋近 0，softmax 变成均匀分布，模型学到的东西全用不上。",
                        "en": "The scores are divided by a tiny number, the gaps grow without bound, and the softmax gives "
                              "almost all the probability to the top score.\n"
                              "The other way, \\(T \\to \\infty\\) sends every score to 0, the softmax becomes uniform, and "
                              "nothing the model learned is used."},
                   right=True),
            Choice(text={"zh": "均匀地随便抽：每个词元的概率都一样。",
                         "en": "Uniform: every token equally likely."},
                   why={"zh": "那是 \\(T \\to \\infty\\)：分数除以一个很大的数，差距都趋近 0。",
                        "en": "That is \\(T \\to \\infty\\): dividing by a huge number sends every gap to 0."}),
            Choice(text={"zh": "和 \\(T = 1\\) 一样：温度只影响速度。",
                         "en": "The same as \\(T = 1\\): the temperature only changes the speed."},
                   why={"zh": "温度是分数的除数，它改变的正是概率分布的形状。",
                        "en": "The temperature divides the scores: it changes the very shape of the distribution."}),
        ],
    ),
]
