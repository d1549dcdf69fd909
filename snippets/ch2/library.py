from attnkit import scaled_dot_product_attention, toy

# 每个向量都是（猫，恐龙，星星）三个数。 [zh]
# Every vector is (cats, dinosaurs, stars). [en]
keys = toy.LIBRARY["keys"]       # (3, 3) 书脊上的标签 [zh]
values = toy.LIBRARY["values"]   # (3, 3) 书里的内容（编的） [zh]
query = toy.LIBRARY["query"]     # (1, 3) “主要想看猫，也有点想看恐龙” [zh]
keys = toy.LIBRARY["keys"]       # (3, 3) the labels on the spines [en]
values = toy.LIBRARY["values"]   # (3, 3) what is inside (made-up contents) [en]
query = toy.LIBRARY["query"]     # (1, 3) "mostly cats, a little dinosaurs" [en]
print("书  ：", toy.LIBRARY["books"]["zh"])  # [zh]
print("键  ：", keys.tolist())               # [zh]
print("值  ：", values.tolist())             # [zh]
print("查询：", query.tolist())              # [zh]
print("books :", toy.LIBRARY["books"]["en"])  # [en]
print("keys  :", keys.tolist())               # [en]
print("values:", values.tolist())             # [en]
print("query :", query.tolist())              # [en]

answer, weights = scaled_dot_product_attention(query, keys, values)   # (1, 3), (1, 3)
print("权重：", weights.round(3), " 总和 =", weights.sum().round(3))          # [zh]
print("答案：", answer.round(2), "（三本书的混合，第一本占大头）")          # [zh]
print("weights:", weights.round(3), " sum =", weights.sum().round(3))  # [en]
print("answer :", answer.round(2), "(a mix of all three books, mostly the first)")  # [en]
