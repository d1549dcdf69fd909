// Starts the playground on pages that have one, after every (instant) page load.
// The site root is found from this script's own URL, so the site also works from a sub-path.
(function () {
  const root = new URL("../../", document.currentScript.src).href;
  let app = null;
  document$.subscribe(function () {
    const el = document.querySelector("[data-playground]");
    if (!el) return;
    app = app || import(new URL("assets/playground/app.js", root).href);
    app.then(function (m) { return m.mount(el, root); }).catch(function (error) {
      el.textContent = String(error);
      console.error(error);
    });
  });
})();
