"""12.1 One step of byte-pair encoding: count the neighbouring pairs, merge the most frequent."""
from attnkit.bpe import merge_pair, pair_counts
from attnkit.exercise import Case, Exercise

STARTER = '''\
def merge_step(words, new):
    # words：字典 {一串词元编号（元组）: 这一串在语料里出现的次数} [zh]
    # words: a dict {a tuple of token ids: how many times that chunk occurs in the corpus} [en]
    # 1. 数出每一对相邻编号 (a, b) 一共出现几次（别忘了乘上这一串的次数） [zh]
    # 1. count how often each neighbouring pair (a, b) occurs (times the chunk's count) [en]
    # 2. 取次数最多的一对；次数一样时取编号最小的一对 [zh]
    # 2. take the most frequent pair; among equal counts, the pair of smallest ids [en]
    # 3. 在每一串里从左到右把这一对换成 new，返回 (这一对, 新的 words) [zh]
    # 3. in every chunk, left to right, replace that pair by new; return (the pair, the new words) [en]
    ...
'''

SOLUTION = '''\
def merge_step(words, new):
    counts = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n          # each occurrence, times the chunk's count
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)   # ties: the smallest ids
    merged = {}
    for word, n in words.items():
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                out.append(new)
                i += 2
            else:
                out.append(word[i])
                i += 1
        merged[tuple(out)] = merged.get(tuple(out), 0) + n
    return pair, merged
'''


def expected(words, new):
    """attnkit.bpe's own step: pair_counts, the most frequent pair (smallest ids on a tie), merge_pair."""
    counts = pair_counts(words)
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    merged = {}
    for word, n in words.items():
        w = merge_pair(word, pair, new)
        merged[w] = merged.get(w, 0) + n
    return pair, merged


# (3, 4) occurs in more chunks, (1, 2) more often: the chunk (1, 2) occurs 5 times
WEIGHTED = ({(1, 2): 5, (3, 4): 1, (3, 4, 3, 4): 1}, 5)
# 0 0 0: the pair (0, 0) overlaps itself; left to right it becomes 2 0
OVERLAP = ({(0, 0, 0): 2, (0, 1): 1}, 2)
# two pairs tied at 2: (0, 1) and (1, 2); the smaller ids win
TIE = ({(0, 1): 2, (1, 2): 2}, 3)

EXERCISE = Exercise(
    id="ch12-bpe-merge",
    title={"zh": "BPE 的一步：数相邻对，合并最多的一对", "en": "One BPE step: count the pairs, merge the most frequent"},
    function="merge_step",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=WEIGHTED, expected=expected(*WEIGHTED),
             about={"zh": "每一串带着出现次数", "en": "each chunk comes with its count"},
             hint={"zh": "一对出现的次数要乘上这一串在语料里出现的次数：(1, 2) 所在的那一串出现 5 次，它就算 5 次。",
                   "en": "A pair counts as often as its chunk occurs: (1, 2) sits in a chunk that occurs 5 times, so it counts 5 times."}),
        Case(args=OVERLAP, expected=expected(*OVERLAP),
             about={"zh": "一对和自己重叠：0 0 0", "en": "a pair that overlaps itself: 0 0 0"},
             hint={"zh": "从左到右合并，合并过的编号不再参加下一次配对：0 0 0 变成 2 0，不是 0 2。",
                   "en": "Merge left to right, and an id already merged takes no part in the next pair: 0 0 0 becomes 2 0, not 0 2."}),
        Case(args=TIE, expected=expected(*TIE),
             about={"zh": "两对次数一样", "en": "two pairs with the same count"},
             hint={"zh": "次数一样时取编号最小的一对（先比 a，再比 b），这样每次训练的结果都一样。",
                   "en": "On a tie take the pair of smallest ids (compare a, then b), so that every training run gives the same merges."}),
    ],
    wrong={
        "ignores-counts": ('''\
def merge_step(words, new):
    counts = {}
    for word in words:
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    merged = {}
    for word, n in words.items():
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                out.append(new)
                i += 2
            else:
                out.append(word[i])
                i += 1
        merged[tuple(out)] = merged.get(tuple(out), 0) + n
    return pair, merged
''', 0),
        "right-to-left": ('''\
def merge_step(words, new):
    counts = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    merged = {}
    for word, n in words.items():
        out, i = [], len(word) - 1
        while i >= 0:
            if i >= 1 and (word[i - 1], word[i]) == pair:
                out.insert(0, new)
                i -= 2
            else:
                out.insert(0, word[i])
                i -= 1
        merged[tuple(out)] = merged.get(tuple(out), 0) + n
    return pair, merged
''', 1),
    },
)
