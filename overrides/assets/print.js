// Seeing Attention: printing (Ctrl+P on any page, and tools/pdf.py for the PDF).
// Folded answers (<details>) print open; they fold again after printing.
(() => {
  let opened = [];
  window.addEventListener("beforeprint", () => {
    opened = [...document.querySelectorAll("details:not([open])")];
    opened.forEach((d) => d.setAttribute("open", ""));
  });
  window.addEventListener("afterprint", () => {
    opened.forEach((d) => d.removeAttribute("open"));
    opened = [];
  });
})();
