# %% [markdown]
# # Lab notebook: how two heads go their separate ways
#
# This notebook runs the experiment of [section 4.1](../multi-head/), with every step out in the open for you to change.
# It runs again every time the site is built.
# <p class="screen-only"><a href="lab-heads.ipynb" download>Download <code>lab-heads.ipynb</code></a> to open it in your own Jupyter once attnkit is installed.</p>
#
# The task: a sentence of 6 words sits in a ring, and every word must write down its left and its right neighbour.
# The model: two attention heads whose outputs are added, trained by plain gradient descent.

# %%
import numpy as np
from attnkit.heads import PARAMS, STARTS, init_heads, make_task, neighbour_share, train_two_heads, two_heads_loss_and_grads

x, t = make_task()
print("inputs", x.shape, "targets", t.shape)

# %% [markdown]
# ## Same start, same gradients
#
# Give both heads exactly the same weights, compute one gradient, and compare bit for bit.

# %%
heads = init_heads("same", x.shape[-1], 6, t.shape[-1])
loss, grads, _ = two_heads_loss_and_grads(heads, x, t)
for p in PARAMS:
    print(p, "the two heads' gradients are bit-for-bit equal:", np.array_equal(grads[0][p], grads[1][p]))

# %% [markdown]
# ## Three starts, 800 steps each
#
# Change `steps`, `lr` or `seed` and see whether the conclusion survives.

# %%
from attnkit.text import pad, sci

names = {"same": "same", "nudged": "nudged", "random": "random"}
runs = {start: train_two_heads(start, steps=800, lr=5.0, seed=3) for start in STARTS}
for start, run in runs.items():
    print(f"{pad(names[start], 8)}loss {run.loss[0]:.4f} -> {run.loss[-1]:.5f}   gap between heads {sci(run.head_gap[0], 1)} -> {sci(run.head_gap[-1], 1)}")
    print(pad("", 8) + "each head looks at (left, right):", neighbour_share(run.weights).round(2).tolist())

# %% [markdown]
# ## Drawn
#
# These are the two figures of section 4.1, drawn by the same attnkit functions.

# %% alt=["Top: loss curves for the three starts, on a log scale. Bottom: the gap between the two heads' weights during training.", "Four 6×6 heatmaps: two heads trained from the identical start are the same; two trained from random starts look one right and one left."]
from IPython.display import SVG, display
from attnkit.figures import render_svg

display(SVG(render_svg("ch4-heads-diverge", "en")))
display(SVG(render_svg("ch4-heads-after", "en")))

# %% [markdown]
# ## A few more random seeds
#
# Do independently random starts split the work every time?

# %%
for seed in range(4):
    run = train_two_heads("random", seed=seed)
    print(f"seed {seed}: final loss {run.loss[-1]:.5f}, (left, right)", neighbour_share(run.weights).round(2).tolist())
