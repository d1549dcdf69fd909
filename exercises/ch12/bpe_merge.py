"""12.1 One step of byte-pair encoding: count the neighbouring pairs, merge the most frequent."""
from attnkit.bpe import merge_pair, pair_counts
from attnkit.exercise import Case, Exercise

STARTER = '''\
def merge_step(words, new):
    # words：字典 {一串词元编号（元组）: 这一串在语料里出现的次数} [zh]
    # words: a dict {a tuple of token ids: how many times that chunk occurs in the corpus} [en]
    # 1. 数出每一对相邻编号 (a, b) 一共出现几次（别忘了乘上这一串的次数） [zh]
    # 1. count how often each neighbouring pair (a, b) occurs (times the chunk's count) [en]
    # 2. 取次数最多的一对；次数一样时取编号最小的一对（先比 a，再比 b） [zh]
    # 2. take the most frequent pair; among equal counts, the smallest ids (a first, then b) [en]
    # 3. 在每一串里从左到右把这一对换成 new，返回 (这一对, 新的 words) [zh]
    # 3. in every chunk, left to right, replace that pair by new; return (the pair, the new words) [en]
    ...
'''

SOLUTION = '''\
def merge_step(words, new):
    counts = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            # 每出现一次都算，乘上这一串的次数 [zh]
            # each occurrence, times the chunk's count [en]
            counts[pair] = counts.get(pair, 0) + n
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)   # 次数一样时取编号最小的 [zh]
    pair = min(p for p, c in counts.items() if c == best)   # ties: the smallest ids [en]
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
# two pairs tied at 2, the larger ids counted first: (1, 2), then (0, 1); the smaller ids win
TIE = ({(1, 2): 2, (0, 1): 2}, 3)
# (0, 1) occurs three times in one chunk, (2, 3) twice in all: every occurrence counts
REPEATS = ({(0, 1, 0, 1, 0, 1): 1, (2, 3): 2}, 4)


def held_out(rng):
    """Corpora the page does not list: random chunks of a few ids; two pairs that tie, the larger ids
    counted first; a chunk repeating its most frequent pair; and a pair that overlaps itself in a
    chunk that occurs often, against a pair that occurs in more chunks."""
    while True:
        words = {}
        for _ in range(int(rng.integers(3, 6))):
            chunk = tuple(int(t) for t in rng.integers(0, 4, size=int(rng.integers(2, 7))))
            words[chunk] = words.get(chunk, 0) + int(rng.integers(1, 5))
        counts = pair_counts(words)
        if len(counts) > 1 and sorted(counts.values())[-1] > sorted(counts.values())[-2]:
            break
    a, b, c = (int(t) for t in rng.permutation(5)[:3] + 10)                # three ids of a new alphabet
    big, small = max((a, b), (b, c)), min((a, b), (b, c))
    times = int(rng.integers(2, 4))
    tie = {big: times, small: times, (c, a, c): 1}                           # big pair counted first
    k = int(rng.integers(3, 5))
    repeats = {(a, b) * k: 1, (b, c): k - 1, (c, a): k - 1}                  # (a, b) k times in one chunk
    m = int(rng.integers(2, 5))
    overlap = {(b, c): 1, (a, a, a): m, (b, c, b, c): 1}                     # (a, a): 2m >= 4 times, (b, c): 3
    hint = {"zh": "数出每一对相邻编号（每次出现乘上这一串的次数），取最多的一对（一样多时取编号最小的），从左到右合并。",
            "en": "Count every neighbouring pair (each occurrence times its chunk's count), take the most frequent "
                  "(the smallest ids on a tie), and merge it left to right."}
    return [Case(args=(corpus, 20), expected=expected(corpus, 20), hint=hint, about=about)
            for corpus, about in (
                (words, {"zh": f"{len(words)} 串随机的编号", "en": f"{len(words)} random chunks of ids"}),
                (tie, {"zh": "两对次数一样，编号大的那一对先数到", "en": "two pairs with the same count, the larger ids counted first"}),
                (repeats, {"zh": f"一对在同一串里出现 {k} 次", "en": f"a pair that occurs {k} times in one chunk"}),
                (overlap, {"zh": f"一串 {a} {a} {a} 出现 {m} 次", "en": f"a chunk {a} {a} {a} that occurs {m} times"}))]

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
             about={"zh": "两对次数一样，编号大的那一对先数到", "en": "two pairs with the same count, the larger ids counted first"},
             hint={"zh": "次数一样时取编号最小的一对（先比 a，再比 b），这样每次训练的结果都一样。",
                   "en": "On a tie take the pair of smallest ids (compare a, then b), so that every training run gives the same merges."}),
        Case(args=REPEATS, expected=expected(*REPEATS),
             about={"zh": "一对在同一串里出现三次：0 1 0 1 0 1", "en": "a pair that occurs three times in one chunk: 0 1 0 1 0 1"},
             hint={"zh": "一串里的每一次出现都要数：0 1 0 1 0 1 里 (0, 1) 出现 3 次，不是 1 次。",
                   "en": "Count every occurrence within a chunk: in 0 1 0 1 0 1 the pair (0, 1) occurs 3 times, not once."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.bpe.pair_counts", "attnkit.bpe.merge_pair", "attnkit.bpe.train_bpe"),
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
''', 0, {"zh": "一对出现的次数要乘上这一串在语料里出现的次数：一串出现 5 次，里面的每一对就各算 5 次。",
        "en": "A pair counts as often as its chunk occurs: in a chunk that occurs 5 times, each pair counts 5 times."}),
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
''', 1, {"zh": "你是从右往左合并的。要从左到右：0 0 0 变成 2 0，不是 0 2。",
        "en": "You merged right to left. Go left to right: 0 0 0 becomes 2 0, not 0 2."}),
        "first-counted-wins": ('''\
