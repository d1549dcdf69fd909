from attnkit.kv_bytes import MODELS
from attnkit.window import sliding_window_mask
from attnkit.window import receptive_field, receptive_field_by_depth

print(sliding_window_mask(8, 3).astype(int))    # (8, 8)：窗口 3，1 = 可以看 [zh]
print(sliding_window_mask(8, 3).astype(int))    # (8, 8): window 3, 1 = may look [en]

reach = receptive_field_by_depth(n_layers=4, window=3)   # (5,) 第 0 到 4 层 [zh]
reach = receptive_field_by_depth(n_layers=4, window=3)   # (5,) layers 0 to 4 [en]
print("窗口 3，每层之后够得着的位置数：", reach.tolist())  # [zh]
print("window 3, reach after each layer:", reach.tolist())  # [en]

mistral = MODELS["mistral-7b"]                  # config.json 里的数 [zh]
mistral = MODELS["mistral-7b"]                  # numbers from its config.json [en]
L, w = mistral.n_layers, mistral.sliding_window
print(f"Mistral 7B：{L} 层，窗口 {w}，一层只看 {w} 个位置，")  # [zh]
print(f"{L} 层叠起来最远够到 {receptive_field(L, w)} 个位置")  # [zh]
print(f"Mistral 7B: {L} layers, window {w}: one layer sees {w} positions,")  # [en]
print(f"{L} layers reach as far as {receptive_field(L, w):,} positions")  # [en]
