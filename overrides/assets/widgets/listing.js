// A listing's "edit and run": the listing becomes an editor in place, its code runs in the
// reader's browser (the shared Python, ./python.js: Pyodide + NumPy + this site's attnkit, all
// served by the site), and what it prints appears under the book's own output, with a line
// saying whether the two are the same.
//
// The build (bookbuild/playground.py add_run_links) writes under every listing
//   <p class="listing-links screen-only"><button class="listing-edit" data-listing="chN/x.py" hidden>…</button>
//     <a class="pg-run-link">…</a> <a class="listing-download" href="…/listings/chN/x.py">…</a></p>
// index.js shows the button and imports this module on its first press. The starting code is the
// download file itself (the listing in the page's language, written by bookbuild/listings.py at
// build time), so the editor starts from exactly the code the page shows; nothing is derived here.
// Nothing of Python is fetched until the reader presses Run. Tests: tests/test_listing_run.py.
import { el, fill, lang, liveRegion, uid } from "./common.js";
import { codeArea } from "./code-area.js";
import * as python from "./python.js";

const TEXT = {
  zh: {
    editor: "代码（可以直接修改）", help: "Ctrl+Enter 运行 · Tab 缩进 · 先按 Esc 再按 Tab 离开编辑器",
    run: "▶ 运行", stop: "■ 停止", reset: "↺ 还原", book: "书上的输出：", yours: "你这次运行的输出：",
    idle: "改好以后点“运行”。第一次运行要先加载 Python（几秒钟），之后就快了。",
    loading: "正在加载 Python……", running: "运行中……随时可以点“停止”。",
    same: "✓ 和书上的输出一样", differs: "≠ 和书上的输出不一样（从第 {line} 行开始）",
    error: "≠ 代码出错了，报错信息在输出的最后。", stopped: "已停止。可以再运行一次。",
    failed: "Python 没能加载：{error}", loadFailed: "没能取到这段代码：{error}",
    doneSame: "运行完毕，和书上的输出一样。", doneDiffers: "运行完毕，和书上的输出不一样，从第 {line} 行开始。",
    truncated: "（输出太长，后面的部分省略了）",
  },
  en: {
    editor: "The code (you can change it)", help: "Ctrl+Enter runs · Tab indents · Esc then Tab leaves the editor",
    run: "▶ Run", stop: "■ Stop", reset: "↺ Reset", book: "The book's output:", yours: "What your run printed:",
    idle: "Change it, then press Run. The first run loads Python (a few seconds); later runs are quick.",
    loading: "Loading Python…", running: "Running… you can press Stop at any time.",
    same: "✓ Same as the book", differs: "≠ Differs from the book (from line {line})",
    error: "≠ The code raised an error: the traceback ends the output.", stopped: "Stopped. You can run it again.",
    failed: "Python failed to load: {error}", loadFailed: "Could not fetch this listing: {error}",
    doneSame: "Finished: the same as the book.", doneDiffers: "Finished: it differs from the book from line {line}.",
    truncated: "(output too long: the rest is left out)",
  },
};
const MAX_SHOWN = 200000;   // characters of printed text shown (the worker stops sending there too)

/** Lines as a reader compares them: trailing spaces and trailing blank lines do not count. */
function lines(text) {
  const out = text.replace(/\r\n?/g, "\n").split("\n").map((line) => line.replace(/\s+$/, ""));
  while (out.length && out.at(-1) === "") out.pop();
  return out;
}

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;

/** The same line, allowing the last digits of a number to differ (NumPy in the browser and on the
 *  build machine may round the 16th digit differently). */
function sameLine(a, b) {
  if (a === b) return true;
  if (a.replace(NUMBER, "#") !== b.replace(NUMBER, "#")) return false;
  const x = a.match(NUMBER) || [];
  const y = b.match(NUMBER) || [];
  return x.every((s, i) => {
    const u = Number(s), v = Number(y[i]);
    return u === v || Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v));
  });
}

/** 0 when ``mine`` prints what the book shows, else the (1-based) first line that differs. */
export function firstDifference(mine, book) {
  const a = lines(mine), b = lines(book);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] === undefined || b[i] === undefined || !sameLine(a[i], b[i])) return i + 1;
  }
  return 0;
}

function parts(links) {
  // Walking back from the links: the book's output block, then the listing's code block.
  let output = links.previousElementSibling;
  while (output && !output.matches(".highlight, pre")) output = output.previousElementSibling;
  let source = output && output.previousElementSibling;
  while (source && !source.matches(".highlight, pre")) source = source.previousElementSibling;
  if (!output || !source) throw new Error("listing.js: no code and output blocks before the listing's links");
  return { output, source };
}

