from attnkit.position import order_heads

lang, verb = "zh", "追着"                                      # [zh]
pair = (["小猫", "追着", "小狗", "跑"], ["小狗", "追着", "小猫", "跑"])  # [zh]
lang, verb = "en", "chased"                                    # [en]
pair = (["the", "cat", "chased", "the", "dog"], ["the", "dog", "chased", "the", "cat"])  # [en]
for tokens in pair:
    r = order_heads(tokens, lang)                         # (2, n, n)
    blind = order_heads(tokens, lang, use_position=False)
    row = blind.weights[0, tokens.index(verb)].round(2)
    print(" ".join(tokens), "| 头 A：", r.top(0, verb), "| 头 B：", r.top(1, verb),   # [zh]
          "| 不加位置时头 A 的这一行：", row)                                         # [zh]
    print(" ".join(tokens), "| head A:", r.top(0, verb), "| head B:", r.top(1, verb),  # [en]
          "| without positions, head A's row:", row)                                  # [en]
