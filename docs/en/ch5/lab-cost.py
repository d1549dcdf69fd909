# %% [markdown]
# # Lab notebook: timing the RNN and attention
#
# These numbers were measured on the machine that built this site, at the moment it was built, and they change from run to run.
# <p class="screen-only"><a href="lab-cost.ipynb" download>Download <code>lab-cost.ipynb</code></a> and run it on your own computer: the numbers will differ, the trends should not.</p>
#
# The background is in [section 5.1](../parallel/) and [section 5.3](../matrix/).
#
# Each time is the fastest of 7 runs of the same computation: other programs on the machine can only make a run slower, never faster, so the fastest run is the closest to what the computation itself costs.
# The 7 runs take turns (every length once, then another round), so a busy moment is shared among the lengths instead of landing on one of them.

# %%
import numpy as np
from attnkit.cost import score_macs, time_rnn_and_attention, time_scores
from attnkit.text import row

ns = [16, 64, 256, 1024]
rnn_s, att_s = time_rnn_and_attention(ns, d=32)
cols = [6, 16, 18]
print(row(['n', 'RNN (ms)', 'attention (ms)'], cols))
for n, r, a in zip(ns, rnn_s, att_s):
    print(row([n, f"{1e3 * r:.3f}", f"{1e3 * a:.3f}"], cols))

# %% [markdown]
# ## The n×n weights: time and memory
#
# Memory is the size of the array really allocated, and the multiply-adds are counted (one n×n×64 pass for the scores, one for mixing by the shares): double n and both grow exactly fourfold.
# Time need not: for small n the fixed cost of every call weighs more, for large n the speed of the caches and the memory joins in.
# So rather than claim in advance that time "follows n²", the table prints how many times longer each doubling took (the "×" column), to set beside the fourfold growth of the work.
# A ratio far from 4 most likely means the machine was busy with something else at that moment (this site builds the Chinese and English notebooks at the same time), or that the maths library switched to another method; run it a few times on your own computer and see which ratios hold.

# %%
ns2 = [256, 512, 1024, 2048]
seconds, nbytes = time_scores(ns2)
macs = np.array([score_macs(n) for n in ns2])
cols2 = [6, 14, 8, 14, 8]
print(row(['n', 'time (ms)', '×', 'memory (MiB)', '×'], cols2))
for i, (n, sec, b) in enumerate(zip(ns2, seconds, nbytes)):
    times = "" if i == 0 else f"{sec / seconds[i - 1]:.2g}"
    grows = "" if i == 0 else f"{b / nbytes[i - 1]:.1f}"
    print(row([n, f"{1e3 * sec:.2f}", times, f"{b / 2**20:.2f}", grows], cols2))
steps = ", ".join(f"{r:.2g}" for r in seconds[1:] / seconds[:-1])
print(f"Each doubling of n: multiply-adds × {macs[1] / macs[0]:.0f}, memory × {nbytes[1] / nbytes[0]:.0f}, time on this machine × {steps} in turn.")

# %% alt=["Left: the time to read one sentence, RNN and attention, against sentence length n on log-log axes. Right: the time to compute the n×n weights against n."]
import io

import matplotlib.pyplot as plt
from IPython.display import SVG, display
from attnkit.figures._style import ACCENT, BLUE, STYLE

with plt.rc_context(STYLE):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax1.loglog(ns, 1e3 * rnn_s, "o-", color=ACCENT, label="RNN")
    ax1.loglog(ns, 1e3 * att_s, "o-", color=BLUE, label="attention")
    ax1.set_xlabel("sentence length n")
    ax1.set_ylabel("milliseconds")
    ax1.legend(frameon=False)
    ax1.set_title("reading one sentence", loc="left")
    ax2.loglog(ns2, 1e3 * seconds, "o-", color=BLUE)
    ax2.set_xticks(ns2, [str(n) for n in ns2])   # one label per measured n (no crowded minor labels)
    ax2.set_xticks([], minor=True)
    ax2.set_xlabel("sentence length n")
    ax2.set_ylabel("milliseconds")
    ax2.set_title("computing the n×n weights", loc="left")
    fig.tight_layout()
    svg = io.BytesIO()
    fig.savefig(svg, format="svg")   # SVG with the book's style, like its figures
    plt.close(fig)
display(SVG(svg.getvalue()))
