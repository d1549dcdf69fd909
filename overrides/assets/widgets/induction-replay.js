// Widget: induction-replay. Replays the training of chapter 11's two-layer tiny GPT from the
// checkpoints the build saved: nothing trains in the reader's browser.
// <div class="attn-widget screen-only" data-widget="induction-replay"></div>
//
// A slider over the saved training steps shows, at the chosen step, where the loss of the
// repeated part stands on its curve, each head's previous-token and prefix-matching scores and
// each head's attention on one new sequence. Every number and label comes from
// data/widgets/induction-replay.json (bookbuild/widgets.py, computed by attnkit.induction);
// this file only draws. Tests: tests/test_induction_widget.py.
import { el, fill, liveRegion, loadData, onWidthChange, svg, uid } from "./common.js";

export async function mount(root) {
  const data = await loadData("induction-replay");
  const L = data.labels;
  const n = data.letters.length;
  const last = data.steps.length - 1;
  let at = last;

  const sliderId = uid("ind-step");
  const slider = el("input", { id: sliderId, type: "range", min: 0, max: last, step: 1, value: at, class: "ind-slider",
    "aria-valuetext": "" });
  const stepText = el("output", { for: sliderId, class: "ind-step" });
  const plot = el("div", { class: "gpt-plot ind-plot" });
  const table = el("div", { class: "ind-scores" });
  const mapsTitle = el("p", { class: "attn-label" });
  const maps = el("div", { class: "gpt-maps ind-maps" });
  const live = liveRegion();

  root.classList.add("ind-widget");
  root.append(
    el("p", { class: "attn-hint" }, L.replay),
    el("div", { class: "attn-widget__controls ind-controls" },
      el("label", { for: sliderId, class: "ind-label" }, L.slider), slider, stepText),
    plot, table, mapsTitle, maps, el("p", { class: "attn-hint" }, L.mapsLegend), live);

  slider.addEventListener("input", () => { at = Number(slider.value); draw(true); });

  function stepLabel() {
    return fill(L.step, { step: data.steps[at], steps: data.steps[last], loss: data.repeated[at].toFixed(3) });
  }

  function draw(announce = false) {
    root.dataset.step = String(data.steps[at]);
    const text = stepLabel();
    stepText.textContent = text;
    slider.setAttribute("aria-valuetext", text);
    if (announce) live.textContent = text;
    drawPlot();
    drawTable();
    drawMaps();
  }

  // The chart is drawn in CSS pixels (its width follows the widget's), as in train-gpt.js.
  const H = 200, PAD = { l: 44, r: 12, t: 10, b: 40 };
  let W = 420;
  const yMax = Math.ceil(data.guess * 2) / 2;
  const xOf = (step) => PAD.l + (step / data.steps[last]) * (W - PAD.l - PAD.r);
  const yOf = (loss) => PAD.t + (1 - Math.min(loss, yMax) / yMax) * (H - PAD.t - PAD.b);

  function drawPlot() {
    W = Math.round(Math.min(560, Math.max(240, plot.clientWidth || 420)));
    const line = data.repeated.map((x, i) => `${i ? "L" : "M"}${xOf(data.steps[i]).toFixed(1)},${yOf(x).toFixed(1)}`).join("");
    const yticks = [0, 1, 2].filter((v) => v <= yMax).flatMap((v) => [
      svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(v), y2: yOf(v), class: "gpt-grid" }),
      svg("text", { x: PAD.l - 6, y: yOf(v) + 4, class: "gpt-axis", "text-anchor": "end" }, String(v))]);
    const xticks = [0, 0.5, 1].map((f) => Math.round(f * data.steps[last])).map((s) =>
      svg("text", { x: xOf(s), y: H - PAD.b + 17, class: "gpt-axis", "text-anchor": s === data.steps[last] ? "end" : "middle" }, String(s)));
    const x = xOf(data.steps[at]);
    plot.replaceChildren(
      svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": `${L.loss} / ${L.axisStep}` },
        yticks, xticks,
        svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(data.guess), y2: yOf(data.guess), class: "gpt-guess" }),
        svg("path", { d: line, class: "gpt-live" }),
        svg("line", { x1: x, x2: x, y1: PAD.t, y2: H - PAD.b, class: "ind-now" }),
        svg("circle", { cx: x, cy: yOf(data.repeated[at]), r: 5, class: "ind-dot" }),
        svg("text", { x: (PAD.l + W - PAD.r) / 2, y: H - 4, class: "gpt-axis", "text-anchor": "middle" }, L.axisStep),
        svg("text", { x: 12, y: (PAD.t + H - PAD.b) / 2, class: "gpt-axis", "text-anchor": "middle",
          transform: `rotate(-90 12 ${(PAD.t + H - PAD.b) / 2})` }, L.loss)),
      el("ul", { class: "gpt-legend" },
        el("li", { class: "gpt-legend__live" }, L.curve),
        el("li", { class: "gpt-legend__guess" }, fill(L.guess, { v: data.vocab, loss: data.guess.toFixed(2) }))));
  }

  function drawTable() {
    const rows = data.heads.map((name, k) => el("tr", {},
      el("th", { scope: "row" }, name),
      el("td", {}, data.previous[at][k].toFixed(2)),
      el("td", {}, data.prefix[at][k].toFixed(2))));
    table.replaceChildren(el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, L.head), el("th", { scope: "col" }, L.previous),
        el("th", { scope: "col" }, L.prefix))),
      el("tbody", {}, rows)));
  }

  function drawMaps() {
    mapsTitle.textContent = fill(L.mapsTitle, { example: data.letters.join(""), step: data.steps[at] });
    const cell = 13, left = 16, top = 4;
    const size = left + n * cell + 4, height = top + n * cell + 18;
    maps.replaceChildren(...data.maps[at].map((tri, k) => {
      const cells = [];
      let m = 0;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j <= i; j++, m++) {
          cells.push(svg("rect", { x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1,
            class: "gpt-cell", "fill-opacity": Math.max(0.04, tri[m] / 100).toFixed(2) }));
        }
      }
      const rows = data.letters.map((c, i) => svg("text", { x: left - 4, y: top + i * cell + 10, class: "ind-tick", "text-anchor": "end" }, c));
      const cols = data.letters.map((c, j) => svg("text", { x: left + j * cell + cell / 2, y: top + n * cell + 13, class: "ind-tick", "text-anchor": "middle" }, c));
      const split = top + data.split * cell - 0.5;
      return el("figure", { class: "gpt-map", "data-head": k },
        svg("svg", { viewBox: `0 0 ${size} ${height}`, width: size, height, role: "img", "aria-label": `${data.heads[k]}: ${L.query} × ${L.key}` },
          cells, rows, cols, svg("line", { x1: left, x2: left + n * cell, y1: split, y2: split, class: "gpt-split" })),
        el("figcaption", {}, data.heads[k]));
    }));
  }

  onWidthChange(plot, drawPlot);
  draw();
}
