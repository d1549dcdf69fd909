from attnkit.rnn import pairwise_connections, path_length, sequential_steps

print("     n   RNN 步数   注意力步数        第1个->最后一个的跳数（RNN，注意力）   分数")  # [zh]
print("     n   RNN steps  attention steps   hops 1st->last (RNN, attention)   scores")  # [en]
for n in (10, 100, 1_000, 10_000):
    print(f"{n:6d}  {sequential_steps(n, 'rnn'):9d}  {sequential_steps(n, 'attention'):15d}"
          f"   {path_length(0, n - 1, 'rnn'):14d}, {path_length(0, n - 1, 'attention'):d}"
          f"  {pairwise_connections(n, 'attention'):18,d}")
