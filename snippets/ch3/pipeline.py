from attnkit import toy
from attnkit.text import pad

r, pronoun = toy.run("cat-ball-hungry"), "它"           # [zh]
r, pronoun = toy.run("animal-street-tired"), "it"      # [en]
i = r.index(pronoun)
print("词元：", r.tokens)  # [zh]
print("tokens:", r.tokens)  # [en]

for number, step in enumerate(r.steps, start=1):
    print(f"\n--- 第 {number} 轮（槽位 {toy.SLOT_NAMES['zh'][number]}）---")  # [zh]
    print(f"\n--- round {number} (slots {toy.SLOT_NAMES['en'][number]}) ---")  # [en]
    print(pad(f"q[{pronoun}]", 12), "=", step.q[i].round(2))  # (d_k,) = x[i] @ W_Q
    print("k，每个词元一列：")  # [zh]
    print("k, one column per token:")  # [en]
    print(step.k.T.round(2))                                    # (d_k, n)
    print("1 点积       =", step.scores[i].round(2))           # (n,)  q[i] @ k.T [zh]
    print("2 除以根号 2 =", step.scaled[i].round(2))           # (n,) [zh]
    print("3 softmax    =", step.weights[i].round(2), " 总和 =", step.weights[i].sum().round(3))  # [zh]
    print("4 加权求和   =", step.out[i].round(2))              # (d_model,) weights @ v [zh]
    print("x + 输出     =", step.x_next[i].round(2))           # (d_model,) [zh]
    print("1 scores     =", step.scores[i].round(2))           # (n,)  q[i] @ k.T [en]
    print("2 / sqrt(2)  =", step.scaled[i].round(2))           # (n,) [en]
    print("3 softmax    =", step.weights[i].round(2), " sum =", step.weights[i].sum().round(3))  # [en]
    print("4 out[it]    =", step.out[i].round(2))              # (d_model,) weights @ v [en]
    print("x[it] + out  =", step.x_next[i].round(2))           # (d_model,) [en]

print("\n特征：", toy.FEATURE_NAMES["zh"])  # [zh]
print("\nfeatures:", toy.FEATURE_NAMES["en"])  # [en]
top = r.top(pronoun)
print(f"{pronoun}看得最多的是：{top}（{r.share(pronoun, [top]):.1%}）")  # [zh]
print(f"{pronoun} -> {top} ({r.share(pronoun, [top]):.1%})")  # [en]
