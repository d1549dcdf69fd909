"""Chapter 2's checked questions (2.3 two pictures: a library and a comprehension test). bookbuild/questions.py"""
from attnkit.toy import library
from bookbuild.questions import Choice, Question, num, pct

GRADES, SHARES = (90, 70, 100), (0.5, 0.5, 0.5)
GRADE = sum(g * s for g, s in zip(GRADES, SHARES))
DINOSAUR_BEFORE = library()[1][0][1]
DINOSAUR_CATS_ONLY = library([[2.0, 0.0, 0.0]])[1][0][1]

QUESTIONS = [
    Question(
        id="ch2-shares-add-up",
        title={"zh": "占比 0.5、0.5、0.5 还算加权平均吗", "en": "Shares of 0.5, 0.5 and 0.5: still a weighted average?"},
        prompt={"zh": "期末总评里，如果考试、作业、出勤三样的占比是 0.5、0.5、0.5，还算加权平均吗？",
                "en": "If the exam, homework and attendance counted 0.5, 0.5 and 0.5, would the course grade still be a weighted average?"},
        choices=[
            Choice(text={"zh": "算：三样占比一样，就是普通的平均。",
                         "en": "Yes: equal shares make it a plain average."},
                   why={"zh": f"普通的平均是每样 1/3。占比 0.5、0.5、0.5 时，90、70、100 算出来是 {num(GRADE, 0)}，比最高的一样还高。",
                        "en": f"A plain average gives each a third. With 0.5, 0.5 and 0.5, grades of 90, 70 and 100 come out at "
                              f"{num(GRADE, 0)}, above the best of them."}),
            Choice(text={"zh": "不算：占比加起来是 1.5，不是 1。",
                         "en": "No: the shares add up to 1.5, not 1."},
                   why={"zh": f"90、70、100 三样成绩算出来是 {num(GRADE, 0)}，比最高的一样还高，已经不是“平均”了。\n"
                              "注意力的权重一定加起来是 1，这正是 softmax 的工作（3.3 节）。",
                        "en": f"Grades of 90, 70 and 100 would come out at {num(GRADE, 0)}, higher than the best of them, "
                              "so it is no longer an average.\n"
                              "Attention weights always add up to 1; making sure of that is softmax's job (section 3.3)."},
                   right=True),
            Choice(text={"zh": "算：只要每个占比都在 0 和 1 之间就行。",
                         "en": "Yes: it is enough that every share lies between 0 and 1."},
                   why={"zh": "每一份在 0 和 1 之间还不够，所有份加起来还得正好是 1。",
                        "en": "Each share between 0 and 1 is not enough: together they must add up to exactly 1."}),
        ],
    ),
    Question(
        id="ch2-rnn-first-word",
        title={"zh": "换掉句末，RNN 的第一个输出变不变", "en": "Change the last word: does an RNN’s first output change?"},
        prompt={"zh": "2.2 节说，在自注意力里只把句末换掉，第一个词的输出也会变。单向的 RNN 也是这样吗？",
                "en": "Section 2.2 says that in self-attention, changing only the last word changes the first word's "
                      "output. Is that true for a one-directional RNN?"},
        choices=[
            Choice(text={"zh": "是：隐藏状态会把句末的信息带回句首。",
                         "en": "Yes: the hidden state carries the end of the sentence back to the start."},
                   why={"zh": "单向的 RNN 只往后传，不往回传：句末的信息到不了句首。",
                        "en": "A one-directional RNN passes things forward only, never back: the end cannot reach the start."}),
            Choice(text={"zh": "不是：第一个词的输出在读到后面的词之前就已经定了。",
                         "en": "No: the first word's output is settled before the later words are read."},
                   why={"zh": "单向的 RNN 从左往右读，后面的词改什么都影响不到第一个词的输出。\n"
                              "自注意力里，每个位置的输出都由整排输入算出来，所以句末的改动会影响句首。\n"
                              "想让模型只许看前面，要额外加一个掩码（mask），把后面的位置排除在外。",
                        "en": "A one-directional RNN reads left to right, so nothing later can change the output at the first word.\n"
                              "In self-attention, every position's output is computed from the whole row of inputs, so an "
                              "edit at the end reaches the beginning.\n"
                              "To allow a model to look only backwards, you add a mask that rules out the later positions."},
                   right=True),
            Choice(text={"zh": "要看句子多长：短句会变，长句不会。",
                         "en": "It depends on the length: in a short sentence yes, in a long one no."},
                   why={"zh": "和长短无关：单向的 RNN 里，后面的词从来到不了前面的输出。",
                        "en": "Length has nothing to do with it: in a one-directional RNN, later words never reach earlier outputs."}),
        ],
    ),
    Question(
        id="ch2-library-cats",
        title={"zh": "只问猫，恐龙书的权重变大还是变小", "en": "Ask only about cats: more weight for the dinosaur book, or less?"},
        prompt={"zh": "在图书馆的例子里，如果把问题改成只问猫 [2, 0, 0]，讲恐龙的书分到的权重会变大还是变小？",
                "en": "In the library, if the question is only about cats, [2, 0, 0], does the dinosaur book get more weight or less?"},
        choices=[
            Choice(text={"zh": "变大：问题变简单了，每本书都分得更多。",
                         "en": "More: a simpler question gives every book more."},
                   why={"zh": "权重加起来总是 1，不会每本都变多；恐龙书的权重其实降了。",
                        "en": "The weights always add up to 1, so they cannot all grow; the dinosaur book's weight in fact falls."}),
            Choice(text={"zh": "变小：问题和恐龙书标签的点积从 1 变成 0。",
                         "en": "Less: the question's dot product with the dinosaur label drops from 1 to 0."},
                   why={"zh": f"分数差距变大，恐龙书的权重从 {pct(DINOSAUR_BEFORE)} 降到 {pct(DINOSAUR_CATS_ONLY)}。",
                        "en": f"The gap to the cat book widens, and the dinosaur book's weight falls from {pct(DINOSAUR_BEFORE)} "
                              f"to {pct(DINOSAUR_CATS_ONLY)}."},
                   right=True),
            Choice(text={"zh": "不变：恐龙书的标签没有变。",
                         "en": "The same: the dinosaur book's label did not change."},
                   why={"zh": "权重看的是问题和标签的点积，问题变了，点积就变了。",
                        "en": "The weight depends on the dot product of the question and the label; change the question, "
                              "and the dot product changes."}),
        ],
    ),
]
