// Widget: exercise-progress. A chapter's coding exercises and how many this browser has solved.
// <div class="attn-widget screen-only" data-widget="exercise-progress" data-chapter="ch3"></div>
// (written by the macro {{ exercise_progress("ch3") }}, bookbuild/exercise_pages.py, with its printed
// list). The solved marks are exercise.js's, in localStorage; "forget" clears this chapter's.
import { el, fill, liveRegion, loadData } from "./common.js";
import { solvedKey, stored } from "./exercise.js";

const ROOT = new URL("../../", import.meta.url).href;   // this language's site root

const isSolved = (id) => stored(solvedKey(id)) === "solved";

export async function mount(root) {
  const data = await loadData("exercises");
  const L = data.labels;
  const chapter = root.dataset.chapter;
  const ids = Object.keys(data.exercises).filter((id) => data.exercises[id].chapter === chapter);
  if (!ids.length) throw new Error(`no exercise in chapter "${chapter}"`);
  const count = el("p", { class: "ex-progress__count" });
  const list = el("ul", { class: "ex-progress__list" });
  const clear = el("button", { type: "button", class: "attn-button", "data-action": "clear" }, L.clear);
  const live = liveRegion();
  root.classList.add("ex-progress");
  root.append(count, list, el("div", { class: "attn-widget__controls" }, clear), el("p", { class: "attn-hint" }, L.stored), live);

  function draw() {
    const solved = ids.filter(isSolved);
    count.textContent = fill(L.progress, { solved: solved.length, total: ids.length });
    root.dataset.solved = String(solved.length);
    list.replaceChildren(...ids.map((id) => {
      const ex = data.exercises[id];
      const done = solved.includes(id);
      return el("li", { "data-solved": String(done) },
        el("a", { href: new URL(ex.url, ROOT).href }, ex.title), done ? ` ✓ ${L.solved}` : "");
    }));
    clear.disabled = !solved.length;
  }

  clear.addEventListener("click", () => {
    for (const id of ids) { try { window.localStorage.removeItem(solvedKey(id)); } catch { /* nothing stored */ } }
    draw();
    live.textContent = L.cleared;
  });
  draw();
}
