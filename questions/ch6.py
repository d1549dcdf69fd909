"""Chapter 6's checked questions (6.3 courses and where to go next). bookbuild/questions.py"""
from bookbuild.questions import Choice, Mistake, Question

D_MODEL, HEADS = 512, 8          # the original paper's base model

QUESTIONS = [
    Question(
        id="ch6-head-size",
        title={"zh": "原论文的模型每个头多少维", "en": "How wide is a head in the original paper’s model?"},
        prompt={"zh": f"图解里的词向量常常只画 4 个格子。原论文的模型每个词向量有 {D_MODEL} 维，分给 {HEADS} 个头，每个头多少维？",
                "en": f"Illustrations often draw a word vector as 4 boxes. In the original paper's model each word vector "
                      f"has {D_MODEL} dimensions, shared among {HEADS} heads. How many dimensions does each head get?"},
        number=D_MODEL // HEADS, decimals=0,
        explain={"zh": f"\\({D_MODEL} / {HEADS} = {D_MODEL // HEADS}\\)。\n"
                       "图里的格子只是示意，要看的是“谁和谁做了什么运算”。",
                 "en": f"\\({D_MODEL} / {HEADS} = {D_MODEL // HEADS}\\).\n"
                       "The boxes are a sketch; what matters is who does what with whom."},
        mistakes=[Mistake(D_MODEL, {"zh": "那是整个词向量的维数。各个头把它分开，每个头只拿一段。",
                                    "en": "That is the whole word vector. The heads share it out, one slice each."}),
                  Mistake(D_MODEL * HEADS, {"zh": "要除，不是乘：各个头分的是同一个词向量。",
                                            "en": "Divide, do not multiply: the heads share one word vector between them."})],
    ),
    Question(
        id="ch6-steps-in-order",
        title={"zh": "矩阵动画按什么顺序画", "en": "In what order does a matrix animation draw?"},
        prompt={"zh": "把注意力的矩阵运算做成动画，一帧一帧地画，画面的顺序是哪一个？",
                "en": "An animation of attention's matrix arithmetic draws it frame by frame. In what order?"},
        choices=[
            Choice(text={"zh": "做出 Q、K、V → 点积出一张热力图 → 缩放 → 每行做 softmax → 按份额混合 V 的各行。",
                         "en": "Make Q, K and V → dot products into a heatmap → scale → softmax each row → mix the rows of V by the shares."},
                   why={"zh": "这正是第 3 章的四步：打分、除以 \\(\\sqrt{d_k}\\)、softmax、加权求和。\n"
                              "6.1 节的编程练习让你先把这些帧自己算出来。",
                        "en": "These are chapter 3's four steps: score, divide by \\(\\sqrt{d_k}\\), softmax, weighted sum.\n"
                              "Section 6.1's coding exercise has you compute those frames yourself first."},
                   right=True),
            Choice(text={"zh": "做出 Q、K、V → 每行做 softmax → 点积出一张热力图 → 按份额混合 V。",
                         "en": "Make Q, K and V → softmax each row → dot products into a heatmap → mix V by the shares."},
                   why={"zh": "softmax 要换算的是得分：先得有点积算出的得分，才有东西可换算。",
                        "en": "Softmax turns scores into shares: the dot products have to come first, or there is nothing to turn."}),
            Choice(text={"zh": "做出 Q、K、V → 先混合 V → 再点积打分，看混合得好不好。",
                         "en": "Make Q, K and V → mix V first → then score with dot products, to see how good the mix was."},
                   why={"zh": "混合要按份额来，份额来自得分：打分在前，混合在最后。",
                        "en": "The mix follows the shares, and the shares come from the scores: scoring comes first, mixing last."}),
        ],
    ),
    Question(
        id="ch6-animations-first",
        title={"zh": "为什么先看动画、最后看系统课程", "en": "Why animations first and a full course last?"},
        prompt={"zh": "为什么建议先看动画、最后才看系统课程？",
                "en": "Why watch animations first and take a full course last?"},
        choices=[
            Choice(text={"zh": "动画比课程更精确。",
                         "en": "Animations are more exact than courses."},
                   why={"zh": "正相反：动画是示意（比如只画 4 个格子），精确的是课程里的公式和代码。",
                        "en": "The other way round: an animation is a sketch (word vectors of 4 boxes); the exact part is "
                              "the course's formulas and code."}),
            Choice(text={"zh": "先有一幅画面，课程里的每句话才有地方挂。",
                         "en": "A picture first gives every sentence of the course somewhere to hang."},
                   why={"zh": "没有直觉时直接听长课或读论文，很容易被公式和代码细节淹没，听完就忘。\n"
                              "先用动画和图解建立一幅画面，再动手改一改，课程里的每句话就都有地方挂了。",
                        "en": "Without an intuition, a long course or the paper itself tends to bury you in formulas and "
                              "code details, and it is forgotten as soon as it ends.\n"
                              "Build a picture with animations and illustrations first, play with it, and then every "
                              "sentence of the course has somewhere to hang."},
                   right=True),
            Choice(text={"zh": "课程会过时，动画不会。",
                         "en": "Courses go out of date; animations do not."},
                   why={"zh": "两者都会过时；这里讲的是先后顺序，为的是理解，不是新旧。",
                        "en": "Both can go out of date; the order is about understanding, not about age."}),
        ],
    ),
]