export async function open(button) {
  const links = button.closest(".listing-links");
  if (links.dataset.editing) { links.parentElement.querySelector(`#${links.dataset.editing}`)?.focus(); return; }
  const T = TEXT[lang()];
  const { output: bookOutput, source } = parts(links);
  const download = links.querySelector(".listing-download");
  let original;
  try {
    const response = await fetch(download.href);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    original = await response.text();
  } catch (error) {
    button.after(el("span", { class: "listing-error", role: "alert" }, fill(T.loadFailed, { error: error.message })));
    return;
  }
  if (links.dataset.editing) return;   // a second press while the file was on its way

  const editorId = uid("listing-code");
  const helpId = uid("listing-help");
  const code = codeArea({ id: editorId, "aria-describedby": helpId, class: "ex-code listing-code" },
    { value: original, onRun: () => run(), minRows: 3 });
  const runButton = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "run" }, T.run);
  const stopButton = el("button", { type: "button", class: "attn-button", "data-action": "stop", hidden: true }, T.stop);
  const resetButton = el("button", { type: "button", class: "attn-button", "data-action": "reset" }, T.reset);
  const status = el("p", { class: "attn-hint listing-status", "data-state": "idle" }, T.idle);
  const live = liveRegion();
  const box = el("div", { class: "attn-widget listing-live screen-only", "data-mounted": "yes", "data-state": "idle" },
    el("label", { for: editorId, class: "attn-label" }, T.editor),
    code,
    el("p", { id: helpId, class: "attn-hint" }, T.help),
    el("div", { class: "attn-widget__controls" }, runButton, stopButton, resetButton),
    status, live,
    el("p", { class: "attn-label listing-caption" }, T.book));
  const printed = el("pre", { class: "listing-printed", tabindex: 0 });
  const verdict = el("p", { class: "listing-verdict" });
  const result = el("div", { class: "attn-widget listing-result screen-only", "data-mounted": "yes", hidden: true },
    el("p", { class: "attn-label listing-caption" }, T.yours), printed, verdict);

  source.hidden = true;
  source.before(box);
  bookOutput.after(result);
  links.dataset.editing = editorId;
  button.setAttribute("aria-expanded", "true");
  code.focus();

  let running = false;
  let text = "";
  let frame = 0;

  function show() {
    frame = 0;
    printed.textContent = text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + "\n" + T.truncated : text;
  }
  function write(more) {
    text += more;
    if (!frame) frame = requestAnimationFrame(show);
  }
  function setState(state, message, announce = message) {
    box.dataset.state = state;
    status.dataset.state = state;
    status.textContent = message;
    live.textContent = announce;
  }
  function buttons() {
    runButton.disabled = running;
    stopButton.hidden = !running;
  }

  async function run() {
    if (running) return;
    running = true;
    buttons();
    text = "";
    show();
    result.hidden = false;
    verdict.textContent = "";
    delete verdict.dataset.same;
    box.dataset.pythonWasReady = String(python.isReady());   // for the tests and the benchmark
    setState(python.isReady() ? "running" : "loading", python.isReady() ? T.running : T.loading);
    const unwatch = python.onProgress((m) => { if (m.type === "ready" && running) setState("running", T.running); });
    let failed = false;
    try {
      await python.run(code.value, (m) => {
        if (m.type === "stdout" || m.type === "stderr") write(m.text);
        else if (m.type === "error") { failed = true; write(m.data.text); }
        else if (m.type === "truncated") write("\n" + T.truncated);
      }, { lang: lang() });
    } catch (error) {
      unwatch();
      running = false;
      buttons();
      if (error.message === "stopped") setState("stopped", T.stopped);
      else setState("failed", fill(T.failed, { error: error.message }));
      return;
    }
    unwatch();
    if (frame) cancelAnimationFrame(frame);
    show();
    running = false;
    buttons();
    const line = firstDifference(text, bookOutput.textContent);
    verdict.dataset.same = String(!failed && line === 0);
    if (failed) verdict.textContent = T.error;
    else verdict.textContent = line === 0 ? T.same : fill(T.differs, { line });
    const done = failed ? T.error : line === 0 ? T.doneSame : fill(T.doneDiffers, { line });
    setState(line === 0 && !failed ? "same" : "differs", done);
  }

  function reset() {
    if (running) python.stop();
    box.remove();
    result.remove();
    source.hidden = false;
    delete links.dataset.editing;
    button.setAttribute("aria-expanded", "false");
    button.focus();
  }

  runButton.addEventListener("click", run);
  stopButton.addEventListener("click", () => python.stop());
  resetButton.addEventListener("click", reset);
}
