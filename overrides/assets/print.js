// Seeing Attention: printing (Ctrl+P on any page, and tools/pdf.py for the PDF).
// Folded answers (<details>) print open; they fold again after printing.
// Print-only figures are lazy (never fetched on screen, bookbuild/print_only.py): load them now.
(() => {
  let opened = [];
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll('.print-only img[loading="lazy"]').forEach((img) => { img.loading = "eager"; });
    opened = [...document.querySelectorAll("details:not([open])")];
    opened.forEach((d) => d.setAttribute("open", ""));
  });
  window.addEventListener("afterprint", () => {
    opened.forEach((d) => d.removeAttribute("open"));
    opened = [];
  });
})();
