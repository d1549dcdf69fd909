// Widget: exercise. The reader writes a function, and the site's attnkit checks it in the browser.
// <div class="attn-widget screen-only" data-widget="exercise" data-exercise="ch3-softmax" data-python></div>
// (written by the macro {{ exercise("ch3-softmax") }}, bookbuild/exercise_pages.py, with its printed form;
// its id, exercise-ch3-softmax, is the anchor a syllabus links to)
//
// The starter code, the solution, the hints and every label come from data/widgets/exercises/<id>.json
// (bookbuild/widgets.py: this exercise's part of exercises.json); the check is attnkit.exercise.check, run by the shared Python
// (./python.js) on the exercise's own file (exercises/chN/<stem>.py, in attnkit.zip), so the page
// and the tests mark the same code the same way. A solved exercise, the reader's draft and their
// first check are remembered in localStorage (./work.js); nothing leaves the browser unless the
// reader downloads it: "Download my code" saves the editor's code as <id>.py, "Download all my
// work" every draft in one zip, as `python -m attnkit.grade` reads them. In a graded course (a
// build with COURSE=graded) the hints and the reference solution stay closed until the reader's
// first check. Tests: tests/test_exercises.py, tests/test_handin.py.
import { el, fill, lang, liveRegion, loadData, loadPart, uid } from "./common.js";
import { codeArea } from "./code-area.js";
import * as python from "./python.js";
import { KEYS, downloadAll, downloadCode, store, stored } from "./work.js";

export { stored };
export const solvedKey = KEYS.solved;

// The kinds of message (attnkit.exercise.KINDS) that name a case and what came back for it.
const CASE_KINDS = ["wrong", "nonfinite", "shape", "none", "not_number", "not_array", "not_tuple", "raised"];

