from attnkit import induction
from attnkit.text import pad, row

s = induction.seed_runs()              # 同一个模型，从三个随机种子各训练一次（构建时算一次） [zh]
s = induction.seed_runs()              # the same model trained from three seeds (computed once per build) [en]
cols = [8, 12, 10, 10, 14, 14]
print(row(["种子", "成形的步数", "损失", "准确率", "第1层前一个", "第2层前缀"], cols))   # [zh]
print(row(["seed", "formed at", "loss", "accuracy", "L1 previous", "L2 prefix"], cols))   # [en]
for run in s["runs"]:
    formed = "—" if run["formed"] is None else str(run["formed"])
    print(row([str(run["seed"]), formed, f"{run['loss'][-1]:.3f}", f"{run['accuracy'][-1]:.1%}",
               f"{run['previous'][0].max():.2f}", f"{run['prefix'][-1].max():.2f}"], cols))
