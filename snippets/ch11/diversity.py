from attnkit import induction
from attnkit.text import row

d = induction.diversity()      # 同一个模型，只换训练时两遍之间距离的范围（构建时算一次） [zh]
d = induction.diversity()      # the same model, trained on each range of distances (computed once per build) [en]
cols = [8, 8, 10, 10, 10, 10, 10, 10]
print(row(["距离", "成形", "范围内", "范围外", "第1层", "第2层", "第1层", "均匀"], cols))        # [zh]
print(row(["", "", "准确率", "准确率", "前一个", "前缀", "带内", "带内"], cols))                 # [zh]
print(row(["trained", "formed", "accuracy", "accuracy", "L1", "L2", "L1", "even"], cols))     # [en]
print(row(["on", "at", "inside", "outside", "previous", "prefix", "band", "band"], cols))     # [en]
for r in d:
    lo, hi = r["range"]
    formed = "—" if r["formed"] is None else str(r["formed"])
    inside, outside = r["split"]["inside"][0], r["split"]["outside"][0]
    print(row([f"{lo}–{hi}", formed, f"{inside:.1%}", f"{outside:.1%}", f"{r['previous'][0]:.2f}",
               f"{r['prefix'][-1]:.2f}", f"{r['band_share'][0]:.2f}", f"{r['band_even']:.2f}"], cols))
