"""Print how fast attnkit's modern attention runs beside transformers/torch on CPU. Figures, not
assertions.

    python bench/bench_modern.py [--n 1024]

One realistic shape (a small Llama-like layer: d_model 1024, 16 query heads of 64, 4 key/value
heads, n tokens, batch 1), float64 on both sides (attnkit computes in float64; torch runs the
same dtype so the two do the same arithmetic), one warm-up call and one timed call each: a
ratio from one run, with the load average beside it (the machine is shared). Each line:
attnkit's time, the reference's, and attnkit / reference. transformers' attention modules run
with attn_implementation="sdpa" (torch's fused kernel), except gpt-oss (eager: sinks).

Then what chapter 10 costs one build, measured in a fresh interpreter (nothing imported or cached
before): importing attnkit with its figures, drawing every ``ch10-*`` figure in both languages
(as a cold build does; a warm build takes them from .cache/figures/), computing each ch10 widget's
data in both languages, and running each listing of snippets/ch10/ once per language.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")            # one core for NumPy, as for torch below

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchlib import load  # noqa: E402

from attnkit.core import causal_mask  # noqa: E402
from attnkit.grouped import grouped_query_attention  # noqa: E402
from attnkit.mla import MLAWeights, mla_attention, mla_attention_absorbed  # noqa: E402
from attnkit.rope import apply_rope, rope_cos_sin  # noqa: E402
from attnkit.tiled import tiled_attention  # noqa: E402
from attnkit.window import sliding_window_mask  # noqa: E402

D_MODEL, N_HEADS, N_KV_HEADS, HEAD_DIM, WINDOW = 1024, 16, 4, 64, 256


def once(fn) -> float:
    fn()                                        # warm-up: first-call costs are not the function's
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def line(name, ours, ref, ref_name):
    print(f"{name:34s} attnkit {ours * 1e3:8.1f} ms   {ref_name:26s} {ref * 1e3:8.1f} ms   "
          f"ratio {ours / ref:5.2f}   [{load()}]", flush=True)


def weights(attn):
    return [attn.__getattr__(p).weight.detach().numpy().T.copy()
            for p in ("q_proj", "k_proj", "v_proj", "o_proj")]


BUILD_COST = r"""
import time
start = time.perf_counter()
from attnkit.figures import FIGURES, render_svg
import bookbuild.widgets as widgets
from bookbuild.listings import for_language
from pathlib import Path
t_import = time.perf_counter() - start

def timed(fn):
    t = time.perf_counter(); fn(); return time.perf_counter() - t

figures = {i: sum(timed(lambda: render_svg(i, lang)) for lang in ("zh", "en")) for i in sorted(FIGURES) if i.startswith("ch10-")}
data = {name: sum(timed(lambda: fn(lang)) for lang in ("zh", "en")) for name, fn in widgets.BUILDERS.items()
        if name in ("kv-calculator", "rope")}
listings = {}
for path in sorted(Path("snippets/ch10").glob("*.py")):
    source = path.read_text(encoding="utf-8")
    listings[path.name] = sum(timed(lambda: exec(compile(for_language(source, lang), str(path), "exec"),
                                                 {"__name__": "__main__", "print": lambda *a, **k: None}))
                              for lang in ("zh", "en"))
print(f"  import attnkit, its figures and the build's widget module: {t_import * 1e3:8.0f} ms")
for kind, table in (("figure", figures), ("widget data", data), ("listing", listings)):
    for name, t in table.items():
        print(f"  {kind:12s} {name:34s} {t * 1e3:8.0f} ms  (zh + en)")
