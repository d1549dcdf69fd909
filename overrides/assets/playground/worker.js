// The playground's Python: Pyodide + NumPy + attnkit in a Web Worker, so the page never freezes.
// Every file comes from the site itself. The page sends {type: "init", base} once (base = the
// site root URL), then {type: "run", id, code, lang} (lang, "zh" or "en", picks the language of
// the playground's own messages; optional); Stop terminates this worker and starts a new one.
/* global loadPyodide, importScripts */

// The Pyodide folder, relative to this script. One copy serves both languages: the English
// book's worker gets the Chinese book's folder (bookbuild/playground.py rewrites this line).
const PYODIDE = "../pyodide/";
// The folder of attnkit.zip (the same bytes in both books), relative to this script: the English
// book's worker gets the Chinese book's (rewritten as PYODIDE is).
const ATTNKIT = "./";

let ready = null;
const stdout = new TextDecoder();
const stderr = new TextDecoder();
const MAX_OUTPUT = 200000;   // characters of printed text per run; the rest is dropped

function post(message) {
  self.postMessage(message);
}

// Printed text is sent in chunks at most every 100 ms, and only up to MAX_OUTPUT characters,
// so that even `while True: print(i)` cannot flood the page with messages.
const out = { id: null, kind: "stdout", text: "", sent: 0, last: 0, dropped: false };
function write(kind, text) {
  if (kind !== out.kind) flush();
  out.kind = kind;
  if (out.sent + out.text.length + text.length > MAX_OUTPUT) {
    out.text += text.slice(0, Math.max(0, MAX_OUTPUT - out.sent - out.text.length));
    out.dropped = true;
  } else {
    out.text += text;
  }
  if (performance.now() - out.last > 100 || out.text.length > 65536) flush();
}
function flush() {
  if (out.text) post({ type: out.kind, id: out.id, text: out.text });
  out.sent += out.text.length;
  out.text = "";
  out.last = performance.now();
}

async function init(base) {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const indexURL = new URL(PYODIDE, self.location.href).href;
  post({ type: "progress", step: 1, of: 3, stage: "python" });
  importScripts(indexURL + "pyodide.js");
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
  post({ type: "progress", step: 2, of: 3, stage: "numpy", ms: since() });
  await pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: (m) => post({ type: "stderr", text: m + "\n" }) });
  post({ type: "progress", step: 3, of: 3, stage: "attnkit", ms: since() });
  const [kit, helper] = await Promise.all([
    fetch(new URL(ATTNKIT + "attnkit.zip", self.location.href)).then(ok),
    fetch(new URL("assets/playground/playground.py", base)).then(ok),
  ]);
  pyodide.unpackArchive(await kit.arrayBuffer(), "zip", { extractDir: "/book" });
  pyodide.FS.writeFile("/book/playground.py", await helper.text());
  // Every write as it happens (not line-batched): a print(..., end="") at the end of one run
  // is shown in that run, never carried into the next.
  pyodide.setStdout({ write: (bytes) => { write("stdout", stdout.decode(bytes, { stream: true })); return bytes.length; } });
  pyodide.setStderr({ write: (bytes) => { write("stderr", stderr.decode(bytes, { stream: true })); return bytes.length; } });
  pyodide.globals.get("__import__")("sys").path.insert(0, "/book");
  const playground = pyodide.pyimport("playground");
  // A missing numpy wheel does not make loadPackage throw: prove that numpy imports.
  const versions = playground._versions().toJs({ dict_converter: Object.fromEntries });
  // What every exercise check compares this Python with, taken before any reader's code runs.
  playground._baseline();
  post({ type: "ready", ms: since(), versions });
  return { pyodide, playground };
}

function ok(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  return response;
}

async function run(id, code, lang) {
  const { playground } = await ready;
  Object.assign(out, { id, kind: "stdout", text: "", sent: 0, last: performance.now(), dropped: false });
  const started = performance.now();
  const emit = (kind, payload) => {
    const data = payload.toJs({ dict_converter: Object.fromEntries });
    payload.destroy();
    flush();
    post({ type: kind, id, data });
  };
  const status = playground._run(code, emit, lang || "en");
  flush();
  if (out.dropped) post({ type: "truncated", id });
  post({ type: "done", id, ok: status === 0, ms: Math.round(performance.now() - started) });
}

// Code that closes this worker (js.close() from Python) would leave the page waiting for an answer
// that never comes, and its next run hanging: say so first, and the page starts a new Python.
const close = self.close.bind(self);
self.close = () => { post({ type: "closing" }); close(); };

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    ready = init(message.base);
    ready.catch((error) => post({ type: "failed", text: String(error && error.message || error) }));
  } else if (message.type === "run") {
    run(message.id, message.code, message.lang).catch((error) => {
      post({ type: "stderr", id: message.id, text: String(error && error.message || error) + "\n" });
      post({ type: "done", id: message.id, ok: false });
    });
  }
};
