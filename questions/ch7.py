"""Chapter 7's checked questions (7.2 the self-test, 7.3 the story). bookbuild/questions.py"""
from attnkit import rnn, story
from bookbuild.questions import Choice, Mistake, Question, num, pct

N = 10
STRONGER = 10
SHE = {"zh": ("她", "小红"), "en": ("she", "mary")}
SHARE = story.story("en", strength=STRONGER).weight(*SHE["en"])
SHARE_ZH = story.story("zh", strength=STRONGER).weight(*SHE["zh"])
BEFORE = story.story("en").weight(*SHE["en"])
assert abs(SHARE - SHARE_ZH) < 1e-12, "the story's two languages give one share"
assert STRONGER == 2 * story.STRENGTH, "the explanation says the strength doubles"

QUESTIONS = [
    Question(
        id="ch7-one-step",
        title={"zh": "Transformer 里两个词最多隔几步", "en": "How many steps apart are two words in a Transformer?"},
        prompt={"zh": "在 Transformer 里，任意两个词最多隔几步就能互相看到？",
                "en": "In a Transformer, how many steps apart are any two words at most?"},
        number=rnn.path_length(0, N - 1, "attention"), decimals=0,
        explain={"zh": f"自注意力让每个词直接和每个词比对，中间没有传话的人：一句 {N} 个词的话里，第 1 个词到第 {N} 个词，"
                       f"循环神经网络要走 {rnn.path_length(0, N - 1, 'rnn')} 步，注意力只要 {rnn.path_length(0, N - 1, 'attention')} 步。\n"
                       "详见 [1.2 节：小明和他，一步直达](../ch1/conference-call.md#小明和他一步直达)。",
                 "en": f"Self-attention compares every word with every word directly, with nobody passing messages in "
                       f"between: in a {N}-word sentence, getting from word 1 to word {N} takes a recurrent network "
                       f"{rnn.path_length(0, N - 1, 'rnn')} steps and attention {rnn.path_length(0, N - 1, 'attention')}.\n"
                       "See [section 1.2: Tom and he, one direct step](../ch1/conference-call.md#tom-and-he-one-direct-step)."},
        mistakes=[Mistake(rnn.path_length(0, N - 1, "rnn"),
                          {"zh": f"那是循环神经网络在一句 {N} 个词的话里要走的步数。注意力里没有传话的链。",
                           "en": f"That is what a recurrent network needs in a {N}-word sentence. Attention has no chain of messengers."})],
    ),
    Question(
        id="ch7-qkv-learned",
        title={"zh": "Q、K、V 是自带的还是学出来的", "en": "Do Q, K and V come with the input, or are they learned?"},
        prompt={"zh": "Q、K、V 是输入自带的，还是模型学出来的？",
                "en": "Do Q, K and V come with the input, or does the model learn them?"},
        choices=[
            Choice(text={"zh": "输入自带：每个词生来就带着自己的 Q、K、V。",
                         "en": "They come with the input: every word arrives with its own Q, K and V."},
                   why={"zh": "词只带着一个词向量；Q、K、V 是从它算出来的。",
                        "en": "A word arrives with one embedding; Q, K and V are computed from it."}),
            Choice(text={"zh": "学出来的：同一个词向量分别乘以三个投影矩阵，这三个矩阵在训练中学出来。",
                         "en": "Learned: the same embedding times three projection matrices, which training learns."},
                   why={"zh": "它们是同一个词向量分别乘以 \\(W_Q\\)、\\(W_K\\)、\\(W_V\\) 得到的三种“视角”，这三个矩阵在训练中学出来。\n"
                              "详见 [3.1 节：一个常见误解](../ch3/qkv.md#一个常见误解qkv-不是词自带的)。",
                        "en": "They are three views of the same embedding, obtained by multiplying it with \\(W_Q\\), "
                              "\\(W_K\\) and \\(W_V\\), and those matrices are learned in training.\n"
                              "See [section 3.1: a common mix-up](../ch3/qkv.md#a-common-mix-up-q-k-and-v-are-not-carried-by-the-word)."},
                   right=True),
            Choice(text={"zh": "Q 是学出来的，K 和 V 就是词向量本身。",
                         "en": "Q is learned; K and V are the embedding itself."},
                   why={"zh": "三个都要经过自己的投影矩阵；K 和 V 分开，值才能带上和标签不同的内容（3.5 节）。",
                        "en": "All three go through a projection of their own; keeping K and V apart lets the value carry "
                              "something other than the label (section 3.5)."}),
        ],
    ),
    Question(
        id="ch7-stronger-query",
        title={"zh": f"提问力度调到 {STRONGER}，“她”给小红多少", "en": f"Query strength {STRONGER}: what does “she” give Mary?"},
        prompt={"zh": f"把提问力度从 {num(story.STRENGTH, 0)} 调到 {STRONGER}，“她”给小红的份额是百分之多少？",
                "en": f"Raise the query strength from {num(story.STRENGTH, 0)} to {STRONGER}. What share of its "
                      "attention does “she” give Mary now, as a percentage?"},
        number=SHARE, decimals=1, percent=True,
        explain={"zh": f"`attnkit.story.story(\"zh\", strength={STRONGER})` 里小红分到 {pct(SHARE)}，比原来的 {pct(BEFORE)} 更集中。\n"
                       "力度翻倍，所有得分翻倍，分差也翻倍；[3.3 节](../ch3/softmax.md)说过，份额之比只取决于分差，于是小红拿得更多。",
                 "en": f"In `attnkit.story.story(\"en\", strength={STRONGER})` Mary gets {pct(SHARE)}, more than the "
                       f"{pct(BEFORE)} before.\n"
                       "Doubling the strength doubles every score and every gap between scores; as "
                       "[section 3.3](../ch3/softmax.md) showed, the ratio of two shares depends only on the gap, so Mary takes even more."},
        mistakes=[Mistake(100 * BEFORE, {"zh": "那是调整以前的份额。得分翻倍，分差翻倍，份额会变。",
                                         "en": "That is the share before. Double the scores, double the gaps, and the shares change."})],
    ),
]
