"""Chapter 10's checked questions (10.1 the KV bill, 10.2 sharing keys and values). bookbuild/questions.py"""
from attnkit import kv_bytes as kb
from attnkit import serving as sv
from bookbuild.questions import Choice, Mistake, Question

BIG = kb.MODELS["llama-3-70b"]
PER_TOKEN = kb.kv_bytes_per_token("llama-3-70b")           # bytes, in bf16
CONTEXT = 131072
QWEN = kb.MODELS["qwen3-8b"]
GROUP = QWEN.n_heads // QWEN.n_kv_heads
HEAD = 13                                                   # a query head, counted from 1
KV_HEAD = (HEAD - 1) // GROUP + 1
ODD = 5                                                     # key/value heads that do not divide the query heads
DIVISORS = [d for d in range(QWEN.n_heads, 0, -1) if QWEN.n_heads % d == 0]

QUESTIONS = [
    Question(
        id="ch10-token-bill",
        title={"zh": "Llama 3 70B 一个词元的缓存", "en": "One token’s cache in Llama 3 70B"},
        prompt={"zh": f"Llama 3 70B 有 {BIG.n_layers} 层，每层 {BIG.n_kv_heads} 个键/值头，每个头 {BIG.head_dim} 个数。"
                      "bf16 下（每个数 2 字节），一个词元占多少 KiB 的缓存？",
                "en": f"Llama 3 70B keeps {BIG.n_kv_heads} key/value heads of {BIG.head_dim} numbers in each of its "
                      f"{BIG.n_layers} layers. In bf16 (2 bytes a number), how many KiB of cache does one token take?"},
        number=PER_TOKEN / 1024, decimals=0,
        explain={"zh": f"\\(2 \\cdot {BIG.n_layers} \\cdot {BIG.n_kv_heads} \\cdot {BIG.head_dim} \\cdot 2 = {PER_TOKEN}\\) 字节，"
                       f"也就是 {sv.binary_size(PER_TOKEN)}：键和值各一份，每层每个键/值头，每个数 2 字节。\n"
                       f"乘上 {CONTEXT} 个词元，一段 128K 的对话是 {sv.binary_size(kb.kv_cache_bytes('llama-3-70b', CONTEXT))}。",
                 "en": f"\\(2 \\cdot {BIG.n_layers} \\cdot {BIG.n_kv_heads} \\cdot {BIG.head_dim} \\cdot 2 = {PER_TOKEN}\\) bytes, "
                       f"that is {sv.binary_size(PER_TOKEN)}: keys and values, every layer, every key/value head, 2 bytes a number.\n"
                       f"Times {CONTEXT} tokens, a 128K-token conversation takes "
                       f"{sv.binary_size(kb.kv_cache_bytes('llama-3-70b', CONTEXT))}."},
        mistakes=[Mistake(PER_TOKEN / 2 / 1024, {"zh": "少乘了一个 2：键和值各要存一份，bf16 的每个数又是 2 字节，两个 2 都要乘。",
                                                 "en": "One factor of 2 is missing: keys and values are both kept, and each "
                                                       "bf16 number takes 2 bytes; multiply by both."}),
                  Mistake(PER_TOKEN * BIG.n_heads / BIG.n_kv_heads / 1024,
                          {"zh": f"那是按 {BIG.n_heads} 个查询头算的。GQA 里缓存的只有 {BIG.n_kv_heads} 个键/值头。",
                           "en": f"That counts all {BIG.n_heads} query heads. With GQA only the {BIG.n_kv_heads} key/value heads are cached."})],
    ),
    Question(
        id="ch10-which-kv-head",
        title={"zh": f"Qwen3 8B 第 {HEAD} 个查询头读哪个键/值头", "en": f"Which key/value head does Qwen3 8B’s query head {HEAD} read?"},
        prompt={"zh": f"Qwen3 8B 有 {QWEN.n_heads} 个查询头、{QWEN.n_kv_heads} 个键/值头。都从 1 数起，第 {HEAD} 个查询头读哪个键/值头？",
                "en": f"Qwen3 8B has {QWEN.n_heads} query heads and {QWEN.n_kv_heads} key/value heads. Counting both from 1, "
                      f"which key/value head does query head {HEAD} read?"},
        number=KV_HEAD, decimals=0,
        explain={"zh": f"每组 \\({QWEN.n_heads} / {QWEN.n_kv_heads} = {GROUP}\\) 个查询头共用一个键/值头："
                       f"查询头 1–{GROUP} 读键/值头 1，{GROUP + 1}–{2 * GROUP} 读头 2，依此类推。\n"
                       f"用公式，从 0 数：\\(g({HEAD - 1}) = \\lfloor {HEAD - 1} / {GROUP} \\rfloor = {(HEAD - 1) // GROUP}\\)，"
                       f"从 1 数就是第 {KV_HEAD} 个。",
                 "en": f"Groups of \\({QWEN.n_heads} / {QWEN.n_kv_heads} = {GROUP}\\) query heads share one key/value head: "
                       f"query heads 1–{GROUP} read key/value head 1, {GROUP + 1}–{2 * GROUP} head 2, and so on.\n"
                       f"With the formula, counting from 0: \\(g({HEAD - 1}) = \\lfloor {HEAD - 1} / {GROUP} \\rfloor = "
                       f"{(HEAD - 1) // GROUP}\\), head {KV_HEAD} counting from 1."},
        mistakes=[Mistake(KV_HEAD - 1, {"zh": "这是从 0 数的编号。题目要从 1 数。",
                                        "en": "That counts from 0. The question counts from 1."})],
    ),
    Question(
        id="ch10-kv-heads-divide",
        title={"zh": f"{QWEN.n_heads} 个查询头配 {ODD} 个键/值头行不行", "en": f"{QWEN.n_heads} query heads and {ODD} key/value heads?"},
        prompt={"zh": f"一个用 GQA 的模型，能不能有 {QWEN.n_heads} 个查询头、{ODD} 个键/值头？",
                "en": f"Could a model with GQA have {QWEN.n_heads} query heads and {ODD} key/value heads?"},
        choices=[
            Choice(text={"zh": f"能：有的组 {QWEN.n_heads // ODD} 个查询头，有的组 {QWEN.n_heads // ODD + 1} 个。",
                         "en": f"Yes: some groups get {QWEN.n_heads // ODD} query heads, others {QWEN.n_heads // ODD + 1}."},
                   why={"zh": "GQA 的各组一样大：每个查询头按 \\(\\lfloor h / g \\rfloor\\) 找到自己的组，大小不一的组放不进这个公式。",
                        "en": "GQA's groups are all the same size: each query head finds its group as \\(\\lfloor h / g \\rfloor\\), "
                              "which unequal groups do not fit."}),
            Choice(text={"zh": f"不能：{ODD} 不整除 {QWEN.n_heads}，各组就不一样大了。",
                         "en": f"No: {ODD} does not divide {QWEN.n_heads}, so the groups would be unequal."},
                   why={"zh": f"attnkit 会报 `ValueError: n_kv_heads must divide n_heads ...`。\n"
                              f"能选的是 {QWEN.n_heads} 的因数：{'、'.join(map(str, DIVISORS))}，"
                              f"{DIVISORS[0]} 就是 MHA，1 就是 MQA。",
                        "en": "attnkit raises `ValueError: n_kv_heads must divide n_heads ...`.\n"
                              f"The divisors of {QWEN.n_heads} are the choices: {', '.join(map(str, DIVISORS))}; "
                              f"{DIVISORS[0]} is MHA and 1 is MQA."},
                   right=True),
            Choice(text={"zh": "能：多出来的查询头不读任何键/值头。",
                         "en": "Yes: the query heads left over read no key/value head."},
                   why={"zh": "每个查询头都要有键和值可读，否则它算不出任何输出。",
                        "en": "Every query head needs keys and values to read, or it has no output at all."}),
        ],
    ),
]