from collections import Counter

def merge_step(words, new):
    counts = Counter()
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] += n
    pair = counts.most_common(1)[0][0]
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
''', 2, {"zh": "次数一样时，Counter.most_common 和 max(counts, key=counts.get) 取的是先数到的那一对。"
              "要取编号最小的一对：min(p for p, c in counts.items() if c == best)。",
        "en": "On a tie, Counter.most_common and max(counts, key=counts.get) take whichever pair was counted "
              "first. Take the pair of smallest ids: min(p for p, c in counts.items() if c == best)."}),
        "max-by-key": ('''\
def merge_step(words, new):
    counts = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n
    pair = max(counts, key=counts.get)
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
''', 2, {"zh": "次数一样时，Counter.most_common 和 max(counts, key=counts.get) 取的是先数到的那一对。"
              "要取编号最小的一对：min(p for p, c in counts.items() if c == best)。",
        "en": "On a tie, Counter.most_common and max(counts, key=counts.get) take whichever pair was counted "
              "first. Take the pair of smallest ids: min(p for p, c in counts.items() if c == best)."}),
        "once-per-chunk": ('''\
def merge_step(words, new):
    counts = {}
    for word, n in words.items():
        for pair in set(zip(word, word[1:])):
            counts[pair] = counts.get(pair, 0) + n
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
''', 3, {"zh": "一串里的每一次出现都要数，不是每串只数一次：0 1 0 1 0 1 里 (0, 1) 出现 3 次。",
        "en": "Count every occurrence within a chunk, not once per chunk: in 0 1 0 1 0 1 the pair (0, 1) occurs "
              "3 times."}),
        "calls-attnkit": ('''\
from attnkit.bpe import merge_pair, pair_counts

def merge_step(words, new):
    counts = pair_counts(words)
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    merged = {}
    for word, n in words.items():
        merged[merge_pair(word, pair, new)] = merged.get(merge_pair(word, pair, new), 0) + n
    return pair, merged
''', 0, None, "library"),
    },
)
