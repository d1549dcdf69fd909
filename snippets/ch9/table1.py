from attnkit.cost import growth_when_doubled, layer_macs, score_share, table1

d = 512
for n in (100, 512, 4096):
    print(f"n = {n}, d = {d}")
    for kind, (ops, sequential, path) in table1(n, d, k=3, r=64).items():
        print(f"  {kind:15} {ops:>15,}   sequential {sequential:>5}   path {path:>5}")

for n in (512, 4096):                        # one encoder layer, d_model 512, d_ff 2048
    m = layer_macs(n, d_model=512, d_ff=2048)
    print(f"n = {n}: total {m['total']:,} multiply-adds, n² part {score_share(n):.1%}, "
          f"x{growth_when_doubled(n):.2f} when n doubles")
