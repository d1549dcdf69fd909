"""0.1 Every word dotted with every question: a table of dot products, written with two loops."""
import numpy as np

from attnkit.basics import matmul_by_dots
from attnkit.exercise import Case, Exercise

STARTER = '''\
import numpy as np

def dot_table(words, questions):
    # words: (n_words, d)，questions: (n_questions, d) [zh]
    # words: (n_words, d), questions: (n_questions, d) [en]
    # 返回 (n_words, n_questions) 的表：第 i 行第 j 列是词 i 和问题 j 的点积 [zh]
    # return the (n_words, n_questions) table: row i, column j is word i dotted with question j [en]
    ...
'''

SOLUTION = '''\
import numpy as np

def dot_table(words, questions):
    table = np.zeros((len(words), len(questions)))   # (n_words, n_questions)
    for i in range(len(words)):
        for j in range(len(questions)):
            # 对应相乘再相加：(d,) * (d,) -> 一个数 [zh]
            # multiply matching entries, then add: (d,) * (d,) -> one number [en]
            table[i, j] = np.sum(words[i] * questions[j])
    return table
'''

words = np.array([[1.0, -0.5, -1.0], [1.0, 0.5, -1.0], [-1.0, -0.8, 1.0]])   # (3, 3) the cat, dog, apple of 0.1
questions = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])                        # (2, 3) "alive?", "edible?"
tall = np.array([[2.0, 1.0], [0.0, 3.0], [1.0, 1.0], [-1.0, 2.0]])              # (4, 2)
wide = np.array([[1.0, 2.0], [3.0, -1.0]])                                      # (2, 2)

HINT = {"zh": "表有 n_words 行、n_questions 列；第 i 行第 j 列是 words[i] 和 questions[j] 对应相乘再相加。",
        "en": "The table has n_words rows and n_questions columns; cell (i, j) multiplies words[i] and "
              "questions[j] entry by entry and adds the products."}


def held_out(rng):
    """Tables the page does not list: random words and questions, never as many of one as of the other."""
    cases = []
    for n_words, n_questions in ((5, 3), (2, 4)):
        d = int(rng.integers(2, 6))
        w = rng.integers(-3, 4, size=(n_words, d)).astype(float)        # (n_words, d)
        q = rng.integers(-3, 4, size=(n_questions, d)).astype(float)    # (n_questions, d)
        cases.append(Case(args=(w, q), expected=matmul_by_dots(w, q.T),
                          about={"zh": f"{n_words} 个词、{n_questions} 个问题，每个 {d} 个数",
                                 "en": f"{n_words} words, {n_questions} questions, {d} numbers each"},
                          hint=HINT))
    return cases


EXERCISE = Exercise(
    id="ch0-dot-table",
    title={"zh": "点积表：每个词和每个问题", "en": "A table of dot products"},
    function="dot_table",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(words, questions), expected=matmul_by_dots(words, questions.T),
             about={"zh": "三个词、两个问题", "en": "three words, two questions"},
             hint=HINT),
        Case(args=(tall, wide), expected=matmul_by_dots(tall, wide.T),
             about={"zh": "四个词、两个问题，每个只有两个数", "en": "four words, two questions, two numbers each"},
             hint={"zh": "点积是“对应相乘再相加”，不是只相乘，也不是把两个向量的和相乘。",
                   "en": "A dot product multiplies matching entries and then adds them: not only multiplying, "
                         "and not the product of the two sums."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.basics.matmul_by_dots",),
    wrong={
        "transposed": ('''\
import numpy as np

def dot_table(words, questions):
    table = np.zeros((len(questions), len(words)))
    for i in range(len(questions)):
        for j in range(len(words)):
            table[i, j] = np.sum(questions[i] * words[j])
    return table
''', 0),
        "product-of-sums": ('''\
import numpy as np

def dot_table(words, questions):
    table = np.zeros((len(words), len(questions)))
    for i in range(len(words)):
        for j in range(len(questions)):
            table[i, j] = np.sum(words[i]) * np.sum(questions[j])
    return table
''', 0, {"zh": "你算的是两个向量各自的和再相乘。点积要对应相乘再相加：np.sum(words[i] * questions[j])。",
        "en": "You multiplied the two vectors' sums. A dot product multiplies matching entries first, then adds: "
              "np.sum(words[i] * questions[j])."}),
        "calls-attnkit": ('''\
import numpy as np
from attnkit.basics import matmul_by_dots

def dot_table(words, questions):
    return matmul_by_dots(words, questions.T)
''', 0, None, "library"),
    },
)
