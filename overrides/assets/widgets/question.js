// Widget: question. A checked question with one right answer: a choice, or a number.
// <div class="attn-widget screen-only" data-widget="question" data-question="ch3-softmax-shift"></div>
// sits inside the question the page wrote (bookbuild/questions.py, {{ question("ch3-softmax-shift") }}):
// <div class="attn-question" id="question-ch3-softmax-shift"> with the prompt, the choices (a list,
// with the page's formulas) and the answer in a fold, whose list says why each choice is right or
// wrong (or how the number is found, and why the usual wrong numbers are wrong).
//
// The widget turns the choices into radio buttons (the list's own nodes, copied: formulas stay as
// the build rendered them), or gives a box for the number, and a Check button. The right answer
// comes from data/widgets/exercises/question-<id>.json (its part of exercises.json, bookbuild/widgets.py;
// attnkit computed it, bookbuild/questions.py); the verdict
// says why for that very answer (the fold's own sentence, copied), and the fold opens to a reader
// who has tried. The answer is kept in localStorage (./work.js) and counted with the chapter's
// exercises. Tests: tests/test_handin.py.
import { el, fill, liveRegion, loadData, loadPart, uid } from "./common.js";
import { KEYS, store, storedAnswer } from "./work.js";

const LETTERS = "ABCDEFGH";

/**
 * A number as a reader types it: "0.25", "−1", "1,024", "94.6%", "3/8", full-width digits.
 * Returns {value, percent} or null when it is not a number.
 */
export function parseNumber(text) {
  let s = String(text).normalize("NFKC").replace(/[\s\u00a0\u2009\u202f]/g, "").replace(/[\u2212\u2013\u2014]/g, "-");
  let percent = false;
  if (s.endsWith("%")) { percent = true; s = s.slice(0, -1); }
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, "");
  let value = null;
  const fraction = s.match(/^([-+]?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/);
  if (fraction) value = Number(fraction[1]) / Number(fraction[2]);
  else if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) value = Number(s);
  if (value === null || !Number.isFinite(value)) return null;
  return { value, percent };
}

/**
 * The verdict on a typed number for question ``q`` (its data): "right", "close" (within ten
 * times the tolerance: more decimals needed), "fraction" (a share typed where a percentage is
 * asked), a known mistake's index ("mistake", i), "wrong", or "invalid".
 */
export function judgeNumber(q, text) {
  const parsed = parseNumber(text);
  if (!parsed) return { verdict: "invalid" };
  let { value } = parsed;
  if (parsed.percent && !q.percent) value /= 100;            // 94.6% where 0.946 is asked: the same number
  const near = (x, tol = q.tolerance) => Math.abs(value - x) <= tol;
  if (near(q.value)) return { verdict: "right" };
  const mistake = q.mistakes.findIndex((m) => near(m));
  if (mistake >= 0) return { verdict: "mistake", index: mistake };
  if (q.percent && !parsed.percent && Math.abs(100 * value - q.value) <= q.tolerance) return { verdict: "fraction" };
  if (q.decimals > 0 && near(q.value, 10 * q.tolerance)) return { verdict: "close" };
  return { verdict: "wrong" };
}

