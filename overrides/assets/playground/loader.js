// Starts the playground on pages that have one, after every (instant) page load.
// The site root is found from this script's own URL, so the site also works from a sub-path.
(function () {
  const root = new URL("../../", document.currentScript.src).href;
  let app = null;
  document$.subscribe(function () {
    // Not on the print page (the PDF): there the page's own text stays, which says to open the
    // online book, instead of a live editor's buttons, key help and "Python is not loaded yet".
    const el = document.querySelector("[data-playground]:not(#print-site-page [data-playground])");
    if (!el) return;
    app = app || import(new URL("assets/playground/app.js", root).href);
    app.then(function (m) { return m.mount(el, root); }).catch(function (error) {
      el.textContent = String(error);
      console.error(error);
    });
  });
})();
