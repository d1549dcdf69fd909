// Widget (chapter 10.3): rotate the pairs.
// Move the query's position i and the key's position j: the first two pairs of the query and
// of the key turn as arrows, and the score changes only when i − j changes (the two buttons
// move both together). Every number, arrow end and angle comes from data/widgets/rope.json,
// written by attnkit.rope at build time; the labels come from the same file, in the page's language.
import { el, fill, liveRegion, loadData, num, svg, uid } from "./common.js";

const R = 70;            // the drawing's radius in SVG units
const VIEW = 2 * R + 30;

function slider(label, max, value, role, onInput) {
  const id = uid("rope");
  const output = el("output", { for: id, class: "attn-slider__value" }, String(value));
  const input = el("input", {
    id, type: "range", min: 0, max, step: 1, value, "data-role": role,
    oninput: () => onInput(Number(input.value)),
  });
  return { element: el("div", { class: "attn-slider" }, el("label", { for: id }, label), input, output), input, output };
}

function arrow(x, y, scale, cls) {
  const tipX = x * scale, tipY = -y * scale;          // SVG's y axis points down
  const len = Math.hypot(tipX, tipY) || 1;
  const ux = tipX / len, uy = tipY / len;               // unit vector along the arrow
  const head = `${tipX},${tipY} ${tipX - 9 * ux + 4.5 * uy},${tipY - 9 * uy - 4.5 * ux} ${tipX - 9 * ux - 4.5 * uy},${tipY - 9 * uy + 4.5 * ux}`;
  return svg("g", { class: `attn-rope__arrow ${cls}` },
    svg("line", { x1: 0, y1: 0, x2: tipX, y2: tipY }),
    svg("polygon", { points: head }));
}

export async function mount(root) {
  const data = await loadData("rope");
  const L = data.labels;
  const n = data.n, last = n - 1;
  const state = { i: Number(root.dataset.i ?? 5), j: Number(root.dataset.j ?? 2) };
  // one scale for every arrow: the longest pair drawn fills the circle
  const longest = Math.max(...[...data.q, ...data.k].flat().map((xy) => Math.hypot(xy[0], xy[1])));
  const scale = R / longest;

  const live = liveRegion();
  const sI = slider(L.i, last, state.i, "i", (v) => { state.i = v; draw(); });
  const sJ = slider(L.j, last, state.j, "j", (v) => { state.j = v; draw(); });
  const back = el("button", { type: "button", class: "attn-button", "data-role": "back", onclick: () => shift(-1) }, "← " + L.back);
  const forward = el("button", { type: "button", class: "attn-button", "data-role": "forward", onclick: () => shift(1) }, L.forward + " →");
  const panels = data.pairs.map(() => el("figure", { class: "attn-rope__pair" }));
  const score = el("p", { class: "attn-readout attn-rope__score", "data-role": "score" });
  const rest = el("p", { class: "attn-readout", "data-role": "rest" });
  const same = el("div", { class: "attn-panel", "data-role": "same" });
  // The score sits right under the sliders that change it (on a phone the two pairs below are
  // each a screen tall: the score was 1,300 px from the sliders).
  root.append(el("div", { class: "attn-widget__body" },
    el("div", { class: "attn-sliders" }, sI.element, sJ.element),
    el("div", { class: "attn-widget__controls" }, back, forward),
    score,
    el("div", { class: "attn-rope__pairs" }, panels),
    rest, same, live));

  function shift(step) {
    const i = state.i + step, j = state.j + step;
    if (Math.min(i, j) < 0 || Math.max(i, j) > last) return;
    state.i = i; state.j = j;
    draw();
  }

  function draw() {
    const { i, j } = state;
    sI.input.value = i; sI.output.textContent = String(i);
    sJ.input.value = j; sJ.output.textContent = String(j);
    back.disabled = Math.min(i, j) === 0;
    forward.disabled = Math.max(i, j) === last;
    const offset = i - j;
    data.pairs.forEach((p, s) => {
      const [qx, qy] = data.q[i][s], [kx, ky] = data.k[j][s];
      const picture = svg("svg", { viewBox: `${-VIEW / 2} ${-VIEW / 2} ${VIEW} ${VIEW}`, class: "attn-rope__plane",
        role: "img", "aria-label": fill(L.arrows, { p }) },
        svg("circle", { cx: 0, cy: 0, r: R, class: "attn-rope__circle" }),
        svg("line", { x1: -R - 8, x2: R + 8, y1: 0, y2: 0, class: "attn-axis" }),
        svg("line", { y1: -R - 8, y2: R + 8, x1: 0, x2: 0, class: "attn-axis" }),
        arrow(data.k[0][s][0], data.k[0][s][1], scale, "is-k is-start"),
        arrow(data.q[0][s][0], data.q[0][s][1], scale, "is-q is-start"),
        arrow(kx, ky, scale, "is-k"),
        arrow(qx, qy, scale, "is-q"),
        svg("text", { x: qx * scale * 1.12, y: -qy * scale * 1.12 + 4, class: "attn-rope__name is-q", "text-anchor": "middle" }, "q"),
        svg("text", { x: kx * scale * 1.12, y: -ky * scale * 1.12 + 4, class: "attn-rope__name is-k", "text-anchor": "middle" }, "k"),
      );
      panels[s].replaceChildren(
        el("figcaption", { class: "attn-panel__title" }, fill(L.pair, { p, w: num(data.omega[s], 1) })),
        picture,
        el("p", { class: "attn-readout", "data-role": `turns-${p}` },
          fill(L.turns, { qa: num(data.turn[i][s], 1), ka: num(data.turn[j][s], 1), gap: num(data.gap[offset + last][s], 1) })),
        el("p", { class: "attn-readout", "data-role": `adds-${p}` }, fill(L.adds, { v: num(data.parts[i][j][s], 3) })),
      );
    });
    rest.textContent = fill(L.rest, { n: data.d / 2 - data.pairs.length, v: num(data.rest[i][j], 3) });
    score.textContent = `${fill(L.score, { d: data.d, n: data.d / 2, v: num(data.scores[i][j], 4) })} · ${fill(L.offset, { d: offset })}`;
    // up to four other query positions a with the same offset (key at a − offset), spread over the range
    const lo = Math.max(0, offset), hi = Math.min(last, last + offset);
    const others = [];
    for (let step = 0; step < 5 && others.length < 4; step += 1) {
      const a = lo + Math.round((step * (hi - lo)) / 4);
      if (a !== i && !others.some(([b]) => b === a)) others.push([a, a - offset]);
    }
    same.replaceChildren(
      el("p", { class: "attn-readout" }, fill(L.same, { d: offset })),
      el("ul", { class: "attn-pairs", "data-role": "pairs" },
        others.map(([a, b]) => el("li", {}, fill(L.other, { a, b, v: num(data.scores[a][b], 4) })))),
    );
    live.textContent = fill(L.live, { i, j, v: num(data.scores[i][j], 4) });
  }
  draw();
}
