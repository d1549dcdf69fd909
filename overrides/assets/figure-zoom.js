// Seeing Attention: open a figure at full size. bookbuild/a11y.py wraps every figure in
// <a class="attn-zoom" href="…/figures/<id>.svg">; a click, tap or Enter on it opens a dialog
// showing the SVG at its natural size (labels at 9 CSS px or more, see tests/test_figure_text.py)
// in a box that scrolls both ways (keyboard: Tab to it, then the arrow keys). Escape, the close
// button or a click outside the picture closes it, and focus returns to the figure.
// Without JavaScript the link simply opens the SVG file.
(function () {
  const zh = document.documentElement.lang.startsWith("zh");
  const text = zh
    ? { close: "关闭", scroll: "放大的图，可以滚动", dialog: "放大查看" }
    : { close: "Close", scroll: "Enlarged figure, scrollable", dialog: "Enlarged figure" };
  let dialog, frame, picture;

  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "attn-zoom-dialog";
    dialog.setAttribute("aria-label", text.dialog);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "attn-zoom-dialog__close";
    close.textContent = text.close;
    close.addEventListener("click", () => dialog.close());
    frame = document.createElement("div");
    frame.className = "attn-zoom-dialog__frame";
    frame.tabIndex = 0;
    frame.setAttribute("role", "group");
    frame.setAttribute("aria-label", text.scroll);
    picture = document.createElement("img");
    frame.append(picture);
    dialog.append(close, frame);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    document.body.append(dialog);
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.attn-zoom");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    const img = link.querySelector("img");
    if (!img) return;
    event.preventDefault();
    event.stopPropagation();   // capture phase: before Material's instant navigation sees the link
    if (!dialog || !dialog.isConnected) build();
    picture.src = img.currentSrc || img.src;
    picture.alt = img.alt;
    dialog.showModal();
    frame.scrollTo(0, 0);
  }, true);
})();
