import numpy as np

# "Weighted" = each part gets an importance share; the shares add up to 1.
scores = np.array([90.0, 70.0, 100.0])     # (3,) exam, homework, attendance
weights = np.array([0.6, 0.3, 0.1])        # (3,) how much each part counts

print("weights sum to", weights.sum().round(6))
print("plain average   =", scores.mean().round(2))
print("weighted average =", (weights * scores).sum().round(2), "= 0.6*90 + 0.3*70 + 0.1*100")
