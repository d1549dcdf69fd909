from attnkit import toy

r = toy.attend("The animal didn't cross the street because it was too tired.", "en")
i = r.index("it")
print("tokens:", r.tokens)

for number, step in enumerate(r.steps, start=1):
    print(f"\n--- step {number} (slots {toy.STEP_SLOTS[number]}) ---")
    print("q[it]        =", step.q[i].round(2))                # (d_k,) = x[it] @ W_Q
    print("k, one column per token:")
    print(step.k.T.round(2))                                    # (d_k, n)
    print("1 scores     =", step.scores[i].round(2))           # (n,)  q[it] @ k.T
    print("2 / sqrt(2)  =", step.scaled[i].round(2))           # (n,)
    print("3 softmax    =", step.weights[i].round(2), " sum =", step.weights[i].sum().round(3))
    print("4 out[it]    =", step.out[i].round(2))              # (d_model,) weights @ v
    print("x[it] + out  =", step.x_next[i].round(2))

print("\nfeatures:", toy.FEATURES)
print(f"it -> {r.top('it')} ({r.share('it', ['animal']):.1%})")
