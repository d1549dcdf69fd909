// One Python for the widgets that run it: Pyodide + NumPy + the site's attnkit in the playground's
// Web Worker (../playground/worker.js), started on the first run and kept by this module, which
// Material's instant navigation keeps alive: Python loads once per visit, not once per page.
//
//   import * as python from "./python.js";
//   const done = await python.run(code, (message) => ...);   // every message of this run; resolves at "done"
//   python.stop();                                           // ends a runaway run: the next run starts Python again
//
// Messages are the worker's: {type: "stdout"|"stderr", text}, {type: "error", data: {text, name}},
// {type: <what the code emitted>, data}, and last {type: "done", ok, ms}. onProgress(message)
// receives the worker's start-up messages ({type: "progress"} and {type: "ready"}).
const ROOT = new URL("../../", import.meta.url).href;   // this language's site root (works from a sub-path)

let worker = null;
let ready = null;
let loaded = false;                  // Python has finished starting in the current worker
let runs = 0;
const pending = new Map();           // run id -> {onMessage, resolve, reject}
const watchers = new Set();          // start-up listeners

function start() {
  worker = new Worker(new URL("assets/playground/worker.js", ROOT));
  const current = worker;
  ready = new Promise((resolve, reject) => {
    current.onmessage = (event) => {
      const message = event.data;
      if (message.type === "ready") { loaded = true; resolve(message); watchers.forEach((w) => w(message)); return; }
      if (message.type === "progress") { watchers.forEach((w) => w(message)); return; }
      if (message.type === "failed") { reject(new Error(message.text)); return; }
      const run = message.id && pending.get(message.id);
      if (!run) return;
      run.onMessage(message);
      if (message.type === "done") { pending.delete(message.id); run.resolve(message); }
    };
    current.onerror = (event) => reject(new Error(event.message || "worker error"));
  });
  ready.catch(() => { if (worker === current) stop(); });   // a later run tries again with a new worker
  current.postMessage({ type: "init", base: ROOT });
}

/** True once Python has loaded in this tab (a run will not wait for the start-up). */
export function isReady() {
  return Boolean(worker) && loaded;
}

/** Listen to the start-up ({type: "progress"}, {type: "ready"}); returns a function that stops listening. */
export function onProgress(watcher) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** Run ``code`` in the shared Python; ``onMessage`` gets each message of this run. Resolves with
 *  the "done" message; rejects if Python cannot start or the run is stopped. */
export async function run(code, onMessage = () => {}) {
  if (!worker) start();
  await ready;
  runs += 1;
  const id = `py:${runs}`;
  return new Promise((resolve, reject) => {
    pending.set(id, { onMessage, resolve, reject });
    worker.postMessage({ type: "run", id, code });
  });
}

/** End the running code at once (the worker is replaced on the next run). */
export function stop() {
  if (worker) worker.terminate();
  worker = null;
  ready = null;
  loaded = false;
  for (const run of pending.values()) run.reject(new Error("stopped"));
  pending.clear();
}
