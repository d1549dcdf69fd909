"""10.1 The KV cache's bytes per token, from the numbers of a model's config.json."""
from attnkit.exercise import Case, Exercise
from attnkit.kv_bytes import DTYPE_BYTES, MODELS, ModelConfig, kv_bytes_per_token

STARTER = '''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    # 一个词元在 KV 缓存里占多少字节（每一层都留着它时） [zh]
    # how many bytes one token takes in the KV cache (while every layer keeps it) [en]
    # n_heads 个查询头共用 n_kv_heads 个键/值头，每个头宽 head_dim 个数 [zh]
    # n_heads query heads share n_kv_heads key/value heads, each head_dim numbers wide [en]
    ...
'''

SOLUTION = '''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    # 每一层：每个键/值头一个键、一个值 [zh]
    # in each layer: a key and a value for each key/value head [en]
    per_layer = 2 * n_kv_heads * head_dim
    return per_layer * n_layers * bytes_per_number
'''


def case_for(name, dtype):
    """The config numbers of ``name`` as arguments, and attnkit's bytes per token."""
    m = MODELS[name]
    return (m.n_layers, m.n_heads, m.n_kv_heads, m.head_dim, DTYPE_BYTES[dtype]), kv_bytes_per_token(name, dtype)


args_mha, expected_mha = case_for("llama-2-7b", "bf16")      # n_kv_heads = n_heads: MHA
args_gqa, expected_gqa = case_for("llama-3-8b", "bf16")      # 32 query heads, 8 key/value heads
args_fp8, expected_fp8 = case_for("llama-3-70b", "fp8")      # one byte a number
args_64, expected_64 = case_for("gpt-oss-120b", "bf16")      # heads 64 numbers wide, not 128


def held_out(rng):
    """Configurations the page does not list: random sizes, computed by attnkit as for a real model."""
    cases = []
    for dtype, groups in (("fp32", [1, 2, 4]), ("bf16", [2, 4, 8])):     # the second one is GQA or MQA
        n_kv_heads = int(rng.choice([1, 2, 4, 8]))
        n_heads = n_kv_heads * int(rng.choice(groups))
        head_dim = int(rng.choice([32, 48, 80, 96, 256]))
        m = ModelConfig("drawn", n_layers=int(rng.integers(4, 97)), n_heads=n_heads, n_kv_heads=n_kv_heads,
                        head_dim=head_dim, d_model=n_heads * head_dim, source="drawn by the exercise's checker")
        cases.append(Case(args=(m.n_layers, m.n_heads, m.n_kv_heads, m.head_dim, DTYPE_BYTES[dtype]),
                          expected=kv_bytes_per_token(m, dtype),
                          about={"zh": f"随机的配置：{m.n_layers} 层，{n_heads} 个查询头，{n_kv_heads} 个键/值头，"
                                       f"head_dim = {head_dim}，{dtype}",
                                 "en": f"a random configuration: {m.n_layers} layers, {n_heads} query heads, "
                                       f"{n_kv_heads} key/value heads, head_dim = {head_dim}, {dtype}"},
                          hint={"zh": "2 × n_kv_heads × head_dim × n_layers × bytes_per_number。",
                                "en": "2 × n_kv_heads × head_dim × n_layers × bytes_per_number."}))
    return cases

EXERCISE = Exercise(
    id="ch10-kv-bytes",
    title={"zh": "每个词元的 KV 缓存字节数", "en": "KV-cache bytes per token"},
    function="kv_bytes_per_token",
    starter=STARTER,
    solution=SOLUTION,
    cases=[
        Case(args=args_mha, expected=expected_mha,
             about={"zh": "Llama 2 7B：32 层，32 个头都有自己的键和值，bf16", "en": "Llama 2 7B: 32 layers, all 32 heads with their own keys and values, bf16"},
             hint={"zh": "每个词元在每一层存的是一个键和一个值，两样东西，所以是 2 × n_kv_heads × head_dim 个数。",
                   "en": "Each token stores a key and a value in every layer, two things: 2 × n_kv_heads × head_dim numbers."}),
        Case(args=args_gqa, expected=expected_gqa,
             about={"zh": "Llama 3 8B：32 个查询头共用 8 个键/值头", "en": "Llama 3 8B: 32 query heads share 8 key/value heads"},
             hint={"zh": "缓存里存的是键/值头，不是查询头：用 n_kv_heads，不是 n_heads。",
                   "en": "The cache holds the key/value heads, not the query heads: use n_kv_heads, not n_heads."}),
        Case(args=args_fp8, expected=expected_fp8,
             about={"zh": "Llama 3 70B，缓存用 fp8（每个数 1 字节）", "en": "Llama 3 70B with an fp8 cache (1 byte a number)"},
             hint={"zh": "每个数的字节数是参数 bytes_per_number，别固定写成 2。",
                   "en": "The bytes of one number are the argument bytes_per_number: do not fix them at 2."}),
        Case(args=args_64, expected=expected_64,
             about={"zh": "gpt-oss-120b：36 层，8 个键/值头，每个头宽 64", "en": "gpt-oss-120b: 36 layers, 8 key/value heads, each 64 wide"},
             hint={"zh": "每个头的宽度是参数 head_dim，不一定是 128。",
                   "en": "A head's width is the argument head_dim, which is not always 128."}),
    ],
    held_out=held_out,
    forbidden=("attnkit.kv_bytes.kv_bytes_per_token", "attnkit.kv_bytes.kv_numbers_per_token_per_layer",
               "attnkit.kv_bytes.kv_cache_bytes"),
    wrong={
        "keys-only": ('''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    return n_kv_heads * head_dim * n_layers * bytes_per_number
''', 0, {"zh": "你只算了键（或只算了值）。每个词元在每一层存一个键和一个值，两样东西：2 × n_kv_heads × head_dim 个数。",
        "en": "You counted the keys only (or the values only). Each token stores a key and a value in every layer, "
              "two things: 2 × n_kv_heads × head_dim numbers."}),
        "query-heads": ('''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    return 2 * n_heads * head_dim * n_layers * bytes_per_number
''', 1, {"zh": "缓存里存的是键/值头，不是查询头：用 n_kv_heads，不是 n_heads。",
        "en": "The cache holds the key/value heads, not the query heads: use n_kv_heads, not n_heads."}),
        "always-bf16": ('''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    return 2 * n_kv_heads * head_dim * n_layers * 2
''', 2),
        "head-dim-128": ('''\
def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    return 2 * n_kv_heads * 128 * n_layers * bytes_per_number
''', 3, {"zh": "你把每个头的宽度写死成了 128。用参数 head_dim：gpt-oss-120b 的头只有 64 宽。",
        "en": "You fixed each head's width at 128. Use the argument head_dim: gpt-oss-120b's heads are only 64 wide."}),
        "calls-attnkit": ('''\
from attnkit.kv_bytes import ModelConfig, kv_numbers_per_token_per_layer

def kv_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_number):
    m = ModelConfig("mine", n_layers, n_heads, n_kv_heads, head_dim, n_heads * head_dim, "")
    return kv_numbers_per_token_per_layer(m) * n_layers * bytes_per_number
''', 0, None, "library"),
    },
)
