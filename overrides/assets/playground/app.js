// The playground page: editor, Run / Stop / Share, output, heatmaps. Python runs in worker.js,
// through the tab's one Python (../widgets/python.js).
// mount(element, root) is called by loader.js on every (instant) page load that has a
// [data-playground] element; root is the site root URL, so the site works from a sub-path.

import * as python from "../widgets/python.js";
import { stylesheet } from "../widgets/common.js";

const TEXT = {
  zh: {
    listing: "代码", welcome: "示例：画一张注意力热力图", run: "运行", stop: "停止", share: "分享链接",
    output: "输出", empty: "运行结果会出现在这里。",
    editor: "Python 代码编辑器。Ctrl+Enter 运行；Tab 缩进；先按 Esc 再按 Tab 离开编辑器。",
    keys: (mod) => `${mod}+Enter 运行 · Tab 缩进 · Esc 然后 Tab 离开编辑器`,
    idle: "Python 还没加载：第一次运行时会自动加载，需要几秒钟；之后浏览器会缓存这些文件。",
    stage: { python: "正在加载 Python", numpy: "正在加载 NumPy", attnkit: "正在加载 attnkit" },
    ready: (v, s) => `Python ${v.python} · NumPy ${v.numpy} · attnkit 已就绪（加载用时 ${s} 秒）`,
    running: "运行中……随时可以点「停止」。",
    done: (ms) => `运行完毕，用时 ${ms} 毫秒。`,
    error: "代码出错了，报错信息在下面。",
    stopped: "已停止。Python 正在重新启动，下一次运行照常进行。",
    failed: (m) => `Python 加载失败：${m}`,
    timeout: (s) => `Python 在 ${s} 秒内没有加载完成（网络太慢，或者浏览器拦截了它）。请刷新页面再试一次。`,
    copied: "链接已放进地址栏，并复制到剪贴板。",
    shareReady: "链接已放进地址栏，可以直接复制。",
    truncated: "（输出太长，后面的部分省略了）",
    heatmap: "注意力权重", head: (i) => `第 ${i} 个头`, rows: "查询", cols: "键",
  },
  en: {
    listing: "Code", welcome: "Example: draw an attention heatmap", run: "Run", stop: "Stop", share: "Share link",
    output: "Output", empty: "What your code prints appears here.",
    editor: "Python code editor. Ctrl+Enter runs; Tab indents; press Escape, then Tab, to leave the editor.",
    keys: (mod) => `${mod}+Enter runs · Tab indents · Esc then Tab leaves the editor`,
    idle: "Python is not loaded yet: it loads on your first run, in a few seconds, and your browser keeps it for next time.",
    stage: { python: "Loading Python", numpy: "Loading NumPy", attnkit: "Loading attnkit" },
    ready: (v, s) => `Python ${v.python} · NumPy ${v.numpy} · attnkit ready (loaded in ${s} s)`,
    running: "Running… you can press Stop at any time.",
    done: (ms) => `Finished in ${ms} ms.`,
    error: "The code raised an error; the traceback is below.",
    stopped: "Stopped. Python is restarting; your next run works as usual.",
    failed: (m) => `Python failed to load: ${m}`,
    timeout: (s) => `Python did not finish loading within ${s} s (a slow network, or the browser blocked it). Reload the page to try again.`,
    copied: "The link is in the address bar and copied to the clipboard.",
    shareReady: "The link is in the address bar, ready to copy.",
    truncated: "(output too long: the rest is left out)",
    heatmap: "Attention weights", head: (i) => `Head ${i}`, rows: "queries", cols: "keys",
  },
};
const MAX_OUTPUT = 200000;
const LOAD_TIMEOUT_S = 90;   // Python that has not loaded by then is reported as failed, not left hanging
// Tests shorten it with data-load-timeout="3" on the playground element (readers never have it).
const loadTimeout = () => Number(document.querySelector("[data-playground]")?.dataset.loadTimeout) || LOAD_TIMEOUT_S;

// Python is the tab's one Python (../widgets/python.js), shared with the listings' "edit and run",
// the exercises and the training widget: loaded once per visit, whichever page loads it first.
// This object adds what the playground shows: the start-up's progress, a time limit on it, the
// versions, and the ids of its own runs (output of a run that Stop ended is ignored).
const runtime = {
  state: "idle", versions: null, loadMs: 0, nextId: 1, listener: null, timer: null,
  tell(message) { if (this.listener) this.listener(message); },
  ensure() {
    if (this.state === "loading") return;
    if (python.isReady()) { this.ready(python.info()); return; }
    this.state = "loading";
    const unwatch = python.onProgress((m) => { if (m.type === "progress") this.tell(m); });
    const seconds = loadTimeout();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.state !== "loading") return;
      this.state = "failed";
      python.stop();
      this.tell({ type: "failed", timeout: seconds });
    }, seconds * 1000);
    python.warm().then((m) => { if (this.state === "loading") { this.ready(m); this.tell(m); } }, (error) => {
      if (this.state !== "loading") return;   // timed out (reported) or already restarted
      this.state = "failed";
      this.tell({ type: "failed", text: error.message });
    }).finally(() => { unwatch(); clearTimeout(this.timer); });
  },
  ready(m) { this.state = "ready"; this.versions = m.versions; this.loadMs = m.ms; },
  run(code, lang) {
    if (this.state === "failed") this.state = "idle";
    this.ensure();
    const id = this.nextId++;
    python.run(code, (m) => this.tell({ ...m, id }), { lang }).catch((error) => {
      if (error.message !== "stopped" && this.state !== "failed") this.tell({ type: "failed", text: error.message });
    });
    return id;
  },
  stop() {
    python.stop();
    this.state = "idle";
    this.ensure();      // Python for the next run: the spare one (ready at once) or a new one
  },
};

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v; else if (k.startsWith("on")) el.addEventListener(k.slice(2), v); else el.setAttribute(k, v);
  }
  el.append(...children.filter((c) => c !== null && c !== undefined));
  return el;
}

