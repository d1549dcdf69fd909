"""Chapter 9's checked questions (9.5 tiled attention, the chapter's exercises). bookbuild/questions.py"""
from attnkit import kvcache
from bookbuild.questions import Choice, Mistake, Question, num, zhnum

PASSAGE, ASKED = 7, 3               # words in the passage, in the question
T = 1000                            # the new token whose scores are counted
LAYERS, D_MODEL, CONTEXT = 12, 768, 1024      # GPT-2 small, writing its full context
MIB = kvcache.cache_bytes(LAYERS, CONTEXT, D_MODEL, itemsize=4) / 2**20

QUESTIONS = [
    Question(
        id="ch9-cross-shape",
        title={"zh": "交叉注意力得分表的形状", "en": "The shape of cross-attention’s scores"},
        prompt={"zh": f"交叉注意力里，原文有 {PASSAGE} 个词、问题有 {ASKED} 个词，问题的词去看原文。得分表是什么形状？",
                "en": f"In cross-attention with a {PASSAGE}-word passage and a {ASKED}-word question, the question's "
                      "words look at the passage. What shape is the table of scores?"},
        choices=[
            Choice(text={"zh": f"\\({ASKED} \\times {PASSAGE}\\)，不加因果掩码。",
                         "en": f"\\({ASKED} \\times {PASSAGE}\\), with no causal mask."},
                   why={"zh": "每个问题词一行，每个原文词一列，每行加起来是 100%。\n"
                              "通常不加因果掩码：原文是编码器早就读完的，解码器每写一个词都可以看原文的全部。\n"
                              "要挡住的只是填充位置，那用填充掩码。",
                        "en": "One row per question word, one column per passage word, each row adding up to 100%.\n"
                              "Usually there is no causal mask: the encoder has long finished reading the source, so every "
                              "word the decoder writes may look at all of it.\n"
                              "Only padding positions need blocking, and that is the padding mask's job."},
                   right=True),
            Choice(text={"zh": f"\\({PASSAGE} \\times {ASKED}\\)，不加因果掩码。",
                         "en": f"\\({PASSAGE} \\times {ASKED}\\), with no causal mask."},
                   why={"zh": "行属于发问的一方：问题的每个词一行，所以是问题的词数在前。",
                        "en": "Rows belong to whoever asks: one row per question word, so the question's length comes first."}),
            Choice(text={"zh": f"\\({PASSAGE + ASKED} \\times {PASSAGE + ASKED}\\)，加因果掩码。",
                         "en": f"\\({PASSAGE + ASKED} \\times {PASSAGE + ASKED}\\), with a causal mask."},
                   why={"zh": "那是把两段拼成一句做自注意力。交叉注意力里，查询来自问题，键来自原文，两边各是各的。",
                        "en": "That is self-attention over both texts joined. In cross-attention the queries come from the "
                              "question and the keys from the passage, each side on its own."}),
        ],
    ),
    Question(
        id="ch9-cached-scores",
        title={"zh": f"用 KV 缓存，第 {T} 个新词打多少个分", "en": f"With a KV cache: the scores of the {T}th new token"},
        prompt={"zh": f"用 KV 缓存生成时，第 {T} 个新词要打多少个注意力得分（每层每个头）？",
                "en": f"Generating with a KV cache, how many attention scores (per layer and head) does the {T}th new token need?"},
        number=T, decimals=0,
        explain={"zh": f"新词的查询和缓存里的 {T} 个键（连同自己）各打一个分，一共 {T} 个。\n"
                       f"不用缓存就要把整段 {T} 个词重算，得分表是 \\({T} \\times {T}\\)，即 {zhnum(T * T, 4)} 个，其中只有最后一行是新的。",
                 "en": f"The new token's query scores each of the {T} keys in the cache (its own included), {T} in all.\n"
                       f"Without the cache all {T} tokens are recomputed, a \\({T} \\times {T}\\) table of {T * T:,} "
                       "scores, of which only the last row is new."},
        mistakes=[Mistake(T * T, {"zh": "那是不用缓存、整段重算时的得分数。缓存里的键都在，新词只要打一行。",
                                  "en": "That is the count without the cache, recomputing everything. With the keys cached, "
                                        "the new token scores one row."}),
                  Mistake(T - 1, {"zh": "新词也要和自己的键打一个分：缓存里连同它自己一共有这么多个键。",
                                  "en": "The new token scores its own key too: the cache holds that many keys, its own included."})],
    ),
    Question(
        id="ch9-gpt2-cache",
        title={"zh": "GPT-2 small 写满上下文时 KV 缓存多大", "en": "GPT-2 small’s KV cache at full context"},
        prompt={"zh": f"GPT-2 small 有 {LAYERS} 层、\\(d_{{\\text{{model}}}} = {D_MODEL}\\)，写满 {CONTEXT} 个词元。"
                      "用 32 位浮点数存，它的 KV 缓存是多少 MiB？",
                "en": f"GPT-2 small has {LAYERS} layers and \\(d_{{\\text{{model}}}} = {D_MODEL}\\), and writes its full "
                      f"{CONTEXT} tokens. In 32-bit floats, how many MiB is its KV cache?"},
        number=MIB, decimals=0,
        explain={"zh": f"\\(2 \\times {LAYERS} \\times {CONTEXT} \\times {D_MODEL}\\)，约 "
                       f"{zhnum(kvcache.cache_numbers(LAYERS, CONTEXT, D_MODEL), 4)} 个数（键和值各一份）。\n"
                       f"每个数 4 个字节，是 {num(MIB, 0)} MiB；一批同时写 8 条，就再乘 8。",
                 "en": f"\\(2 \\times {LAYERS} \\times {CONTEXT} \\times {D_MODEL}\\) = "
                       f"{kvcache.cache_numbers(LAYERS, CONTEXT, D_MODEL):,} numbers (keys and values).\n"
                       f"At 4 bytes each that is {num(MIB, 0)} MiB; a batch of 8 sequences written together needs 8 times that."},
        mistakes=[Mistake(MIB / 2, {"zh": "只算了键，或者只算了值：缓存里两样都要存。",
                                    "en": "That counts the keys or the values alone: the cache keeps both."}),
                  Mistake(MIB * 2**20 / 1e6, {"zh": "那是 MB（10⁶ 字节）。1 MiB 是 \\(2^{20}\\) 字节。",
                                              "en": "That is in MB (10⁶ bytes). A MiB is \\(2^{20}\\) bytes."})],
    ),
]
