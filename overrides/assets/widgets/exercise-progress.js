// Widget: exercise-progress. A chapter's coding exercises and checked questions, and how many of
// them this browser has solved or answered right.
// <div class="attn-widget screen-only" data-widget="exercise-progress" data-chapter="ch3"></div>
// (written by the macro {{ exercise_progress("ch3") }}, bookbuild/exercise_pages.py, with its printed
// list). Each item links to its anchor (#exercise-<id>, #question-<id>). "Download all my work" saves
// every draft of the book in one zip (./work.js); "Forget my progress in this chapter" clears the
// chapter's solved marks, drafts, first checks and answers, "Forget all my work in this book" those
// of every chapter, each after the reader confirms (a shared computer: the next reader sees none of it).
import { el, fill, liveRegion, loadData } from "./common.js";
import { KEYS, downloadAll, forget, stored, storedAnswer } from "./work.js";

const ROOT = new URL("../../", import.meta.url).href;   // this language's site root

export async function mount(root) {
  const data = await loadData("exercises");
  const L = data.labels;
  const chapter = root.dataset.chapter;
  const ids = Object.keys(data.exercises).filter((id) => data.exercises[id].chapter === chapter);
  const qids = Object.keys(data.questions).filter((id) => data.questions[id].chapter === chapter && data.questions[id].url);
  if (!ids.length && !qids.length) throw new Error(`nothing to solve in chapter "${chapter}"`);
  const count = el("p", { class: "ex-progress__count" });
  const list = el("ul", { class: "ex-progress__list" });
  const qcount = el("p", { class: "ex-progress__count" });
  const qlist = el("ul", { class: "ex-progress__list" });
  const downloadAllButton = el("button", { type: "button", class: "attn-button", "data-action": "download-all" }, L.downloadAll);
  const clear = el("button", { type: "button", class: "attn-button", "data-action": "clear" }, L.clear);
  const clearAll = el("button", { type: "button", class: "attn-button", "data-action": "clear-all" }, L.clearAll);
  const confirmText = el("p", { class: "ex-progress__confirm-text" });
  const yes = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "confirm-clear" }, L.confirmYes);
  const no = el("button", { type: "button", class: "attn-button", "data-action": "cancel-clear" }, L.confirmNo);
  const confirm = el("div", { class: "ex-progress__confirm", role: "group", hidden: true },
    confirmText, el("div", { class: "attn-widget__controls" }, yes, no));
  let scope = "chapter";      // what the confirmation forgets: this chapter, or the whole book
  const note = el("p", { class: "attn-hint ex-progress__note" }, L.stored);
  const live = liveRegion();
  root.classList.add("ex-progress");
  root.append(
    ids.length ? count : null, ids.length ? list : null,
    qids.length ? qcount : null, qids.length ? qlist : null,
    el("div", { class: "attn-widget__controls" }, downloadAllButton, clear, clearAll),
    confirm, note, live);

  const link = (item) => new URL(`${item.url}#${item.anchor}`, ROOT).href;

  function draw() {
    const solved = ids.filter((id) => stored(KEYS.solved(id)) === "solved");
    count.textContent = fill(L.progress, { solved: solved.length, total: ids.length });
    root.dataset.solved = String(solved.length);
    list.replaceChildren(...ids.map((id) => {
      const ex = data.exercises[id];
      const done = solved.includes(id);
      return el("li", { "data-solved": String(done) },
        el("a", { href: link(ex) }, ex.title), done ? ` ✓ ${L.solved}` : "");
    }));
    const answers = Object.fromEntries(qids.map((id) => [id, storedAnswer(id)]));
    const right = qids.filter((id) => answers[id] && answers[id].right);
    qcount.textContent = fill(L.questionProgress, { right: right.length, total: qids.length });
    root.dataset.right = String(right.length);
    qlist.replaceChildren(...qids.map((id) => {
      const q = data.questions[id];
      const answer = answers[id];
      const mark = !answer ? "" : answer.right ? ` ✓ ${L.qAnsweredRight}` : ` · ${L.qAnsweredWrong}`;
      return el("li", { "data-right": String(Boolean(answer && answer.right)) }, el("a", { href: link(q) }, q.title), mark);
    }));
    const anything = ids.some((id) => ["solved", "draft", "tried"].some((k) => stored(KEYS[k](id)) !== null))
      || qids.some((id) => stored(KEYS.answer(id)) !== null);
    clear.disabled = !anything;
    clearAll.disabled = !rememberedAnywhere();
    root.dataset.remembered = String(anything);
  }

  const allExercises = Object.keys(data.exercises);
  const allQuestions = Object.keys(data.questions);
  function rememberedAnywhere() {
    return allExercises.some((id) => ["solved", "draft", "tried"].some((k) => stored(KEYS[k](id)) !== null))
      || allQuestions.some((id) => stored(KEYS.answer(id)) !== null);
  }

  function ask(which) {
    scope = which;
    confirmText.textContent = which === "book" ? L.confirmClearAll : L.confirmClear;
    confirm.setAttribute("aria-label", which === "book" ? L.clearAll : L.clear);
    confirm.hidden = false;
    clear.disabled = true;
    clearAll.disabled = true;
    no.focus();
  }

  downloadAllButton.addEventListener("click", () => {
    const n = downloadAll(data.exercises);
    note.textContent = n ? fill(L.downloadedAll, { n }) : L.nothingSaved;
    live.textContent = note.textContent;
  });
  clear.addEventListener("click", () => ask("chapter"));
  clearAll.addEventListener("click", () => ask("book"));
  no.addEventListener("click", () => {
    confirm.hidden = true;
    draw();
    (scope === "book" ? clearAll : clear).focus();
  });
  yes.addEventListener("click", () => {
    if (scope === "book") forget(allExercises, allQuestions);
    else forget(ids, qids);
    confirm.hidden = true;
    draw();
    note.textContent = scope === "book" ? L.clearedAll : L.cleared;
    live.textContent = note.textContent;
    downloadAllButton.focus();
  });
  draw();
}
