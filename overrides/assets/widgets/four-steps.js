// Widget 4: the four steps of attention for one query, one step at a time:
// scores -> divide by sqrt(d_k) -> softmax -> weighted sum, with a slider for the divisor
// (the temperature) that shows softmax sharpening and flattening.
// Data: data/widgets/steps.json (or the examples it shows alone: steps/<id>.json); every slider
// position was computed by attnkit at build time.
import { choiceGroup, el, labelled, listed, liveRegion, loadData, loadPart, num, pct, t, uid } from "./common.js";

const EXPLAIN = {
  zh: [
    "查询 q 和每个键 k 做点积：方向越一致，得分越高。得分可正可负，加起来没有意义。",
    "所有得分除以同一个数（默认是 √dₖ）。除数越大，分差越小；拖动滑块试试。",
    "softmax 把缩放后的得分换算成份额：都不为负，合计 100%，分差被成倍放大。",
    "按份额把每个词的值 v 混合起来：份额越大，它的值在结果里占得越多。",
  ],
  en: [
    "The query q takes a dot product with every key k: the better they line up, the higher the score. Scores may be negative and add up to nothing in particular.",
    "Every score is divided by the same number (by default √dₖ). The bigger the divisor, the smaller the gaps; try the slider.",
    "Softmax turns the scaled scores into shares: none negative, 100% in total, and gaps multiplied.",
    "The values v are mixed by those shares: the bigger a word's share, the more of its value ends up in the result.",
  ],
};

