"""Chapter 12's checked questions (12.5 summary). bookbuild/questions.py"""
from attnkit import realtext
from bookbuild.bookcache import memo
from bookbuild.questions import Choice, Mistake, Question, num

HAN = "注意力"
BYTES = {len(ch.encode("utf-8")) for ch in HAN}
assert len(BYTES) == 1, "every character of HAN takes the same number of UTF-8 bytes"
PER_CHAR = BYTES.pop()                                    # bytes of a common Chinese character in UTF-8
ANALECTS = memo(realtext.tokenization, "zh")              # the Analects' own tokenizers (memoized: they are trained)

QUESTIONS = [
    Question(
        id="ch12-bytes-per-character",
        title={"zh": "只学过英文的字节级分词器，每个汉字几个词元", "en": "An English byte-level tokenizer on Chinese: tokens per character"},
        prompt={"zh": "一个只在英文上训练过的字节级分词器拿到中文。常用汉字每个字最多要几个词元？",
                "en": "A byte-level tokenizer trained only on English text is given Chinese. At most how many tokens "
                      "does a common Chinese character take?"},
        number=PER_CHAR, decimals=0,
        explain={"zh": f"UTF-8 里一个常用汉字占 {PER_CHAR} 个字节（《论语》连标点和换行平均每个字符 "
                       f"{num(ANALECTS['utf8_bytes_per_char'], 2)} 个字节）。\n"
                       f"没有一条合并用得上时，每个字节就是一个词元：每个字 {PER_CHAR} 个。"
                       f"在英文上学到的合并几乎不会把汉字的字节合起来，所以它一直接近 {PER_CHAR}；"
                       f"在《论语》本身上训练的 BPE 只要 {num(ANALECTS['sizes'][-1][1], 2)} 个。",
                 "en": f"A common Chinese character is {PER_CHAR} bytes in UTF-8 (the Analects average "
                       f"{num(ANALECTS['utf8_bytes_per_char'], 2)} bytes per character, with punctuation and line breaks).\n"
                       f"With no merges that apply, every byte is a token: {PER_CHAR} tokens per character. Merges learned "
                       f"on English almost never join bytes of Chinese characters, so it stays close to {PER_CHAR}, against "
                       f"{num(ANALECTS['sizes'][-1][1], 2)} for the BPE trained on the Analects themselves."},
        mistakes=[Mistake(1, {"zh": "一个字一个词元，要靠在中文上学到的合并；只学过英文的分词器没有这些合并，只能一个字节一个词元。",
                              "en": "One token per character needs merges learned on Chinese; a tokenizer trained on English "
                                    "has none, so every byte is a token."}),
                  Mistake(2, {"zh": "那是 UTF-16 里一个汉字的字节数。字节级分词器读的是 UTF-8。",
                              "en": "That is a Chinese character's size in UTF-16. A byte-level tokenizer reads UTF-8."})],
    ),
    Question(
        id="ch12-greedy-two-ways",
        title={"zh": "k = 1 的 top-k 和温度趋近 0", "en": "Top-k with k = 1, and temperature going to 0"},
        prompt={"zh": "\\(k = 1\\) 的 top-k 和温度 \\(T \\to 0\\)，是一回事吗？",
                "en": "Top-k with \\(k = 1\\), and temperature \\(T \\to 0\\): are they the same?"},
        choices=[
            Choice(text={"zh": "是，两者都是永远挑最可能的词元（只在两个分数恰好相等时有差别）。",
                         "en": "Yes: both always take the likeliest token (they differ only when two scores tie exactly)."},
                   why={"zh": "top-k = 1 直接这么做；\\(T \\to 0\\) 让 softmax 把全部概率给最高分，取极限时一样。\n"
                              "两个分数恰好相等时，\\(T \\to 0\\) 在它们之间平分，top-k = 1 取编号小的那个。",
                        "en": "Top-k = 1 does it exactly; \\(T \\to 0\\) makes the softmax put all the probability on the top "
                              "score, which is the same in the limit.\n"
                              "When two scores tie exactly, \\(T \\to 0\\) shares between them and top-k = 1 takes the smaller id."},
                   right=True),
            Choice(text={"zh": "不是：\\(T \\to 0\\) 让每个词元的概率都一样。",
                         "en": "No: \\(T \\to 0\\) makes every token equally likely."},
                   why={"zh": "那是 \\(T \\to \\infty\\)。温度趋近 0 时，分差被无限放大，最高分拿走全部概率。",
                        "en": "That is \\(T \\to \\infty\\). As the temperature goes to 0 the gaps grow without bound and the "
                              "top score takes all the probability."}),
            Choice(text={"zh": "不是：top-k = 1 还会从前 1 个里随机抽，结果每次不同。",
                         "en": "No: top-k = 1 still draws at random, so it differs from run to run."},
                   why={"zh": "只留 1 个候选，再怎么抽也只能抽到它：结果每次都一样。",
                        "en": "With one candidate left, every draw picks it: the result is the same every time."}),
        ],
    ),
    Question(
        id="ch12-merge-in-chunks",
        title={"zh": "BPE 为什么只在一段之内合并", "en": "Why BPE merges only inside a chunk"},
        prompt={"zh": "BPE 为什么只在一段之内合并（一个词连同它前面的空格，或者一个标点）？",
                "en": "Why does BPE merge only inside a chunk (a word with its space, or one punctuation mark)?"},
        choices=[
            Choice(text={"zh": "为了快：段越短，合并算得越快。",
                         "en": "For speed: shorter chunks make the merges faster to compute."},
                   why={"zh": "快一点是附带的；真正的原因是词元不该跨过词的边界。",
                        "en": "Speed is a side effect; the reason is that a token should not straddle a word boundary."}),
            Choice(text={"zh": "不然跨过词边界的常见对（比如 `e␣`）也会被合并，同一个词跟在不同的词后面切法就不一样。",
                         "en": "Otherwise frequent pairs across word boundaries (such as `e␣`) merge too, and the same word "
                               "is cut differently depending on its neighbours."},
                   why={"zh": "没有这条规矩，词元会把一个词的结尾和下一个词的开头粘在一起。\n"
                              "先切成段，每个词元都在一个词里面，同一个词在哪里都切得一样。",
                        "en": "Without that rule, tokens would mix the end of one word with the start of the next.\n"
                              "Cutting into chunks first keeps every token inside one word, so a word is tokenized the "
                              "same way wherever it appears."},
                   right=True),
            Choice(text={"zh": "为了让词表小：段内的对比跨段的对少。",
                         "en": "To keep the vocabulary small: there are fewer pairs inside chunks than across them."},
                   why={"zh": "词表多大由合并次数定，不由段的切法定；切成段改变的是合并哪些对。",
                        "en": "The number of merges sets the vocabulary's size, not the chunking; chunking changes which pairs get merged."}),
        ],
    ),
]
