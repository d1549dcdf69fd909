// Seeing Attention: the widget loader.
//
// Embed a widget in a page (both languages, same attributes), then its printed form right after:
//
//   <div class="attn-widget screen-only" data-widget="click-a-word" data-sentence="cat-ball-fun"></div>
//   <div class="attn-widget screen-only" data-widget="switch-scene" data-sentences="apple-fruit apple-launch"></div>
//   <div class="attn-widget screen-only" data-widget="heads"></div>
//   <div class="attn-widget screen-only" data-widget="four-steps" data-examples="cat-ball-fun" data-step="2"></div>
//   <div class="attn-widget screen-only" data-widget="positions" data-a="3" data-b="7" data-dim="0"></div>
//   <div class="attn-widget screen-only" data-widget="your-sentence"></div>
//   <div class="attn-widget screen-only" data-widget="train-gpt" data-python></div>   (chapter 8.5: trains in Pyodide)
//   <div class="attn-widget screen-only" data-widget="rope" data-i="5" data-j="2"></div>   (chapter 10.3: RoPE's turning pairs)
//   <div class="attn-widget screen-only" data-widget="kv-calculator" data-model="llama-3-8b" data-context="131072"></div>   (10.1)
//   <div class="attn-widget screen-only" data-widget="induction-replay" data-python></div>   (chapter 11: replays the build's run, or trains it in Pyodide)
//   <div class="attn-widget screen-only" data-widget="sample-text"></div>   (chapter 12: samples from the model of real text, plain JS)
//   {{ exercise("ch3-softmax") }} and {{ exercise_progress("ch3") }}: a coding exercise and a chapter's
//   list of them (bookbuild/exercise_pages.py writes the widget and its printed form)
//   {{ question("ch3-softmax-shift") }}: a checked question (bookbuild/questions.py writes the question,
//   its printed form and the widget inside it)
//
//   <div class="print-only" markdown>
//
//   ![alt text in the page's language](../figures/<figure-id>.svg)
//   /// caption
//   ...
//   ///
//
//   </div>
//
// Sentence ids: the tour's cat-ball-fun, cat-ball-hungry, apple-fruit, apple-launch (both
// languages), plus attnkit.toy.SENTENCES of the page's language (e.g. animal-street-tired in
// English). four-steps examples: cat-ball-fun, apple-fruit; data-step 0-3 opens at that step.
// Data: bookbuild/widgets.py. Tests: tests/test_widgets.py.
// Every <div data-widget="name"> on a page gets the module ./name.js, which exports
// mount(element, context). Material's instant navigation swaps the page content without
// reloading scripts, so we mount again on every page it emits through `document$`.
import { dataUrl, lang, stylesheet, t } from "./common.js";

const NAMES = new Set(["click-a-word", "switch-scene", "heads", "four-steps", "positions", "your-sentence", "train-gpt",
  "exercise", "exercise-progress", "question", "rope", "kv-calculator", "induction-replay",
  "sample-text"]);

// The stylesheets a widget needs besides widgets.css (./<name>.css): fetched with its module, so a
// page without the widget does not fetch them (a first visit: issue 38). Chapter 11's replay and
// chapter 12's sampler draw their curve, fields and status with chapter 8's classes (train-gpt.css):
// without it the replay's loss curve was a black shape (tests/test_pages.py: unstyled).
const STYLES = {
  "train-gpt": ["maps", "train-gpt"], "induction-replay": ["maps", "train-gpt", "induction-replay"], "rope": ["rope"],
  "kv-calculator": ["kv-calculator"], "sample-text": ["train-gpt", "sample-text"], "exercise": ["exercise"], "exercise-progress": ["exercise"],
};

async function mountOne(element) {
  const name = element.dataset.widget;
  element.dataset.mounted = "loading";
  try {
    if (!NAMES.has(name)) throw new Error(`unknown widget "${name}"`);
    const [module] = await Promise.all([import(`./${name}.js`), ...(STYLES[name] || []).map((css) => stylesheet(new URL(`./${css}.css`, import.meta.url).href))]);
    element.replaceChildren();
    await module.mount(element, { lang: lang(), dataUrl });
    element.dataset.mounted = "yes";
  } catch (error) {
    element.dataset.mounted = "failed";
    const note = document.createElement("p");
    note.className = "attn-widget__error";
    note.textContent = t("loadFailed") + " (" + error.message + ")";
    element.replaceChildren(note);
    console.error(error);
  }
}

// A link to a section (a cross-reference, a search result, an address with #) jumps to it while
// the page is still being drawn: each widget above the section that mounts afterwards, and each
// block the browser skipped off screen (content-visibility, book.css) and lays out once it is near,
// moves the section away (on 10.3 by a thousand pixels). Until the page stops moving, and unless
// the reader scrolls, taps or presses a key meanwhile, put the section back where the jump put it
// (scrollIntoView honours the heading's scroll-margin under Material's header).
// Tests: tests/test_anchors.py.
let readerMoved = false;
for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) {
  window.addEventListener(type, () => { readerMoved = true; }, { capture: true, passive: true });
}
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
// Only the latest jump is kept: a second jump on the same page (a link in the table of contents, a
// second address with #) ends the first one's loop and watch, which would otherwise pull the reader
// back to the first section whenever the page moves (CI at load 5: /tour/#一分钟总结, opened right
// after /tour/#四副眼镜多头注意力, stayed 2664 px below the window's top).
let jump = 0, watch = null;

async function keepSectionInView(mounting) {
  const id = decodeURIComponent(location.hash.slice(1));
  const mine = ++jump;
  if (watch) watch.disconnect();
  watch = null;
  const target = id && document.getElementById(id);
  if (!target) return;
  readerMoved = false;
  await Promise.allSettled(mounting);
  const current = () => mine === jump && !readerMoved;
  let last = NaN, still = 0;
  for (let i = 0; i < 240 && still < 20 && current(); i++) {   // at most about 4 s
    target.scrollIntoView();
    await nextFrame();
    const top = target.getBoundingClientRect().top;
    still = Math.abs(top - last) < 1 ? still + 1 : 0;
    last = top;
  }
  // On a slow machine a block above can still grow after that (an image, a widget's late data):
  // for 15 s more, each time the page's height changes, put the section back, unless the reader moved.
  if (!current() || !window.ResizeObserver) return;
  const observer = new ResizeObserver(() => { if (current()) target.scrollIntoView(); else observer.disconnect(); });
  watch = observer;
  observer.observe(document.body);
  setTimeout(() => observer.disconnect(), 15000);
}
window.addEventListener("hashchange", () => keepSectionInView([]));

function mountAll() {
  const mounting = [];
  for (const element of document.querySelectorAll("[data-widget]:not([data-mounted])")) {
    mounting.push(mountOne(element));
  }
  keepSectionInView(mounting);
  // Each listing's "edit and run" button (bookbuild/playground.py writes it hidden: it needs this
  // script). Its module, ./listing.js, loads on the first press; Python on the first run.
  for (const button of document.querySelectorAll("button.listing-edit[hidden]")) button.hidden = false;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("button.listing-edit");
  if (!button) return;
  import("./listing.js").then((module) => module.open(button)).catch((error) => console.error(error));
});

if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
  window.document$.subscribe(mountAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountAll);
} else {
  mountAll();
}