total = t_import + sum(figures.values()) + sum(data.values()) + sum(listings.values())
print(f"  total{'':43s} {total * 1e3:8.0f} ms  (of it figures {sum(figures.values()) * 1e3:.0f} ms)")
"""


def build_cost() -> None:
    """Chapter 10's share of a cold build, in a fresh interpreter (see the module's docstring)."""
    import subprocess
    print(f"chapter 10, build-time cost (fresh interpreter, one thread) [{load()}]", flush=True)
    subprocess.run([sys.executable, "-c", BUILD_COST], cwd=ROOT, check=True)
    print(f"  [{load()}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1024, help="tokens (default 1024)")
    parser.add_argument("--no-build-cost", action="store_true", help="only the speed ratios")
    args = parser.parse_args()
    n = args.n
    if not args.no_build_cost:
        build_cost()
    try:
        import torch
        import transformers
        from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask
    except ImportError as e:
        sys.exit(f"needs torch and transformers (pip install -e '.[test]'): {e}")
    torch.set_num_threads(1)                    # one core each side (NumPy's BLAS: set above)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(1, n, D_MODEL))
    xt = torch.from_numpy(x)
    cos, sin = rope_cos_sin(n, HEAD_DIM)
    pe = (torch.from_numpy(cos)[None], torch.from_numpy(sin)[None])
    positions = torch.arange(n)[None]
    print(f"n = {n} tokens, d_model {D_MODEL}, {N_HEADS} heads of {HEAD_DIM}, {N_KV_HEADS} key/value "
          f"heads, window {WINDOW}, float64, one thread each")

    from transformers.models.llama.modeling_llama import LlamaAttention, apply_rotary_pos_emb
    q = rng.normal(size=(1, N_HEADS, n, HEAD_DIM))
    k = rng.normal(size=(1, N_KV_HEADS, n, HEAD_DIM))
    qt, kt = torch.from_numpy(q), torch.from_numpy(k)
    line("RoPE on q and k", once(lambda: (apply_rope(q, cos, sin), apply_rope(k, cos, sin))),
         once(lambda: apply_rotary_pos_emb(qt, kt, *pe)), "apply_rotary_pos_emb")

    common = dict(vocab_size=16, bos_token_id=1, eos_token_id=2, pad_token_id=0, hidden_size=D_MODEL,
                  num_attention_heads=N_HEADS, num_key_value_heads=N_KV_HEADS, head_dim=HEAD_DIM,
                  num_hidden_layers=1, intermediate_size=8)
    config = transformers.LlamaConfig(**common, attn_implementation="sdpa")
    attn = LlamaAttention(config, 0).double().eval()
    mask = create_causal_mask(config=config, inputs_embeds=xt, attention_mask=None, cache=None,
                              position_ids=positions)
    ws = weights(attn)
    with torch.no_grad():
        line("GQA + RoPE, causal", once(lambda: grouped_query_attention(
            x, *ws, N_HEADS, N_KV_HEADS, causal_mask(n), rope=(cos, sin))),
            once(lambda: attn(xt, position_embeddings=pe, attention_mask=mask)), "LlamaAttention (sdpa)")

    from transformers.models.mistral.modeling_mistral import MistralAttention
    config = transformers.MistralConfig(**common, sliding_window=WINDOW, attn_implementation="sdpa")
    attn = MistralAttention(config, 0).double().eval()
    mask = create_sliding_window_causal_mask(config=config, inputs_embeds=xt, attention_mask=None,
                                             cache=None, position_ids=positions)
    ws = weights(attn)
    with torch.no_grad():
        line("GQA + RoPE, sliding window", once(lambda: grouped_query_attention(
            x, *ws, N_HEADS, N_KV_HEADS, sliding_window_mask(n, WINDOW), rope=(cos, sin))),
            once(lambda: attn(xt, position_embeddings=pe, attention_mask=mask)), "MistralAttention (sdpa)")

    qh, kh, vh = rng.normal(size=(3, N_HEADS, n, HEAD_DIM))
    qht, kht, vht = (torch.from_numpy(a) for a in (qh, kh, vh))
    window_mask = torch.from_numpy(sliding_window_mask(n, WINDOW))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    line("tiled attention, window (64 keys)", once(lambda: tiled_attention(qh, kh, vh, 64, window=WINDOW)),
         once(lambda: sdpa(qht, kht, vht, attn_mask=window_mask)), "torch sdpa with the mask")

    from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention
    config = transformers.GptOssConfig(**common, sliding_window=WINDOW, num_local_experts=2,
                                       layer_types=["full_attention"], attn_implementation="eager")
    attn = GptOssAttention(config, 0).double().eval()
    with torch.no_grad():
        for p in attn.parameters():
            p.copy_(torch.from_numpy(rng.normal(scale=0.03, size=tuple(p.shape))))
    mask = create_causal_mask(config=config, inputs_embeds=xt, attention_mask=None, cache=None,
                              position_ids=positions)
    ws = weights(attn)
    biases = {f"b_{p[0]}": getattr(attn, p).bias.detach().numpy() for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    sinks = attn.sinks.detach().numpy()
    pe_half = (pe[0][..., : HEAD_DIM // 2], pe[1][..., : HEAD_DIM // 2])
    with torch.no_grad():
        line("GQA + sinks (gpt-oss)", once(lambda: grouped_query_attention(
            x, *ws, N_HEADS, N_KV_HEADS, causal_mask(n), rope=(cos, sin), sink=sinks, **biases)),
            once(lambda: attn(xt, position_embeddings=pe_half, attention_mask=mask)), "GptOssAttention (eager)")

    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention
    d_c, d_nope, d_rope, d_v, d_cq = 256, 64, 32, 64, 384
    config = transformers.DeepseekV3Config(**{**common, "num_key_value_heads": N_HEADS}, kv_lora_rank=d_c,
                                           q_lora_rank=d_cq, qk_nope_head_dim=d_nope,
                                           qk_rope_head_dim=d_rope, v_head_dim=d_v, rope_interleave=False,
                                           n_routed_experts=2, num_experts_per_tok=1, n_group=1,
                                           topk_group=1, attn_implementation="sdpa")
    attn = DeepseekV3Attention(config, 0).double().eval()
    with torch.no_grad():
        for p in attn.parameters():
            p.copy_(torch.from_numpy(rng.normal(scale=0.03, size=tuple(p.shape))))
    mask = create_causal_mask(config=config, inputs_embeds=xt, attention_mask=None, cache=None,
                              position_ids=positions)
    T = lambda lin: lin.weight.detach().numpy().T.copy()   # noqa: E731
    q_b = T(attn.q_b_proj).reshape(d_cq, N_HEADS, d_nope + d_rope)
    kv_a, kv_b = T(attn.kv_a_proj_with_mqa), T(attn.kv_b_proj).reshape(d_c, N_HEADS, d_nope + d_v)
    w = MLAWeights(N_HEADS, w_uq=q_b[..., :d_nope].reshape(d_cq, -1), w_qr=q_b[..., d_nope:].reshape(d_cq, -1),
                   w_dkv=kv_a[:, :d_c], kv_norm=attn.kv_a_layernorm.weight.detach().numpy(), w_kr=kv_a[:, d_c:],
                   w_uk=kv_b[..., :d_nope].reshape(d_c, -1), w_uv=kv_b[..., d_nope:].reshape(d_c, -1),
                   w_o=T(attn.o_proj), w_dq=T(attn.q_a_proj), q_norm=attn.q_a_layernorm.weight.detach().numpy())
    mla_rope = rope_cos_sin(n, d_rope)
    pe_mla = tuple(torch.from_numpy(a)[None] for a in mla_rope)
    with torch.no_grad():
        ref = once(lambda: attn(xt, position_embeddings=pe_mla, attention_mask=mask))
    line("MLA, plain", once(lambda: mla_attention(x, w, causal_mask(n), rope=mla_rope)), ref,
         "DeepseekV3Attention (sdpa)")
    line("MLA, absorbed", once(lambda: mla_attention_absorbed(x, w, causal_mask(n), rope=mla_rope)), ref,
         "DeepseekV3Attention (sdpa)")


if __name__ == "__main__":
    main()