// Code <-> URL fragment (#code=...): UTF-8, base64url. Nothing is sent to any server.
function encodeCode(code) {
  const bytes = new TextEncoder().encode(code);
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeCode(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

function heatmap(data, t) {
  const heads = data.weights;
  const peak = Math.max(1e-12, ...heads.flat(2).map(Math.abs));
  const box = h("div", { class: "pg-heatmaps" });
  heads.forEach((w, i) => {
    const title = [data.title || t.heatmap, heads.length > 1 ? t.head(i + 1) : ""].filter(Boolean).join(" · ");
    const table = h("table", { class: "pg-heatmap" }, h("caption", {}, title));
    const head = h("tr", {}, h("th", { scope: "col", class: "pg-corner" }, `${t.rows} \\ ${t.cols}`));
    data.cols.forEach((c) => head.append(h("th", { scope: "col" }, c)));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    w.forEach((row, r) => {
      const tr = h("tr", {}, h("th", { scope: "row" }, data.rows[r] ?? String(r)));
      row.forEach((x) => {
        const v = Math.abs(x) / peak;
        const cell = h("td", { class: (x < 0 ? "pg-neg " : "") + (v > 0.55 ? "pg-hi" : ""), style: `--v:${v.toFixed(3)}` },
          Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
        cell.title = String(x);
        tr.append(cell);
      });
      body.append(tr);
    });
    table.append(body);
    box.append(h("div", { class: "pg-scroll" }, table));
  });
  return box;
}

// The root of the book that carries the editor (the same bytes in both books): this book's. The
// English book's app.js gets the Chinese book's root (bookbuild/playground.py rewrites this line).
const EDITOR_ROOT = "./";

export async function mount(el, root) {
  if (el.dataset.mounted) return;
  el.dataset.mounted = "1";
  // The playground's stylesheet: the playground page links it (bookbuild/trim_and_minify.py leaves it
  // off the others), but instant navigation keeps the head of the page the reader came from.
  await stylesheet(new URL("assets/playground/playground.css", root).href).catch(() => {});   // unstyled rather than no playground
  // Back on the page while code from an earlier visit still runs (an endless loop?): stop it.
  if (python.busy()) runtime.stop();
  const lang = document.documentElement.lang === "zh" ? "zh" : "en";
  const t = TEXT[lang];
  const mod = /Mac|iPhone|iPad/.test(navigator.platform) ? "⌘" : "Ctrl";

  const [{ createEditor }, presets] = await Promise.all([
    import(new URL("assets/playground/editor.js", new URL(EDITOR_ROOT, root)).href),
    fetch(new URL("assets/playground/presets.json", root)).then((r) => r.json()),
  ]);

  const select = h("select", { id: "pg-listing", class: "md-input" });
  select.append(h("option", { value: "" }, t.welcome));
  for (const name of Object.keys(presets.listings)) select.append(h("option", { value: name }, name));
  const runButton = h("button", { type: "button", class: "md-button md-button--primary pg-run" }, t.run);
  const stopButton = h("button", { type: "button", class: "md-button pg-stop", disabled: "" }, t.stop);
  const shareButton = h("button", { type: "button", class: "md-button pg-share" }, t.share);
  const progress = h("progress", { max: "3", value: "0", hidden: "" });
  const status = h("p", { class: "pg-status", role: "status", "aria-live": "polite" }, t.idle);
  const editorBox = h("div", { class: "pg-editor" });
  const output = h("div", { class: "pg-output", role: "log", "aria-label": t.output });
  output.append(h("p", { class: "pg-empty" }, t.empty));

  el.replaceChildren(
    h("div", { class: "pg-toolbar" },
      h("label", { for: "pg-listing" }, t.listing), select, runButton, stopButton, shareButton),
    editorBox,
    h("p", { class: "pg-keys" }, t.keys(mod)),
    h("div", { class: "pg-statusbar" }, progress, status),
    h("h2", { class: "pg-output-title" }, t.output),
    output,
  );

  // What to show first: a shared link (#code=), a listing (?listing=chN/x.py), or the example.
  const params = new URLSearchParams(location.search);
  let code = presets.welcome;
  const shared = location.hash.match(/^#code=([\w-]+)/);
  if (shared) {
    try { code = decodeCode(shared[1]); } catch { /* a broken link falls back to the example */ }
  } else if (params.get("listing") && presets.listings[params.get("listing")] !== undefined) {
    select.value = params.get("listing");
    code = presets.listings[select.value];
  }
  const editor = createEditor(editorBox, { doc: code, onRun: () => run(), label: t.editor });

  let current = null;   // id of the run in progress
  let pending = "";     // text waiting for the next animation frame
  let pre = null;       // the <pre> that receives printed text
  let length = 0;

  function setStatus(text, kind = "") { status.textContent = text; status.dataset.kind = kind; }
  function flush() {
    if (!pending) return;
    if (!pre) { pre = h("pre", { class: "pg-text" }); output.append(pre); }
    const room = MAX_OUTPUT - length;
    if (room > 0) {
      pre.append(pending.slice(0, room));
      if (pending.length > room) output.append(h("p", { class: "pg-note" }, t.truncated));
      length += pending.length;
    }
    pending = "";
  }
  function write(text) {
    if (!pending) requestAnimationFrame(flush);
    pending += text;
  }
  function append(node) { flush(); pre = null; output.append(node); }

  function busy(on) {
    runButton.disabled = false;
    stopButton.disabled = !on;
    el.dataset.state = on ? "running" : "idle";
  }

  runtime.listener = (m) => {
    if (m.type === "progress") {
      progress.hidden = false; progress.value = m.step - 1;
      setStatus(lang === "zh" ? `${t.stage[m.stage]}（${m.step}/${m.of}）……` : `${t.stage[m.stage]} (${m.step}/${m.of})…`, "loading");
      stopButton.disabled = false;
    } else if (m.type === "ready") {
      progress.value = 3; progress.hidden = true;
      el.dataset.python = "ready";
      el.dataset.numpy = m.versions.numpy;
      setStatus(current ? t.running : t.ready(m.versions, (m.ms / 1000).toFixed(1)), current ? "running" : "ready");
      if (!current) stopButton.disabled = true;
    } else if (m.type === "failed") {
      progress.hidden = true; current = null; busy(false);
      setStatus(m.timeout ? t.timeout(m.timeout) : t.failed(m.text), "error");
    } else if (m.id !== undefined && m.id !== current) {
      // output of a run that was stopped: ignore
    } else if (m.type === "stdout" || m.type === "stderr") {
      write(m.text);
    } else if (m.type === "truncated") {
      append(h("p", { class: "pg-note" }, t.truncated));
    } else if (m.type === "heatmap") {
      append(heatmap(m.data, t));
    } else if (m.type === "error") {
      append(h("pre", { class: "pg-traceback" }, m.data.text));
    } else if (m.type === "done") {
      flush(); current = null; busy(false);
      el.dataset.runs = String(Number(el.dataset.runs || 0) + 1);
      setStatus(m.ok ? t.done(m.ms) : t.error, m.ok ? "ready" : "error");
    }
  };
  if (runtime.state !== "loading" && python.isReady()) runtime.ready(python.info());
  if (runtime.state === "ready") {
    el.dataset.python = "ready";
    el.dataset.numpy = runtime.versions.numpy;
    setStatus(t.ready(runtime.versions, (runtime.loadMs / 1000).toFixed(1)), "ready");
  }

  function run() {
    if (current) return;
    output.replaceChildren(); pre = null; pending = ""; length = 0;
    busy(true);
    setStatus(t.running, "running");
    current = runtime.run(editor.get(), lang);
  }
  function stop() {
    current = null; pending = "";
    runtime.stop();
    busy(false);
    stopButton.disabled = false;
    setStatus(t.stopped, "stopped");
    el.dataset.stops = String(Number(el.dataset.stops || 0) + 1);
  }
  async function share() {
    const url = new URL(location.href);
    url.search = "";
    url.hash = "code=" + encodeCode(editor.get());
    history.replaceState(history.state, "", url);
    try { await navigator.clipboard.writeText(url.href); setStatus(t.copied); } catch { setStatus(t.shareReady); }
  }

  runButton.addEventListener("click", run);
  stopButton.addEventListener("click", stop);
  shareButton.addEventListener("click", share);
  select.addEventListener("change", () => {
    editor.set(select.value ? presets.listings[select.value] : presets.welcome);
    const url = new URL(location.href);
    url.hash = "";
    if (select.value) url.searchParams.set("listing", select.value); else url.searchParams.delete("listing");
    history.replaceState(history.state, "", url);
  });
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.defaultPrevented) { event.preventDefault(); run(); }
  });
  // Warm Python up as soon as the reader shows interest, so the first run is quicker.
  const warm = () => runtime.ensure();
  editorBox.addEventListener("focusin", warm, { once: true });
  runButton.addEventListener("pointerenter", warm, { once: true });
}
