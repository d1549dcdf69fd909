"""Chapter 11's checked questions (11.5 from induction heads to in-context learning). bookbuild/questions.py"""
import numpy as np

from attnkit import induction
from bookbuild.bookcache import memo
from bookbuild.questions import Choice, Mistake, Question, num

N = induction.INDUCTION["n_ctx"]
EVEN = np.tril(np.ones((N, N))) / np.arange(1, N + 1).reshape(-1, 1)        # (N, N) each row spread evenly over itself and before
EVEN_SCORE = float(induction.previous_token_score(EVEN.reshape(1, N, N))[0])
THRESHOLD = induction.FORMED["previous"]
LAYER1 = memo(induction.report)["previous"][-1][0]      # (2,) the layer-1 heads' previous-token scores after training

QUESTIONS = [
    Question(
        id="ch11-even-head",
        title={"zh": "平均分配的头，前一个词元分数是多少", "en": "The previous-token score of a head that spreads evenly"},
        prompt={"zh": f"一个头把每一行平均分给自己和前面所有位置。在 {N} 个位置上，它的前一个词元分数是多少？保留 3 位小数。",
                "en": f"A head spreads every row evenly over itself and all earlier positions. What is its previous-token "
                      f"score on {N} positions? Give 3 decimal places."},
        number=EVEN_SCORE, decimals=3,
        explain={"zh": "第 \\(i\\) 行（从 0 数）平均分给 \\(i+1\\) 个位置，前一个位置分到 \\(1/(i+1)\\)。\n"
                       f"分数是对第 1 到第 {N - 1} 行取平均：\\(\\frac{{1}}{{{N - 1}}}\\sum_{{i=1}}^{{{N - 1}}} \\frac{{1}}{{i+1}} "
                       f"\\approx {num(EVEN_SCORE, 3)}\\)。\n"
                       f"所以看分数要看它比起点升了多少，而不是比 0 高多少；11.2 节把前一个词元头的门槛定在 {THRESHOLD}，大约是它的三倍。",
                 "en": "Row \\(i\\) (counting from 0) spreads over \\(i+1\\) positions, so the position before it gets \\(1/(i+1)\\).\n"
                       f"The score averages that over rows 1 to {N - 1}: \\(\\frac{{1}}{{{N - 1}}}\\sum_{{i=1}}^{{{N - 1}}} "
                       f"\\frac{{1}}{{i+1}} \\approx {num(EVEN_SCORE, 3)}\\).\n"
                       "That is why a score must be read against where it started, not against 0, and why 11.2's "
                       f"threshold for a previous-token head is {THRESHOLD}, about three times that."},
        mistakes=[Mistake(1 / N, {"zh": f"那是最后一行给前一个位置的份额。分数要对第 1 到第 {N - 1} 行取平均，前面的行分得更多。",
                                  "en": f"That is what the last row gives the position before it. The score averages rows "
                                        f"1 to {N - 1}, and the earlier rows give more."}),
                  Mistake(0, {"zh": "平均分配也会分给前一个位置一份：每一行都有 \\(1/(i+1)\\)。",
                              "en": "An even spread gives the position before a share too: \\(1/(i+1)\\) in every row."})],
    ),
    Question(
        id="ch11-one-layer",
        title={"zh": "一层注意力为什么当不了归纳头", "en": "Why one layer of attention cannot be an induction head"},
        prompt={"zh": "为什么一层注意力，不管权重是多少，都当不了归纳头？",
                "en": "Why can a single layer of attention, whatever its weights, not be an induction head?"},
        choices=[
            Choice(text={"zh": "一层的参数太少，装不下这条规则。",
                         "en": "One layer has too few parameters to hold the rule."},
                   why={"zh": "问题不在参数多少：不管权重是多少都不行，因为要找的信息根本不在键里。",
                        "en": "It is not the number of parameters: no weights at all will do, because what it must find "
                              "is not in the keys."}),
            Choice(text={"zh": "它的键里没有“我前面是什么字母”：得先有一层把它写进每个位置。",
                         "en": "Its keys carry nothing about the letter before: a layer before it has to write that in."},
                   why={"zh": "它的键只由每个位置自己的字母和位置算出来。\n"
                              "归纳头要找的，是当前字母上一次出现*之后*的那个位置；那里自己的字母是后面跟着的随机字母，它的键里没有任何东西说明它前面是什么。\n"
                              "所以没有哪个查询能把它单挑出来。得先有一层把“我前面那个字母”写进每个位置。",
                        "en": "Its keys are built from each position's own letter and place only.\n"
                              "The position an induction head wants is the one *after* an earlier copy of the current "
                              "letter; its own letter is whatever followed, a random letter, and nothing in its key says "
                              "what came before it.\n"
                              "So no query can single it out. A layer before it has to write “my previous letter” into each position first."},
                   right=True),
            Choice(text={"zh": "因果掩码挡住了它：归纳头要看的位置在后面。",
                         "en": "The causal mask blocks it: the position an induction head wants lies ahead."},
                   why={"zh": "要看的位置在前面（上一次出现之后的那个位置），掩码允许看。难处在于认出它。",
                        "en": "The position it wants lies behind (just after the earlier copy), which the mask allows. "
                              "The trouble is recognising it."}),
        ],
    ),
    Question(
        id="ch11-score-is-not-use",
        title={"zh": "前一个词元分数高，就一定被用上吗", "en": "Does a high previous-token score mean the head is used?"},
        prompt={"zh": f"第 1 层两个头的前一个词元分数是 {num(LAYER1[0], 2)} 和 {num(LAYER1[1], 2)}。"
                      "为什么拿掉一个可能让模型垮掉，拿掉另一个却可能没事？",
                "en": f"Two layer-1 heads have previous-token scores of {num(LAYER1[0], 2)} and {num(LAYER1[1], 2)}. "
                      "Why can taking out one of them break the model and taking out the other not?"},
        choices=[
            Choice(text={"zh": "分数只说明头往哪儿看，不说明它写了什么、第 2 层读不读它。",
                         "en": "The score says where a head looks, not what it writes, nor whether layer 2 reads it."},
                   why={"zh": "一个头可以往回看一格，却几乎没写什么有用的东西，或者写的东西归纳头的键根本不读。\n"
                              "11.3 节的消融和“只从键里拿掉”的检验，量的正是分数量不出来的东西：归纳头到底用的是哪个头的输出。",
                        "en": "A head can look one place back and write almost nothing useful, or write something the "
                              "induction heads' keys never read.\n"
                              "The ablation and the keys-only test of 11.3 measure what the score cannot: which head's "
                              "output the induction heads actually use."},
                   right=True),
            Choice(text={"zh": "不可能：分数这么接近，拿掉哪一个效果都该一样。",
                         "en": "It cannot be: with scores that close, taking out either must do the same."},
                   why={"zh": "分数描述的是头往哪儿看；它的输出有没有被用上，要拿掉试试才知道，两件事可以差得很远。",
                        "en": "A score describes where a head looks; whether its output is used only taking it out can tell, "
                              "and the two can differ a lot."}),
            Choice(text={"zh": "测量有噪声：再训练一次，结果就会反过来。",
                         "en": "The measurement is noisy: train again and it flips."},
                   why={"zh": "消融量的是同一个训练好的模型，结果是确定的；差别来自两个头写的东西不同。",
                        "en": "The ablation measures one trained model and is deterministic; the difference comes from what "
                              "the two heads write."}),
        ],
    ),
]
