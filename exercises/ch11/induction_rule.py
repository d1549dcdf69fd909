"""11.1 The induction rule: find the latest earlier occurrence of the current token, predict what followed it.

Its expected values come from attnkit.induction.induction_rule, the rule chapter 11 prints.
"""
from attnkit.exercise import Case, Exercise
from attnkit.induction import induction_rule

STARTER = '''\
def induction_rule(tokens):
    # tokens：一串词元编号（列表），比如 [0, 1, 2, 0, 1] [zh]
    # tokens: a list of token ids, e.g. [0, 1, 2, 0, 1] [en]
    # 对每个位置 i：在它前面（0 到 i − 1，i − 1 也算） [zh]
    # 找当前词元最近一次出现的位置 j，猜 tokens[j + 1]；前面没出现过就写 -1 [zh]
    # for each position i, look back over positions 0 to i − 1 (i − 1 included) [en]
    # for the latest j holding the same token, and guess tokens[j + 1]; -1 if none [en]
    # 返回和 tokens 一样长的列表 [zh]
    # return a list as long as tokens [en]
    ...
'''

SOLUTION = '''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]   # 这个词元之前出现过的位置 [zh]
        earlier = [j for j in range(i) if tokens[j] == t]   # where this token appeared before [en]
        guesses.append(tokens[earlier[-1] + 1] if earlier else -1)
    return guesses
'''

SIMPLE = [0, 1, 2, 0, 1]           # a repeated segment
TWICE = [2, 3, 2, 4, 2, 5]         # token 2 appears three times: the latest earlier one counts
REPEAT = [3, 3, 4, 3]              # the same token twice in a row: the latest earlier one is at i - 1


def expected(tokens):
    return [int(x) for x in induction_rule(tokens)]


def held_out(rng):
    """Sequences the page does not list: random tokens from a few letters, each holding a token
    twice in a row and a token whose latest earlier occurrence is not its first."""
    cases = []
    for n in (8, 12):
        while True:
            tokens = [int(t) for t in rng.integers(0, 4, size=n)]
            latest = expected(tokens)
            first = [tokens[tokens.index(t) + 1] if t in tokens[:i] else -1 for i, t in enumerate(tokens)]
            if any(a == b for a, b in zip(tokens, tokens[1:])) and first != latest:
                break
        cases.append(Case(args=(tokens,), expected=latest,
                          about={"zh": f"{n} 个随机的词元", "en": f"{n} random tokens"},
                          hint={"zh": "对每个位置 i，看 0 到 i − 1 里当前词元最近一次出现的位置 j，猜 tokens[j + 1]。",
                                "en": "For each position i, take the latest j from 0 to i − 1 with the same token, and "
                                      "guess tokens[j + 1]."}))
    return cases


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
        Case(args=(REPEAT,), expected=expected(REPEAT),
             about={"zh": "同一个词元连着出现两次", "en": "the same token twice in a row"},
             hint={"zh": "紧挨着的前一个位置 i − 1 也算“前面”：位置 1 的 3 在位置 0 出现过，猜 tokens[1]。",
                   "en": "The position just before, i − 1, counts as earlier too: the 3 at position 1 appeared at "
                         "position 0, so guess tokens[1]."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.induction.induction_rule", "attnkit.induction.induction_pattern"),
    wrong={
        "first-occurrence": ('''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]
        guesses.append(tokens[earlier[0] + 1] if earlier else -1)
    return guesses
''', 1, {"zh": "你用的是第一次出现。要找最近一次出现：离当前位置最近的那个 j（earlier[-1]）。",
        "en": "You used the first occurrence. Use the latest one: the j closest to the current position (earlier[-1])."}),
        "copies-the-token-itself": ('''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i) if tokens[j] == t]
        guesses.append(tokens[earlier[-1]] if earlier else -1)
    return guesses
''', 0, {"zh": "你抄的是那个词元自己。要抄的是它上一次出现之后紧跟着的那个：tokens[j + 1]。",
        "en": "You copied the token itself. Copy the one that came right after its earlier occurrence: tokens[j + 1]."}),
        "skips-previous": ('''\
def induction_rule(tokens):
    guesses = []
    for i, t in enumerate(tokens):
        earlier = [j for j in range(i - 1) if tokens[j] == t]
        guesses.append(tokens[earlier[-1] + 1] if earlier else -1)
    return guesses
''', 2, {"zh": "range(i − 1) 漏掉了紧挨着的前一个位置 i − 1。前面的位置是 0 到 i − 1：用 range(i)。",
        "en": "range(i − 1) leaves out the position just before, i − 1. The earlier positions are 0 to i − 1: "
              "use range(i)."}),
        "calls-attnkit": ('''\
from attnkit.induction import induction_rule
''', 0, None, "library"),
    },
)
