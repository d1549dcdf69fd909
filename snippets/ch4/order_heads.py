from attnkit.position import order_heads

for lang, pair, verb in (("zh", (["小猫", "追着", "小狗", "跑"], ["小狗", "追着", "小猫", "跑"]), "追着"),
                         ("en", (["the", "cat", "chased", "the", "dog"], ["the", "dog", "chased", "the", "cat"]), "chased")):
    for tokens in pair:
        r = order_heads(tokens, lang)                         # (2, n, n) weights
        blind = order_heads(tokens, lang, use_position=False)
        row = blind.weights[0, tokens.index(verb)].round(2)
        print(" ".join(tokens), "| head A:", r.top(0, verb), "| head B:", r.top(1, verb),
              "| without positions, head A's row:", row)
