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
            table[i, j] = np.sum(words[i] * questions[j])   # (d,) * (d,) -> one number
    return table
'''

words = np.array([[1.0, -0.5, -1.0], [1.0, 0.5, -1.0], [-1.0, -0.8, 1.0]])   # (3, 3) the cat, dog, apple of 0.1
questions = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])                        # (2, 3) "alive?", "edible?"
tall = np.array([[2.0, 1.0], [0.0, 3.0], [1.0, 1.0], [-1.0, 2.0]])              # (4, 2)
wide = np.array([[1.0, 2.0], [3.0, -1.0]])                                      # (2, 2)

EXERCISE = Exercise(
    id="ch0-dot-table",
    title={"zh": "点积表：每个词和每个问题", "en": "A table of dot products"},
    function="dot_table",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(words, questions), expected=matmul_by_dots(words, questions.T),
             about={"zh": "三个词、两个问题", "en": "three words, two questions"},
             hint={"zh": "表有 n_words 行、n_questions 列；第 i 行第 j 列是 words[i] 和 questions[j] 对应相乘再相加。",
                   "en": "The table has n_words rows and n_questions columns; cell (i, j) multiplies words[i] and "
                         "questions[j] entry by entry and adds the products."}),
        Case(args=(tall, wide), expected=matmul_by_dots(tall, wide.T),
             about={"zh": "四个词、两个问题，每个只有两个数", "en": "four words, two questions, two numbers each"},
             hint={"zh": "点积是“对应相乘再相加”，不是只相乘，也不是把两个向量的和相乘。",
                   "en": "A dot product multiplies matching entries and then adds them: not only multiplying, "
                         "and not the product of the two sums."}),
    ],
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
''', 0),
    },
)
