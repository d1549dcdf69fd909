from attnkit.basics import line_loss, line_loss_slope, nudge_slope
from attnkit.text import row

# 买 1、2、3 公斤苹果，分别付了 4.1、7.9、12.2 元 [zh]
# 1, 2 and 3 kg of apples cost 4.1, 7.9 and 12.2 [en]
kg = [1.0, 2.0, 3.0]                           # (3,) 输入 x [zh]
kg = [1.0, 2.0, 3.0]                           # (3,) inputs x [en]
paid = [4.1, 7.9, 12.2]                        # (3,) 答案 y [zh]
paid = [4.1, 7.9, 12.2]                        # (3,) answers y [en]

# 参数 w 是“每公斤多少钱”；模型猜 w × 公斤数 [zh]
# the parameter w is the price per kg; the model guesses w × kg [en]
header = ["w", "损失", "斜率（公式）", "斜率（轻推）"]      # [zh]
header = ["w", "loss", "slope (formula)", "slope (nudge)"]  # [en]
cols = [5, 8, 17, 15]                          # 每列的显示宽度 [zh]
cols = [5, 8, 17, 15]                          # display width of each column [en]
print(row(header, cols))
for w in [2.0, 3.0, 4.0, 5.0]:
    loss = line_loss(w, kg, paid)              # (w*x - y)^2 的平均 [zh]
    loss = line_loss(w, kg, paid)              # mean((w*x - y)^2) [en]
    slope = line_loss_slope(w, kg, paid)       # d 损失 / d w [zh]
    slope = line_loss_slope(w, kg, paid)       # d loss / d w [en]
    nudged = nudge_slope(lambda v: line_loss(v, kg, paid), w)
    print(row([f"{w:.1f}", f"{loss:.2f}", f"{slope:.2f}", f"{nudged:.2f}"], cols))
