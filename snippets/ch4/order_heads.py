from attnkit.position import order_heads

lang, verb = "zh", "追着"                                      # [zh]
pair = (["小猫", "追着", "小狗", "跑"], ["小狗", "追着", "小猫", "跑"])  # [zh]
lang, verb = "en", "chased"                                    # [en]
pair = (["the", "cat", "chased", "the", "dog"], ["the", "dog", "chased", "the", "cat"])  # [en]
for tokens in pair:
    r = order_heads(tokens, lang)                         # (2, n, n)
    blind = order_heads(tokens, lang, use_position=False)
    row = blind.weights[0, tokens.index(verb)].round(2)
    # 数组下标从 0 数：r.top(0, …) 是头 1，r.top(1, …) 是头 2 [zh]
    # array indices count from 0: r.top(0, …) is head 1, r.top(1, …) is head 2 [en]
    print(" ".join(tokens), "| 头 1：", r.top(0, verb), "| 头 2：", r.top(1, verb),   # [zh]
          "| 不加位置时头 1 的这一行：", row)                                         # [zh]
    print(" ".join(tokens), "| head 1:", r.top(0, verb), "| head 2:", r.top(1, verb),  # [en]
          "| without positions, head 1's row:", row)                                  # [en]