export async function mount(root) {
  const id = root.dataset.exercise;
  const [data, part] = await Promise.all([loadData("exercises/shared"), loadPart("exercises", id)]);
  const L = data.labels;
  const ex = part.item;
  const draftKey = KEYS.draft(id);
  const triedKey = KEYS.tried(id);

  const editorId = uid("ex-code");
  const helpId = uid("ex-help");
  // the editor (code-area.js): Tab indents; Esc then Tab leaves; Ctrl/Cmd+Enter checks
  const code = codeArea({ id: editorId, "aria-describedby": helpId }, {
    value: stored(draftKey) ?? ex.starter,
    onRun: () => check(),
    onInput: (text) => store(draftKey, text === ex.starter ? null : text),
  });

  const checkButton = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "check" }, L.check);
  const resetButton = el("button", { type: "button", class: "attn-button", "data-action": "reset" }, L.reset);
  const stopButton = el("button", { type: "button", class: "attn-button", "data-action": "stop", hidden: true }, L.stop);
  const solved = el("span", { class: "ex-solved", hidden: stored(solvedKey(id)) !== "solved" }, "✓ " + L.solved);
  const status = el("p", { class: "ex-status", "data-state": "idle" }, L.idle);
  // tabindex: a block that scrolls sideways on a phone is reachable by keyboard (axe scrollable-region-focusable)
  const result = el("pre", { class: "ex-result", hidden: true, tabindex: 0 });
  const printed = el("pre", { class: "ex-printed", tabindex: 0 });
  const printedBox = el("details", { class: "ex-printed-box", hidden: true }, el("summary", {}, L.printed), printed);
  const live = liveRegion();
  const hints = el("details", { class: "ex-hints" }, el("summary", {}, L.hints),
    // numbered as the messages number the cases ("Case 2 of 5"); the drawn ones come after these
    el("ol", {}, ex.hints.map((h) => el("li", {}, el("em", {}, h.about), lang() === "zh" ? "：" : ": ", h.hint))),
    ex.drawn ? el("p", { class: "ex-drawn" }, fill(L.drawn, { drawn: ex.drawn, first: ex.hints.length + 1 })) : null);
  const solution = el("details", { class: "ex-solution" }, el("summary", {}, L.solution),
    el("pre", {}, el("code", { tabindex: 0 }, ex.solution)));
  const gradedNote = el("p", { class: "attn-hint ex-graded" }, L.gradedNote);
  const downloadButton = el("button", { type: "button", class: "attn-button", "data-action": "download" }, L.download);
  const downloadAllButton = el("button", { type: "button", class: "attn-button", "data-action": "download-all" }, L.downloadAll);
  const handinNote = el("p", { class: "attn-hint ex-handin-note" }, fill(L.handinNote, { file: `${id}.py` }));

  // A graded course opens the hints and the solution after the reader's first check (of their own code).
  function gate() {
    const open = !data.graded || stored(triedKey) === "yes";
    hints.hidden = !open;
    solution.hidden = !open;
    gradedNote.hidden = open;
    root.dataset.gated = String(!open);
  }
  gate();

  root.classList.add("ex-widget");
  root.append(
    el("p", { class: "ex-title" }, el("strong", {}, ex.title), " ",
      el("a", { class: "attn-permalink", href: `#exercise-${id}`, title: L.link, "aria-label": L.link }, "#"), " ", solved),
    el("label", { for: editorId, class: "ex-label" }, fill(L.editor, { function: ex.function })),
    code,
    el("p", { id: helpId, class: "attn-hint ex-help" }, L.editorHelp),
    el("div", { class: "attn-widget__controls" }, checkButton, resetButton, stopButton),
    status, result, printedBox,
    hints, solution, gradedNote,
    el("div", { class: "attn-widget__controls ex-handin" }, downloadButton, downloadAllButton),
    handinNote,
    live);

  // ---- checking ---------------------------------------------------------------------------
  let running = false;
  let timer = null;
  let timedOut = false;

  function setStatus(kind, text, announce = text) {
    status.dataset.state = kind;
    status.textContent = text;
    live.textContent = announce;
  }

  function buttons() {
    checkButton.disabled = running;
    stopButton.hidden = !running;
    root.dataset.state = running ? "running" : (status.dataset.state || "idle");
  }

  // One run of the check in the shared Python: {outcome} (the "exercise" message), {error} (the
  // checker itself raised), or {stopped} / {failed} (Stop or the time limit; Python did not start).
  async function runCheck() {
    const source = JSON.stringify(code.value);   // a JSON string is a valid Python string literal
    const run = `import playground\nplayground.check_exercise(${JSON.stringify("/book/" + ex.file)}, ${source}, ${JSON.stringify(lang())})\n`;
    let outcome = null;
    let error = null;
    const stopWatching = python.onProgress((m) => { if (m.type === "ready") setStatus("checking", L.checking); });
    try {
      // The time limit counts from when the code reaches a Python that has started (its start-up
      // is not counted), not from a message: a silent loop sends none.
      await python.run(run, (message) => {
        if (message.type === "exercise") outcome = message.data;
        else if (message.type === "error") error = message.data.text.trim().split("\n").pop();
      }, { onSent: armTimer });
    } catch (failure) {
      return failure.message === "stopped" ? { stopped: true } : { failed: failure.message };
    } finally {
      stopWatching();
      clearTimeout(timer);
      timer = null;
    }
    return outcome ? { outcome } : { error: error || "?" };
  }

  async function check() {
    if (running) return;
    running = true;
    timedOut = false;
    buttons();
    result.hidden = true;
    printedBox.hidden = true;
    delete root.dataset.restarted;
    const loaded = python.isReady();
    root.dataset.pythonWasReady = String(loaded);     // for the tests: this check waited for no start-up
    setStatus("checking", loaded ? L.checking : L.loading);
    let done = await runCheck();
    if (done.outcome && done.outcome.restart) {
      // An earlier run changed this Python (builtins, NumPy, attnkit): check in a new one.
      root.dataset.restarted = "before";
      python.restart();
      setStatus("checking", L.restarting);
      done = await runCheck();
    }
    running = false;
    if (done.stopped) {
      setStatus(timedOut ? "timeout" : "stopped", timedOut ? fill(L.timeout, { seconds: data.timeout }) : L.stopped);
    } else if (done.failed) {
      setStatus("failed", fill(L.failed, { error: done.failed }));
    } else if (done.error || done.outcome.restart) {
      python.restart();                                 // whatever broke the checker goes with this Python
      setStatus("failed", fill(L.checkerFailed, { error: done.error || done.outcome.changed.join(", ") }));
    } else {
      if (done.outcome.tampered && done.outcome.tampered.length) {
        root.dataset.restarted = "after";
        python.restart();                               // nothing the reader's code changed survives
      }
      show(done.outcome);
    }
    buttons();
  }

  function armTimer() {
    clearTimeout(timer);
    timer = setTimeout(() => { timedOut = true; python.stop(); }, data.timeout * 1000);
  }

  function show(outcome) {
    result.textContent = outcome.message;
    result.dataset.passed = String(outcome.passed);
    result.hidden = false;
    printed.textContent = outcome.printed;
    printedBox.hidden = !outcome.printed;
    result.dataset.kind = outcome.kind;
    // Seen: a short verdict above the full message. Heard: the message's first line (which case, or "all pass").
    const onACase = CASE_KINDS.includes(outcome.kind);
    setStatus(outcome.passed ? "passed" : "failed-case", outcome.passed ? L.passed : onACase ? L.notYet : L.notRun,
      outcome.message.split("\n")[0]);
    if (outcome.passed) {
      store(solvedKey(id), "solved");
      solved.hidden = false;
    }
    store(triedKey, "yes");
    gate();
  }

  function reset() {
    code.setText(ex.starter);
    store(draftKey, null);
    result.hidden = true;
    printedBox.hidden = true;
    setStatus("idle", L.idle);
    code.focus();
  }

  downloadButton.addEventListener("click", () => {
    downloadCode(id, code.value);
    live.textContent = fill(L.downloaded, { file: `${id}.py` });
  });
  downloadAllButton.addEventListener("click", async () => {
    const n = downloadAll((await loadData("exercises")).exercises);   // every exercise's id: the whole file, on demand
    handinNote.textContent = n ? fill(L.downloadedAll, { n }) : L.nothingSaved;
    live.textContent = handinNote.textContent;
  });
  checkButton.addEventListener("click", check);
  stopButton.addEventListener("click", () => python.stop());
  resetButton.addEventListener("click", reset);
}
