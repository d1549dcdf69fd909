from attnkit import scaled_dot_product_attention, toy

# Every vector is (cats, dinosaurs, stars).
keys = toy.LIBRARY["keys"]       # (3 books, 3) the labels on the spines
values = toy.LIBRARY["values"]   # (3 books, 3) what is inside (made-up contents)
query = toy.LIBRARY["query"]     # (1, 3) "mostly cats, a little dinosaurs"
print("books :", toy.LIBRARY["books"])
print("keys  :", keys.tolist())
print("values:", values.tolist())
print("query :", query.tolist())

answer, weights = scaled_dot_product_attention(query, keys, values)   # (1, 3), (1, 3)
print("weights:", weights.round(3), " sum =", weights.sum().round(3))
print("answer :", answer.round(2), "(a mix of all three books, mostly the first)")
