// Material's search starts its worker (assets/javascripts/workers/search.*.js) and fetches
// search/search_index.json on every first page view, although most readers never search. This
// script (loaded before Material's bundle, overrides/main.html) holds both back until the reader
// shows they want search: opens it, focuses it, presses a search shortcut, or arrives with ?q=.
// Until then Material talks to a stand-in that queues its messages; the real worker starts on
// release and gets them in order. Pages never wait for it: the index loads in the worker.
(() => {
  const INDEX = /\/search\/search_index\.json$/;
  const WORKER = /\/assets\/javascripts\/workers\/search\.[0-9a-f]+\.min\.js$/;
  const RealWorker = window.Worker;
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
  class HeldWorker extends EventTarget {
    constructor(url, options) {
      super();
      this.queue = [];
      this.start = () => {
        const worker = new RealWorker(url, options);
        worker.addEventListener("message", (event) => this.dispatchEvent(new MessageEvent("message", { data: event.data })));
        worker.addEventListener("error", (event) => this.dispatchEvent(new ErrorEvent("error", { message: event.message })));
        this.postMessage = (message) => worker.postMessage(message);
        this.terminate = () => worker.terminate();
        this.queue.splice(0).forEach((message) => worker.postMessage(message));
      };
    }
    postMessage(message) { this.queue.push(message); }
    terminate() { this.queue = []; }
  }
  function Worker(url, options) {
    if (!WORKER.test(new URL(String(url), location.href).pathname)) return new RealWorker(url, options);
    const worker = new HeldWorker(url, options);
    if (wanted) worker.start(); else held.push(worker.start);
    return worker;
  }
  Worker.prototype = RealWorker.prototype;
  window.Worker = Worker;
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
