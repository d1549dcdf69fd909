import numpy as np

# “加权”：每一部分分到一个重要程度，所有占比加起来是 1。 [zh]
# "Weighted" = each part gets an importance share; the shares add up to 1. [en]
grades = np.array([90.0, 70.0, 100.0])     # (3,) 考试、作业、出勤 [zh]
weights = np.array([0.6, 0.3, 0.1])        # (3,) 每部分占多少 [zh]
grades = np.array([90.0, 70.0, 100.0])     # (3,) exam, homework, attendance [en]
weights = np.array([0.6, 0.3, 0.1])        # (3,) how much each part counts [en]

print("权重之和 =", weights.sum().round(6))  # [zh]
print("普通平均 =", grades.mean().round(2))  # [zh]
print("加权平均 =", (weights * grades).sum().round(2), "= 0.6*90 + 0.3*70 + 0.1*100")  # [zh]
print("weights sum to", weights.sum().round(6))  # [en]
print("plain average   =", grades.mean().round(2))  # [en]
print("weighted average =", (weights * grades).sum().round(2), "= 0.6*90 + 0.3*70 + 0.1*100")  # [en]