export async function mount(root) {
  const id = root.dataset.question;
  const [data, part] = await Promise.all([loadData("exercises/shared"), loadPart("exercises", `question-${id}`)]);
  const L = data.labels;                      // bookbuild/widgets.py parts()
  const q = part.item;
  const block = root.closest(".attn-question");
  if (!block) throw new Error(`question "${id}" is not inside its .attn-question`);
  const fold = block.querySelector(".q-answer");
  const promptId = `${block.id}-prompt`;
  const copy = (node) => [...node.childNodes].map((child) => child.cloneNode(true));
  const places = (n) => L.places[n === 1 ? 0 : 1];

  const check = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "check" }, L.qCheck);
  const verdict = el("p", { class: "q-verdict", "data-state": "idle" });
  const why = el("div", { class: "q-why" });
  const feedback = el("div", { class: "q-feedback", hidden: true }, verdict, why);
  const live = liveRegion();
  let answerOf;      // () => the reader's answer as text ("" if none)
  let setAnswer;     // (text) => put a remembered answer back

  if (q.kind === "choice") {
    const items = [...block.querySelectorAll(".q-choices > ol > li")];
    if (items.length !== q.choices) throw new Error(`question "${id}": ${items.length} choices in the page, ${q.choices} in its data`);
    const name = uid("q-choice");
    const inputs = items.map((_, i) => el("input", { type: "radio", name, value: String(i), id: uid("q-option") }));
    const group = el("div", { class: "q-options", role: "radiogroup", "aria-labelledby": promptId },
      items.map((item, i) => el("div", { class: "q-option" }, inputs[i],
        el("label", { for: inputs[i].id }, el("span", { class: "q-letter" }, `${LETTERS[i]}.`), " ", ...copy(item)))));
    root.append(group);
    block.dataset.ready = "yes";            // the page's own list of choices gives way to these (widgets.css)
    answerOf = () => { const chosen = inputs.find((input) => input.checked); return chosen ? chosen.value : ""; };
    setAnswer = (text) => { const input = inputs[Number(text)]; if (input) input.checked = true; };
  } else {
    const inputId = uid("q-number");
    const helpId = uid("q-help");
    const format = q.percent ? fill(L.qPercent, { n: q.decimals, places: places(q.decimals) })
      : q.decimals ? fill(L.qDecimals, { n: q.decimals, places: places(q.decimals) }) : L.qWhole;
    const input = el("input", { type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false",
      id: inputId, class: "q-input", "aria-describedby": `${promptId} ${helpId}` });
    root.append(el("div", { class: "q-number" },
      el("label", { for: inputId, class: "q-number__label" }, L.qYourAnswer), input,
      el("span", { id: helpId, class: "attn-hint q-number__help" }, format)));
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); judge(); } });
    answerOf = () => input.value.trim();
    setAnswer = (text) => { input.value = text; };
  }
  root.append(el("div", { class: "attn-widget__controls" }, check), feedback, live);

  // The fold's own sentences, copied: why a choice is right or wrong; why a known mistake is one.
  function reasonFor(result) {
    if (q.kind === "choice") return fold && fold.querySelectorAll(".q-whys > ol > li")[result.index];
    if (result.verdict === "mistake") return fold && fold.querySelectorAll(".q-mistakes li")[result.index];
    return null;
  }

  function show(result, announce) {
    const right = result.verdict === "right";
    verdict.dataset.state = right ? "right" : result.verdict === "invalid" || result.verdict === "none" ? "invalid" : "wrong";
    const words = {
      right: L.qRight, wrong: q.kind === "choice" ? L.qWrong : L.qWrongNumber, mistake: L.qWrong,
      close: fill(L.qClose, { n: q.decimals, places: places(q.decimals) }), fraction: L.qFraction, invalid: L.qInvalid, none: L.qPick,
    };
    verdict.textContent = words[result.verdict];
    const reason = reasonFor(result);
    why.replaceChildren(...(reason ? copy(reason) : []));
    feedback.hidden = false;
    if (result.verdict !== "invalid" && result.verdict !== "none") {
      block.dataset.tried = "yes";
      block.dataset.right = String(right);
      if (fold && right) fold.open = true;
    }
    if (announce) live.textContent = [verdict.textContent, why.textContent.trim()].filter(Boolean).join(" ");
  }

  function judge() {
    const answer = answerOf();
    let result;
    if (q.kind === "choice") {
      result = answer === "" ? { verdict: "none" } : { verdict: Number(answer) === q.right ? "right" : "wrong", index: Number(answer) };
    } else {
      result = answer === "" ? { verdict: "invalid" } : judgeNumber(q, answer);
    }
    show(result, true);
    if (!["invalid", "none"].includes(result.verdict)) {
      store(KEYS.answer(id), JSON.stringify({ answer, right: result.verdict === "right" }));
    }
  }

  check.addEventListener("click", judge);
  const saved = storedAnswer(id);
  if (saved) {
    setAnswer(saved.answer);
    const result = q.kind === "choice"
      ? { verdict: Number(saved.answer) === q.right ? "right" : "wrong", index: Number(saved.answer) }
      : judgeNumber(q, saved.answer);
    show(result, false);
  }
}
