from attnkit.basics import fit_line
from attnkit.text import row

kg = [1.0, 2.0, 3.0]                           # (3,) 输入 x [zh]
kg = [1.0, 2.0, 3.0]                           # (3,) inputs x [en]
paid = [4.1, 7.9, 12.2]                        # (3,) 答案 y [zh]
paid = [4.1, 7.9, 12.2]                        # (3,) answers y [en]

# 从 w = 0 出发，每步沿斜率的反方向走一小步（学习率 0.05） [zh]
# start at w = 0; each step goes a little against the slope (learning rate 0.05) [en]
fit = fit_line(kg, paid, w0=0.0, lr=0.05, steps=30)    # w、损失：各 (31,) [zh]
fit = fit_line(kg, paid, w0=0.0, lr=0.05, steps=30)    # w, loss: (31,) each [en]
header = ["第几步", "w", "损失"]  # [zh]
header = ["step", "w", "loss"]   # [en]
cols = [6, 9, 10]
print(row(header, cols))
for step in [0, 1, 2, 3, 5, 10, 20, 30]:
    print(row([step, f"{fit.w[step]:.3f}", f"{fit.loss[step]:.4f}"], cols))
