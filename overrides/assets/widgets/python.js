// One Python per browser tab: Pyodide + NumPy + the site's attnkit in the playground's Web Worker
// (../playground/worker.js), started on the first run and kept by this module. Every user of Python
// imports this one file (the widgets, the listings' "edit and run", the playground page, the
// training widget), and a module is evaluated once per document: Material's instant navigation
// swaps the page content but keeps the document, so Python loads once per visit, not once per page.
//
//   import * as python from "./python.js";
//   const done = await python.run(code, (message) => ...);   // every message of this run; resolves at "done"
//   python.run(code, onMessage, { lang: "zh" });             // the playground's own messages in Chinese
//   python.run(code, onMessage, { onSent });                 // onSent(): the code has just gone to a ready Python
//   await python.warm();                                     // start loading now (the reader shows interest)
//   python.stop();                                           // ends a runaway run at once
//   python.restart();                                        // the next run gets a Python no code has touched
//
// Messages are the worker's: {type: "stdout"|"stderr", text}, {type: "error", data: {text, name}},
// {type: <what the code emitted>, data}, and last {type: "done", ok, ms}. onProgress(message)
// receives the start-up messages ({type: "progress"} and {type: "ready"}) of the Python in use.
//
// Stopping: Python in a worker cannot be interrupted without SharedArrayBuffer (which needs
// headers a static host cannot send), so Stop ends the worker. So that the next run need not
// wait for a new Python, a spare worker starts loading in the background once a run has taken
// longer than SPARE_AFTER_MS; Stop puts the spare in its place.
const ROOT = new URL("../../", import.meta.url).href;   // this language's site root (works from a sub-path)
const SPARE_AFTER_MS = 1000;   // a run this long is probably not a quick listing: 1 s before a reader reaches for Stop

let current = null;                  // {worker, ready, loaded}: the Python runs go to
let spare = null;                    // a second one, loading or loaded, for after a Stop
let runs = 0;
const pending = new Map();           // run id -> {onMessage, resolve, reject}
const watchers = new Set();          // start-up listeners

function start() {
  const slot = { worker: new Worker(new URL("assets/playground/worker.js", ROOT)), ready: null, loaded: false, info: null };
  slot.ready = new Promise((resolve, reject) => {
    slot.fail = reject;               // stop() while it loads: the runs waiting for it end too
    slot.worker.onmessage = (event) => {
      const message = event.data;
      if (message.type === "ready") { slot.loaded = true; slot.info = message; }
      if (message.type === "ready" || message.type === "progress") {
        if (message.type === "ready") resolve(message);
        if (slot === current) watchers.forEach((w) => w(message));
        return;
      }
      if (message.type === "failed") { reject(new Error(message.text)); return; }
      if (message.type === "closing") { slot.closing = true; return; }   // the code closed its worker
      const run = message.id && pending.get(message.id);
      if (!run) return;
      run.onMessage(message);
      if (message.type === "done") {
        pending.delete(message.id);
        if (slot.closing && slot === current) restart();   // what it ran closed it: the next run needs a new one
        run.resolve(message);
      }
    };
    slot.worker.onerror = (event) => reject(new Error(event.message || "worker error"));
  });
  slot.ready.catch(() => {            // a later run tries again with a new worker
    slot.worker.terminate();
    if (current === slot) current = null;
    if (spare === slot) spare = null;
  });
  slot.worker.postMessage({ type: "init", base: ROOT });
  return slot;
}

/** True once the Python that the next run will use has loaded (it will not wait for a start-up). */
export function isReady() {
  return Boolean(current ? current.loaded : spare && spare.loaded);
}

/** The "ready" message of the Python the next run will use ({versions, ms}), or null while it loads. */
export function info() {
  const slot = current || spare;
  return slot ? slot.info : null;
}

/** True while a run has not finished (a page the reader comes back to may stop it). */
export function busy() {
  return pending.size > 0;
}

/** Start loading Python now, if it is not loading yet; resolves when it is ready. */
export function warm() {
  if (!current) { current = spare || start(); spare = null; }
  return current.ready;
}

/** Listen to the start-up ({type: "progress"}, {type: "ready"}); returns a function that stops listening. */
export function onProgress(watcher) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** Run ``code`` in the shared Python; ``onMessage`` gets each message of this run. Resolves with
 *  the "done" message; rejects if Python cannot start or the run is stopped. ``onSent`` is called
 *  when the code has been sent to a Python that has started: a time limit counted from then fires
 *  even if the code never sends a message (a silent loop, a worker the code closed). */
export async function run(code, onMessage = () => {}, { lang, onSent } = {}) {
  if (!current) { current = spare || start(); spare = null; }
  const slot = current;
  await slot.ready;
  if (slot !== current) throw new Error("stopped");   // stopped while it loaded
  runs += 1;
  const id = `py:${runs}`;
  const longRun = setTimeout(() => { if (pending.has(id) && !spare) spare = start(); }, SPARE_AFTER_MS);
  return new Promise((resolve, reject) => {
    pending.set(id, { onMessage, resolve: (m) => { clearTimeout(longRun); resolve(m); },
                      reject: (e) => { clearTimeout(longRun); reject(e); } });
    slot.worker.postMessage({ type: "run", id, code, lang });
    if (onSent) onSent();
  });
}

/** Let the next run have a Python no code has run in: after a check whose code changed Python
 *  itself (builtins, NumPy, attnkit). The spare, if one has started, takes this one's place. */
export function restart() {
  stop();
  warm().catch(() => {});   // start it now; a run that needs it reports a failure to start
}

/** End the running code at once; the spare Python (if one has started) takes its place. */
export function stop() {
  if (current) { current.worker.terminate(); if (!current.loaded) current.fail(new Error("stopped")); }
  current = spare;
  spare = null;
  for (const run of pending.values()) run.reject(new Error("stopped"));
  pending.clear();
}
