// The attention view shared by "click a word", "switch the scene" and "your own sentence":
// pick a word (click, tap, or arrow keys); lines go to every word it attends to, thicker for
// more weight; exact percentages on demand; a bar shows what its new meaning is mixed from.
import { choiceGroup, el, labelled, listed, liveRegion, num, pct, svg, t, uid } from "./common.js";

const ROW = 30, WIDTH = 340, LEFT = 92, RIGHT = 248;

/**
 * sentence: {tokens, known?, focus, step, steps: [{weights (n x n), out (n x d)}]}
 * options: {featureNames, showRounds (default true)}
 * Returns {element, setSentence(sentence, keepFocus)}.
 */
export function attentionView({ sentence, featureNames, showRounds = true }) {
  const state = { s: sentence, i: sentence.focus, round: sentence.step - 1, numbers: false };
  const root = el("div", { class: "attn-view" });
  const live = liveRegion();
  const rounds = choiceGroup({
    labels: t("roundNames"), selected: state.round, label: t("rounds"),
    className: "attn-rounds", onSelect: (r) => { state.round = r; draw(); },
  });
  const numbersId = uid("numbers");
  const numbers = el("input", { type: "checkbox", id: numbersId, onchange: () => { state.numbers = numbers.checked; draw(); } });
  const controls = el("div", { class: "attn-widget__controls" },
    showRounds ? el("span", { class: "attn-label" }, t("rounds")) : null, showRounds ? rounds.element : null,
    el("span", { class: "attn-check" }, numbers, el("label", { for: numbersId }, t("showNumbers"))));
  const pickerBox = el("div", { class: "attn-picker" });
  const diagram = el("div", { class: "attn-diagram" });
  const mix = el("div", { class: "attn-mix" });
  root.append(controls, el("p", { class: "attn-label" }, t("pickWord")), pickerBox, diagram, mix, live);
  let picker = null;

  function buildPicker() {
    picker = choiceGroup({
      labels: state.s.tokens, selected: state.i, label: t("pickWord"), className: "attn-tokens",
      onSelect: (i) => { state.i = i; draw(); },
    });
    picker.buttons.forEach((b, i) => {
      b.setAttribute("dir", "auto");
      if (state.s.known && !state.s.known[i]) b.classList.add("is-unknown");
    });
    pickerBox.replaceChildren(picker.element);
  }

  function draw() {
    const { tokens } = state.s;
    const n = tokens.length;
    const step = state.s.steps[state.round];
    const weights = step.weights[state.i];
    const word = tokens[state.i];
    const height = n * ROW + 4;
    const y = (j) => 15 + j * ROW;
    // The two column heads are HTML above the picture (attn-cols), so they keep the page's text
    // size on a phone; drawn in the picture they shrank with it to 9 px at 375 px.
    const chart = svg("svg", {
      viewBox: `0 0 ${WIDTH} ${height}`, class: "attn-arcs", role: "img",
      "aria-label": `${t("attendsTo", { word })} ` + listed(tokens.map((tok, j) => `${tok} ${pct(weights[j])}`)),
    });
    tokens.forEach((tok, j) => {
      const w = weights[j];
      chart.append(svg("line", {
        x1: LEFT, y1: y(state.i), x2: RIGHT, y2: y(j), class: "attn-link",
        "stroke-width": (0.5 + 14 * w).toFixed(2), "stroke-opacity": (0.2 + 0.8 * w).toFixed(3),
        "data-to": j, "data-weight": w,
      }, svg("title", {}, t("weightOf", { word: tok, pct: pct(w) }))));
    });
    tokens.forEach((tok, j) => {
      chart.append(svg("text", { x: LEFT - 8, y: y(j) + 5, "text-anchor": "end", class: j === state.i ? "attn-tok is-speaker" : "attn-tok" }, tok));
      chart.append(svg("text", { x: RIGHT + 8, y: y(j) + 5, class: "attn-tok", "font-weight": weights[j] >= 0.2 ? 700 : 400 }, tok));
      if (state.numbers) {
        chart.append(svg("text", { x: WIDTH - 2, y: y(j) + 5, "text-anchor": "end", class: "attn-pct", "data-to": j }, pct(weights[j])));
      }
    });
    // A row where every share is the same has no favourite: say why instead of leaving the
    // reader to look for one (equal shares come only from equal scores, the rule of softmax).
    const even = Math.max(...weights) - Math.min(...weights) < 1e-9;
    const heads = el("div", { class: "attn-cols", "aria-hidden": "true" },
      el("span", {}, t("speaker")), el("span", {}, t("listened")));
    diagram.replaceChildren(...[heads, chart,
      even && n > 1 ? el("p", { class: "attn-hint attn-even", "data-role": "even" }, t("evenShare", { word, n, pct: pct(1 / n) })) : null,
    ].filter(Boolean));

    const segments = tokens.map((tok, j) => el("span", {
      class: `attn-seg attn-seg--${j % 6}`, style: `flex-grow:${weights[j]}`, "data-to": j, "data-weight": weights[j],
      title: t("weightOf", { word: tok, pct: pct(weights[j]) }),
    }, weights[j] >= 0.12 ? tok : ""));
    const features = step.out[state.i]
      .map((value, f) => ({ value, name: featureNames[f] }))
      .filter((f) => Math.abs(f.value) >= 0.005)
      .sort((a, b) => b.value - a.value)
      .map((f) => el("li", {}, `${f.name} ${num(f.value, 2)}`));
    // Only Nodes here: replaceChildren and append turn null into the text "null" (issue 27).
    mix.replaceChildren(...[
      el("p", { class: "attn-label" }, t("mixedFrom")),
      el("div", { class: "attn-mixbar", role: "img", "aria-label": labelled(t("mixedFrom"), listed(tokens.map((tok, j) => `${tok} ${pct(weights[j])}`))) }, segments),
      features.length ? el("p", { class: "attn-hint" }, t("newMeaning", { word })) : el("p", { class: "attn-hint" }, t("mixesNothing", { word })),
      features.length ? el("ul", { class: "attn-features" }, features) : null,
    ].filter(Boolean));
    const order = weights.map((w, j) => j).sort((a, b) => weights[b] - weights[a]).slice(0, 3);
    live.textContent = `${t("attendsTo", { word })} ` + listed(order.map((j) => `${tokens[j]} ${pct(weights[j])}`));
  }

  function setSentence(sentence, keepFocus = false) {
    state.s = sentence;
    state.i = keepFocus ? sentence.focus : Math.min(state.i, sentence.tokens.length - 1);
    state.round = keepFocus ? sentence.step - 1 : state.round;
    rounds.select(state.round);
    buildPicker();
    draw();
  }

  buildPicker();
  draw();
  return { element: root, setSentence };
}
