// Widget 5: the positional-encoding explorer.
// Pick two positions and a dimension: see PE values (sin/cos) and the dot product of the two
// encodings, which depends only on the distance between the positions.
// Data: data/widgets/positions.json (attnkit.sinusoidal_positional_encoding, written by the build).
import { el, labelled, liveRegion, loadData, num, svg, t, uid } from "./common.js";

const W = 560, H = 170, PAD = 28;

function slider(label, max, value, onInput) {
  const id = uid("pe");
  const output = el("output", { for: id, class: "attn-slider__value" }, String(value));
  const input = el("input", {
    id, type: "range", min: 0, max, step: 1, value,
    oninput: () => { output.textContent = input.value; onInput(Number(input.value)); },
  });
  return { element: el("div", { class: "attn-slider" }, el("label", { for: id }, label), input, output), input, output };
}

function lineChart(values, lo, hi, marks, label) {
  const n = values.length;
  const x = (i) => PAD + (i * (W - 2 * PAD)) / (n - 1);
  const y = (v) => H - PAD - ((v - lo) / (hi - lo)) * (H - 2 * PAD);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "attn-chart", role: "img", "aria-label": label },
    svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "attn-axis" }),
    svg("polyline", { points, class: "attn-line" }),
    svg("text", { x: 4, y: y(hi) + 4, class: "attn-tick" }, num(hi, 0)),
    svg("text", { x: 4, y: y(lo) + 4, class: "attn-tick" }, num(lo, 0)),
    svg("text", { x: PAD, y: H - 6, class: "attn-tick" }, "0"),
    svg("text", { x: W - PAD, y: H - 6, class: "attn-tick", "text-anchor": "end" }, String(n - 1)),
  );
  for (const { i, name, cls } of marks) {
    chart.append(
      svg("line", { x1: x(i), x2: x(i), y1: PAD / 2, y2: H - PAD, class: `attn-mark ${cls}` }),
      svg("circle", { cx: x(i), cy: y(values[i]), r: 5, class: `attn-dot ${cls}` }),
      svg("text", { x: x(i), y: PAD / 2 - 2, class: `attn-tick ${cls}`, "text-anchor": "middle" }, name),
    );
  }
  return chart;
}

export async function mount(root) {
  const data = await loadData("positions");
  const n = data.pe.length, d = data.d_model;
  // PE[i] · PE[j] for every pair: the build sends the upper triangle (row i from column i on)
  const dots = data.sim.map((_, i) => data.sim.map((__, j) => (i <= j ? data.sim[i][j - i] : data.sim[j][i - j])));
  const state = { a: Number(root.dataset.a ?? 3), b: Number(root.dataset.b ?? 7), j: Number(root.dataset.dim ?? 0) };
  const live = liveRegion();
  const sliders = el("div", { class: "attn-sliders" });
  const wave = el("div", { class: "attn-panel" });
  const sim = el("div", { class: "attn-panel" });
  root.append(el("div", { class: "attn-widget__body" }, sliders, wave, sim, live));

  const sA = slider(t("positionA"), n - 1, state.a, (v) => { state.a = v; draw(); });
  const sB = slider(t("positionB"), n - 1, state.b, (v) => { state.b = v; draw(); });
  const sJ = slider(t("dimension"), d - 1, state.j, (v) => { state.j = v; draw(); });
  sliders.append(sA.element, sB.element, sJ.element);

  function draw() {
    const { a, b, j } = state;
    const column = data.pe.map((row) => row[j]);
    const info = data.dims[j];
    const peText = (p) => t("peValue", { p, j, fn: info.fn, two_i: info.two_i, d, v: num(data.pe[p][j], 4) });
    wave.replaceChildren(
      el("p", { class: "attn-panel__title" }, `${t("dimensionOf", { j, fn: info.fn })} · ${t("position")} 0–${n - 1}`),
      lineChart(column, -1, 1, [{ i: a, name: "A", cls: "is-a" }, { i: b, name: "B", cls: "is-b" }], `${t("dimension")} ${j}`),
      el("p", { class: "attn-readout", "data-role": "pe-a" }, peText(a)),
      el("p", { class: "attn-readout", "data-role": "pe-b" }, peText(b)),
    );
    const dist = Math.abs(a - b);
    const row = dots[a];
    const others = [];
    for (let p = 0; p + dist < n && others.length < 4; p += Math.max(1, Math.floor((n - dist) / 4))) {
      if (p !== Math.min(a, b)) others.push(p);
    }
    const lo = Math.min(...dots.flat()), hi = Math.max(...dots.flat());
    sim.replaceChildren(
      el("p", { class: "attn-panel__title" }, labelled(t("similarity"), `PE[${a}] · PE[${b}]`)),
      lineChart(row, Math.floor(lo), Math.ceil(hi), [{ i: a, name: "A", cls: "is-a" }, { i: b, name: "B", cls: "is-b" }], `PE[${a}] · PE[p]`),
      el("p", { class: "attn-readout", "data-role": "sim" },
        labelled(`${t("distance")} |A − B| = ${dist}`, `PE[${a}] · PE[${b}] = ${num(dots[a][b], 4)}`)),
      el("p", { class: "attn-readout" }, t("samePairs", { d: dist })),
      el("ul", { class: "attn-pairs", "data-role": "pairs" },
        others.map((p) => el("li", {}, `PE[${p}] · PE[${p + dist}] = ${num(dots[p][p + dist], 4)}`))),
    );
    live.textContent = labelled(`A = ${a}, B = ${b}`, num(dots[a][b], 4));
  }
  draw();
}