export async function mount(root, { lang }) {
  // data-examples="cat-ball-fun" (or "apple-fruit") shows one query only; default: all. An
  // example's data is fetched when it is first shown, its slider positions (the grid) when a step
  // that divides the scores is first shown (bookbuild/widgets.py PARTS).
  const wanted = (root.dataset.examples || "").split(/\s+/).filter(Boolean);
  const examples = wanted.length ? (await Promise.all(wanted.map((id) => loadPart("steps", id)))).map((part) => part.item)
    : (await loadData("steps")).examples.map((e) => ({ ...e, loaded: false }));
  const shown = async (i) => {
    if (examples[i].loaded === false) examples[i] = (await loadPart("steps", examples[i].id)).item;
    return examples[i];
  };
  const withGrid = async (ex) => {
    if (!ex.grid) ex.grid = (await loadPart("steps", `${ex.id}.grid`)).grid;
    return ex;
  };
  const state = { ex: 0, step: Number(root.dataset.step ?? 0), g: 0 };
  state.g = (await shown(0)).default;
  if (state.step >= 1) await withGrid(examples[0]);
  const live = liveRegion();
  const head = el("div", { class: "attn-widget__controls" });
  const body = el("div", { class: "attn-steps" });
  root.append(head, body, live);

  if (examples.length > 1) {
    const pick = choiceGroup({
      labels: examples.map((e) => e.label), label: t("query"),
      onSelect: async (i) => {
        const ex = await shown(i);
        state.ex = i; state.g = ex.default; slider.max = ex.grid_size - 1; slider.value = state.g; draw();
      },
    });
    head.append(el("span", { class: "attn-label" }, t("query")), pick.element);
  }
  const steps = choiceGroup({
    labels: t("stepNames").map((name, i) => `${i + 1}. ${name}`), selected: state.step,
    label: t("step", { n: "" }).trim(), className: "attn-steps__tabs",
    onSelect: (i) => { state.step = i; draw(); },
  });
  const prev = el("button", { type: "button", class: "attn-button", onclick: () => go(-1) }, "← " + t("prev"));
  const next = el("button", { type: "button", class: "attn-button", onclick: () => go(1) }, t("next") + " →");
  function go(delta) {
    state.step = Math.max(0, Math.min(3, state.step + delta));
    steps.select(state.step);
    draw();
  }
  head.append(steps.element, el("div", { class: "attn-steps__nav" }, prev, next));

  const sliderId = uid("tau");
  const slider = el("input", {
    id: sliderId, type: "range", min: 0, max: examples[0].grid_size - 1, step: 1, value: state.g,
    oninput: () => { state.g = Number(slider.value); draw(); },
  });
  const sliderOut = el("output", { for: sliderId, class: "attn-slider__value" });
  const sliderBox = el("div", { class: "attn-slider attn-slider--wide" },
    el("label", { for: sliderId }, t("scale")), el("span", { class: "attn-hint" }, t("sharper")), slider,
    el("span", { class: "attn-hint" }, t("flatter")), sliderOut);

  const explain = el("p", { class: "attn-explain" });
  const tableWrap = el("div", { class: "attn-scroll" });
  const sumP = el("p", { class: "attn-readout", "data-role": "sum" });
  const outP = el("p", { class: "attn-readout", "data-role": "out" });
  body.append(explain, tableWrap, sliderBox, sumP, outP);

  function draw() {
    const ex = examples[state.ex];
    const s = state.step;
    if (!ex.grid && s >= 1) {          // the first step that divides the scores: fetch the grid, then draw
      withGrid(ex).then(draw, (error) => { live.textContent = String(error); });
      return;
    }
    const g = ex.grid ? ex.grid[state.g] : null;
    prev.disabled = s === 0;
    next.disabled = s === 3;
    if (g) {
      sliderOut.textContent = `${num(g.divisor, 2)}${g.is_sqrt_d_k ? ` = √${ex.d_k}` : ""}`;
      slider.setAttribute("aria-valuetext", `${num(g.divisor, 2)}`);
    }

    const header = el("tr", {}, el("th", { scope: "col" }, t("tokens")),
      el("th", { scope: "col" }, "q · k"),
      s >= 1 ? el("th", { scope: "col" }, `÷ ${num(g.divisor, 2)}`) : null,
      s >= 2 ? el("th", { scope: "col" }, "softmax") : null,
      s >= 3 ? el("th", { scope: "col" }, "v") : null);
    const rows = ex.tokens.map((token, i) => el("tr", { "data-token": i },
      el("th", { scope: "row" }, token),
      el("td", { class: "attn-num", "data-role": "score" }, num(ex.scores[i], 3)),
      s >= 1 ? el("td", { class: "attn-num", "data-role": "scaled" }, num(g.scaled[i], 3)) : null,
      s >= 2 ? el("td", { class: "attn-weight", "data-role": "weight" },
        el("span", { class: "attn-bar", style: `--w:${g.weights[i]}` }), el("span", { class: "attn-num" }, pct(g.weights[i]))) : null,
      s >= 3 ? el("td", { class: "attn-vec" }, listed(ex.v[i].map((x, f) => (Math.abs(x) >= 0.005 ? `${ex.feature_names[f]} ${num(x, 2)}` : null)).filter(Boolean)) || "0") : null));
    const table = el("table", { class: "attn-table" },
      el("caption", {}, `${labelled(t("query"), ex.label)}  ·  dₖ = ${ex.d_k}`), el("thead", {}, header), el("tbody", {}, rows));
    explain.textContent = EXPLAIN[lang][s];
    tableWrap.replaceChildren(table);
    sliderBox.hidden = s < 1;
    sumP.hidden = s < 2;
    outP.hidden = s < 3;
    if (g) {
      sumP.textContent = t("sumIs", { pct: pct(g.weight_sum, 1) });
      // the mix, named by the toy's features (the columns of v), largest first
      const named = g.out.map((x, f) => ({ x, name: ex.feature_names[f] }))
        .filter((f) => Math.abs(f.x) >= 0.005).sort((a, b) => b.x - a.x);
      outP.textContent = `${ex.label}′ = Σ softmax · v = ` + listed(named.map((f) => `${f.name} ${num(f.x, 2)}`));
    }
    live.textContent = labelled(t("step", { n: s + 1 }), t("stepNames")[s]);
  }
  draw();
}
