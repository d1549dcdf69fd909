"""11.1 The induction rule: find the latest earlier occurrence of the current token, predict what followed it."""
from attnkit.exercise import Case, Exercise
from attnkit.induction import induction_rule

STARTER = '''\
def induction_rule(tokens):
    # tokens：一串词元编号（列表），比如 [0, 1, 2, 0, 1] [zh]
    # tokens: a list of token ids, e.g. [0, 1, 2, 0, 1] [en]
    # 对每个位置 i：在它前面找当前词元最近一次出现的位置 j，猜 tokens[j + 1]；没出现过就写 -1 [zh]
    # for each position i: find the latest earlier position j holding the same token and guess tokens[j + 1]; -1 if there is none [en]
    # 返回和 tokens 一样长的列表 [zh]
    # return a list as long as tokens [en]
    ...
'''

SOLUTION = '''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]   # where this token appeared before
        guesses.append(tokens[earlier[-1] + 1] if earlier else -1)
    return guesses
'''

SIMPLE = [0, 1, 2, 0, 1]           # a repeated segment
TWICE = [2, 3, 2, 4, 2, 5]         # token 2 appears three times: the latest earlier one counts


def expected(tokens):
    return [int(x) for x in induction_rule(tokens)]


EXERCISE = Exercise(
    id="ch11-induction-rule",
    title={"zh": "归纳规则", "en": "The induction rule"},
    function="induction_rule",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=(SIMPLE,), expected=expected(SIMPLE),
             about={"zh": "一段重复的词元", "en": "a repeated segment"},
             hint={"zh": "第一次出现的词元前面没有可以抄的，写 -1；再次出现时，抄它上一次出现之后紧跟着的那个词元。",
                   "en": "A token seen for the first time has nothing to copy from: write -1. When it comes again, "
                         "copy the token that came right after its earlier occurrence."}),
        Case(args=(TWICE,), expected=expected(TWICE),
             about={"zh": "同一个词元在前面出现了不止一次", "en": "the same token appeared more than once before"},
             hint={"zh": "要找的是最近一次出现，也就是离当前位置最近的那个 j，不是第一次出现。",
                   "en": "Use the latest earlier occurrence, the j closest to the current position, not the first one."}),
    ],
    wrong={
        "first-occurrence": ('''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]
        guesses.append(tokens[earlier[0] + 1] if earlier else -1)
    return guesses
''', 1),
        "copies-the-token-itself": ('''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]
        guesses.append(tokens[earlier[-1]] if earlier else -1)
    return guesses
''', 0),
    },
)
