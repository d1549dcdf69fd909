import numpy as np

from attnkit.induction import induction_pattern, prefix_matching_score, previous_token_pattern, previous_token_score

t = [0, 1, 2, 3, 0, 1, 2]                               # 一段重复：0 1 2 3，然后 0 1 2 [zh]
t = [0, 1, 2, 3, 0, 1, 2]                               # a repeat: 0 1 2 3, then 0 1 2 [en]
n = len(t)
even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]       # 每行平均分 [zh]
even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]       # every row spread evenly [en]
heads = np.stack([previous_token_pattern(n), induction_pattern(t), even])   # (3, n, n)
rows = [[0, 0, 0, 0, 1, 1, 1]]                           # 重复部分的行 [zh]
rows = [[0, 0, 0, 0, 1, 1, 1]]                           # the rows of the repeated part [en]
print("前一个词元分数：", previous_token_score(heads).round(2))                    # [zh]
print("前缀匹配分数：  ", prefix_matching_score(heads[None], [t], rows).round(2))    # [zh]
print("previous-token score:", previous_token_score(heads).round(2))                 # [en]
print("prefix-matching score:", prefix_matching_score(heads[None], [t], rows).round(2))   # [en]
