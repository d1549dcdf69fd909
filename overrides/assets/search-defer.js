// Material's search fetches search/search_index.json on every first page view, although most
// readers never search. This script (loaded before Material's bundle, overrides/main.html) holds
// that one request back until the reader shows they want search: opens it, focuses it, presses
// a search shortcut, or arrives with ?q=. Pages never wait for it: the index loads in a worker.
(() => {
  const INDEX = /\/search\/search_index\.json$/;
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  const held = [];
  let wanted = new URLSearchParams(location.search).has("q");
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.searchIndex = INDEX.test(new URL(String(url), location.href).pathname);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (this.searchIndex && !wanted) { held.push(() => send.apply(this, args)); return undefined; }
    return send.apply(this, args);
  };
  function release() {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach((go) => go());
  }
  const inSearch = (event) => event.target instanceof Element && event.target.closest(".md-search, [for='__search']");
  document.addEventListener("pointerdown", (event) => inSearch(event) && release(), true);
  document.addEventListener("pointerover", (event) => inSearch(event) && release(), true);
  document.addEventListener("focusin", (event) => inSearch(event) && release(), true);
  document.addEventListener("change", (event) => event.target.id === "__search" && release(), true);
  document.addEventListener("keydown", (event) => ["/", "s", "S", "f", "F"].includes(event.key) && release(), true);
})();
