// Widget: induction-replay. Chapter 11's two-layer attention-only tiny GPT, over training: a
// replay of the run the book's build saved, and the same training live, in the reader's browser.
// <div class="attn-widget screen-only" data-widget="induction-replay" data-python></div>
//
// A slider over the saved steps shows, at the chosen step, where the loss of the repeated part
// stands on its curve, each head's previous-token and prefix-matching scores and one head's
// attention on a new sequence. "Train in your browser" runs attnkit.induction.live_reset /
// live_run in the tab's one Python (./python.js, as chapter 8's train-gpt.js does): the same
// training, chunk by chunk, each chunk measured as the build measured its checkpoints. Every
// number and label comes from data/widgets/induction-replay.json (bookbuild/widgets.py) or from
// Python, already rounded there; this file only draws. Tests: tests/test_induction_widget.py.
import { choiceGroup, el, fill, liveRegion, loadData, onWidthChange, svg, uid } from "./common.js";
import * as python from "./python.js";

export async function mount(root) {
  const data = await loadData("induction-replay");
  const L = data.labels;
  const n = data.letters.length;
  const total = data.steps.at(-1);
  const build = { steps: data.steps, loss: data.loss, lossText: data.lossText, previous: data.previous,
    prefix: data.prefix, maps: data.maps };
  const state = {
    show: "build", at: data.steps.length - 1, head: data.show,
    live: emptyRun(), seed: data.seed,
    started: false, ready: false, running: false, busy: false, generation: 0, runs: 0, error: null,
  };

  function emptyRun() {
    return { steps: [], loss: [], lossText: [], previous: [], prefix: [], maps: [] };
  }

  // ---- controls -----------------------------------------------------------------------------
  const startButton = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "start" }, L.start);
  const seedId = uid("ind-seed");
  const seedInput = el("input", { id: seedId, type: "number", min: 0, max: 9999, step: 1, value: data.seed,
    class: "gpt-seed", inputmode: "numeric" });
  const status = el("p", { class: "gpt-status ind-status", "data-state": "idle" }, L.idle);
  const check = el("p", { class: "attn-hint ind-check" });
  const shownGroup = choiceGroup({ labels: [L.showBuild, L.showLive], label: L.show, className: "ind-show",
    onSelect: (i) => { state.show = i ? "live" : "build"; state.at = shown().steps.length - 1; draw(true); } });
  const sliderId = uid("ind-step");
  const slider = el("input", { id: sliderId, type: "range", min: 0, max: data.steps.length - 1, step: 1,
    value: state.at, class: "ind-slider", "aria-valuetext": "" });
  const stepText = el("output", { for: sliderId, class: "ind-step" });
  const plot = el("div", { class: "gpt-plot ind-plot" });
  const table = el("div", { class: "ind-scores" });
  const headGroup = choiceGroup({ labels: data.heads, selected: state.head, label: L.pick, className: "ind-heads",
    onSelect: (i) => { state.head = i; drawMap(); } });
  const mapTitle = el("p", { class: "attn-label ind-map-title" });
  const map = el("div", { class: "ind-map" });
  const live = liveRegion();

  root.classList.add("ind-widget");
  root.append(
    el("p", { class: "attn-hint" }, L.intro),
    el("div", { class: "attn-widget__controls" }, startButton,
      el("label", { for: seedId, class: "gpt-field" }, L.seed, seedInput)),
    el("p", { class: "attn-hint" }, L.changeResets),
    status, check,
    el("div", { class: "attn-widget__controls ind-show-row" }, el("span", { class: "ind-label" }, L.show), shownGroup.element),
    el("div", { class: "attn-widget__controls ind-controls" },
      el("label", { for: sliderId, class: "ind-label" }, L.slider), slider, stepText),
    plot, table,
    el("p", { class: "ind-label" }, L.pick), headGroup.element,
    mapTitle, map, el("p", { class: "attn-hint" }, L.mapLegend), live);

  startButton.addEventListener("click", press);
  seedInput.addEventListener("change", () => {
    const seed = Math.round(Number(seedInput.value));
    state.seed = Number.isFinite(seed) ? Math.min(9999, Math.max(0, seed)) : data.seed;
    seedInput.value = state.seed;
    reset();
  });
  slider.addEventListener("input", () => { state.at = Number(slider.value); draw(true); });

  // ---- the worker (as in train-gpt.js) --------------------------------------------------------
  function ensureWorker() {
    if (state.started) return;
    state.started = true;
    if (!python.isReady()) {
      setStatus("loading", L.loading, true);
      root.setAttribute("aria-busy", "true");
    }
    python.warm().then((m) => onMessage(m), (error) => onMessage({ type: "failed", text: error.message }));
  }

  // Each run's messages carry this widget's own id ("generation:run"): a run that a reset made
  // old is told apart from the current one.
  function send(kind, vars) {
    state.busy = true;
    state.runs += 1;
    const id = `${state.generation}:${state.runs}`;
    python.run(fill(data.code[kind], vars), (m) => onMessage({ ...m, id })).catch((error) => {
      state.busy = false;
      state.started = false;
      state.ready = false;
      fail(L.failed, error.message);
    });
  }

  function onMessage(message) {
    if (message.type === "ready") {
      state.ready = true;
      root.removeAttribute("aria-busy");
      if (state.running) setStatus("running", fill(L.started, { steps: total }), true);
      send("reset", { seed: state.seed });
      return;
    }
    if (message.type === "failed") {
      state.started = false;
      state.ready = false;
      return fail(L.failed, message.text);
    }
    if (!message.id) return;
    const current = message.id.startsWith(`${state.generation}:`);
    if (message.type === "induction" && current) {
      keep(message.data);
    } else if (message.type === "error" && current) {
      fail(L.error, message.data.text.trim().split("\n").pop());
    } else if (message.type === "stderr" && current) {
      console.warn(message.text);
    } else if (message.type === "done") {
      state.busy = false;
      if (!current) { if (state.ready) send("reset", { seed: state.seed }); return; }   // a reset arrived mid-run
      if (!state.running && status.dataset.state === "pausing") paused();
      next();
    }
  }

  function keep(mark) {
    const run = state.live;
    if (mark.step === 0) Object.assign(run, emptyRun());
    if (run.steps.at(-1) === mark.step) return;
    run.steps.push(mark.step);
    for (const k of ["loss", "lossText", "previous", "prefix", "maps"]) run[k].push(mark[k]);
    if (state.show === "live" || state.running) {
      state.show = "live";
      state.at = run.steps.length - 1;
    }
    draw(false);
  }

  function next() {
    if (!root.isConnected) { state.running = false; return; }   // the reader left the page: free the tab's Python
    if (state.error || !state.ready || state.busy) return;
    const step = state.live.steps.at(-1) ?? 0;
    if (state.running && step < total) {
      send("run", { k: Math.min(data.every, total - step) });
    } else if (state.running) {
      state.running = false;
      buttons();
      setStatus("done", fill(L.done, { steps: step, loss: state.live.lossText.at(-1) }), true);
    }
  }

  // ---- actions (one button whose label says what pressing it does, as in train-gpt.js) --------
  function press() {
    if (state.running) return pause();
    if (state.error || (state.live.steps.at(-1) ?? 0) >= total) reset();
    start();
  }

  function start() {
    state.running = true;
    state.show = "live";
    buttons();
    if (!state.started) { draw(false); return ensureWorker(); }   // "ready" sends the reset, whose "done" starts the steps
    setStatus("running", runningText(), true);
    next();
  }

  function pause() {
    state.running = false;
    buttons();
    if (state.busy) setStatus("pausing", fill(L.pausing, { step: state.live.steps.at(-1) ?? 0 }), true);
    else paused();
  }

  function paused() {
    setStatus("paused", fill(L.paused, { step: state.live.steps.at(-1) ?? 0, loss: state.live.lossText.at(-1) ?? "–" }), true);
  }

  function reset() {
    state.running = false;
    state.generation += 1;
    state.live = emptyRun();
    state.error = null;
    state.show = "build";
    state.at = data.steps.length - 1;
    buttons();
    setStatus("idle", L.idle, true);
    if (state.ready && !state.busy) send("reset", { seed: state.seed });
    draw(false);
  }

  function fail(template, error) {
    state.running = false;
    state.error = String(error);
    root.removeAttribute("aria-busy");
    buttons();
    setStatus("failed", fill(template, { error: state.error }), true);
  }

  function buttons() {
    const step = state.live.steps.at(-1) ?? 0;
    startButton.textContent = state.running ? L.pause
      : state.error ? L.retry
      : step >= total ? L.again
      : step > 0 ? L.resume : L.start;
  }

  function setStatus(kind, text, announce = false) {
    status.dataset.state = kind;
    status.textContent = text;
    if (announce) live.textContent = text;
  }

  function runningText() {
    return fill(L.running, { step: state.live.steps.at(-1) ?? 0, steps: total, loss: state.live.lossText.at(-1) ?? "–" });
  }

  // ---- drawing ------------------------------------------------------------------------------
  function shown() {
    return state.show === "live" && state.live.steps.length ? state.live : build;
  }

  function draw(announce) {
    const run = shown();
    state.at = Math.min(state.at, run.steps.length - 1);
    shownGroup.select(run === build ? 0 : 1);
    shownGroup.buttons[1].disabled = !state.live.steps.length;
    slider.max = String(run.steps.length - 1);
    slider.value = String(state.at);
    root.dataset.step = String(run.steps[state.at]);
    root.dataset.show = run === build ? "build" : "live";
    root.dataset.liveStep = String(state.live.steps.at(-1) ?? 0);
    const text = fill(L.step, { step: run.steps[state.at], steps: total, loss: run.lossText[state.at] });
    stepText.textContent = text;
    slider.setAttribute("aria-valuetext", text);
    if (announce) live.textContent = text;
    if (state.running && state.live.steps.length) {
      setStatus("running", runningText());
      if (state.live.steps.length % 5 === 0) live.textContent = runningText();
    }
    drawCheck();
    drawPlot();
    drawTable();
    drawMap();
  }

  function drawCheck() {
    const run = state.live;
    if (!run.steps.length || run.steps.at(-1) === 0) { check.textContent = ""; return; }
    if (state.seed !== data.seed) { check.textContent = L.otherSeed; return; }
    let last = 0;
    for (let i = 0; i < run.steps.length; i++) {
      const j = data.steps.indexOf(run.steps[i]);
      if (j < 0) continue;
      if (Math.abs(run.loss[i] - build.loss[j]) > data.tolerance) {
        check.dataset.matches = "false";
        check.textContent = fill(L.parted, { last, step: run.steps[i], a: run.loss[i].toFixed(6), b: build.loss[j].toFixed(6) });
        return;
      }
      last = run.steps[i];
    }
    check.dataset.matches = "true";
    check.textContent = fill(L.same, { step: last });
  }

  // The chart is drawn in CSS pixels (its width follows the widget's), as in train-gpt.js.
  const H = 200, PAD = { l: 44, r: 12, t: 10, b: 40 };
  let W = 420;
  const yMax = Math.ceil(data.guess * 2) / 2;
  const xOf = (step) => PAD.l + (step / total) * (W - PAD.l - PAD.r);
  const yOf = (loss) => PAD.t + (1 - Math.min(loss, yMax) / yMax) * (H - PAD.t - PAD.b);
  const line = (run) => run.loss.map((x, i) => `${i ? "L" : "M"}${xOf(run.steps[i]).toFixed(1)},${yOf(x).toFixed(1)}`).join("");

  function drawPlot() {
    W = Math.round(Math.min(560, Math.max(240, plot.clientWidth || 420)));
    const run = shown();
    const yticks = [0, 1, 2, 3].filter((v) => v <= yMax).flatMap((v) => [
      svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(v), y2: yOf(v), class: "gpt-grid" }),
      svg("text", { x: PAD.l - 6, y: yOf(v) + 4, class: "gpt-axis", "text-anchor": "end" }, String(v))]);
    const xticks = [0, 0.5, 1].map((f) => Math.round(f * total)).map((s) =>
      svg("text", { x: xOf(s), y: H - PAD.b + 17, class: "gpt-axis", "text-anchor": s === total ? "end" : "middle" }, String(s)));
    const x = xOf(run.steps[state.at]);
    const hasLive = state.live.steps.length > 0;
    plot.replaceChildren(
      svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": `${L.loss} / ${L.axisStep}` },
        yticks, xticks,
        svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(data.guess), y2: yOf(data.guess), class: "gpt-guess" }),
        svg("path", { d: line(build), class: hasLive ? "gpt-reference" : "gpt-live" }),
        hasLive ? svg("path", { d: line(state.live), class: "gpt-live" }) : null,
        svg("line", { x1: x, x2: x, y1: PAD.t, y2: H - PAD.b, class: "ind-now" }),
        svg("circle", { cx: x, cy: yOf(run.loss[state.at]), r: 5, class: "ind-dot" }),
        svg("text", { x: (PAD.l + W - PAD.r) / 2, y: H - 4, class: "gpt-axis", "text-anchor": "middle" }, L.axisStep),
        svg("text", { x: 12, y: (PAD.t + H - PAD.b) / 2, class: "gpt-axis", "text-anchor": "middle",
          transform: `rotate(-90 12 ${(PAD.t + H - PAD.b) / 2})` }, L.loss)),
      el("ul", { class: "gpt-legend" },
        el("li", { class: hasLive ? "gpt-legend__reference" : "gpt-legend__live" }, fill(L.curveBuild, { seed: data.seed })),
        hasLive ? el("li", { class: "gpt-legend__live" }, state.seed === data.seed ? L.curveLive : `${L.curveLive} (${L.seed} ${state.seed})`) : null,
        el("li", { class: "gpt-legend__guess" }, fill(L.guess, { v: data.vocab, loss: data.guess.toFixed(2) }))));
  }

  function drawTable() {
    const run = shown();
    const rows = data.heads.map((name, k) => el("tr", {},
      el("th", { scope: "row" }, name),
      el("td", {}, run.previous[state.at][k]),
      el("td", {}, run.prefix[state.at][k])));
    table.replaceChildren(el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, L.head), el("th", { scope: "col" }, L.previous),
        el("th", { scope: "col" }, L.prefix))),
      el("tbody", {}, rows)));
  }

  // One map at a time, drawn at 1 unit = 1 CSS px so its 9 px letters stay 9 px on a phone.
  function drawMap() {
    const run = shown();
    const tri = run.maps[state.at][state.head];
    mapTitle.textContent = fill(L.mapTitle, { head: data.heads[state.head], example: data.letters.join(""), step: run.steps[state.at] });
    const cell = Math.max(9, Math.min(14, Math.floor(((map.clientWidth || 330) - 18) / n)));
    const left = 14, top = 4;
    const size = left + n * cell + 2, height = top + n * cell + 14;
    const cells = [];
    let m = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++, m++) {
        if (tri[m] > 0) cells.push(svg("rect", { x: left + j * cell, y: top + i * cell, width: cell - 0.5, height: cell - 0.5,
          class: "gpt-cell", "fill-opacity": Math.max(0.04, tri[m] / 100).toFixed(2) }));
      }
    }
    const frame = svg("rect", { x: left, y: top, width: n * cell, height: n * cell, class: "ind-frame" });
    const rows = data.letters.map((c, i) => svg("text", { x: left - 3, y: top + i * cell + cell * 0.78, class: "ind-tick", "text-anchor": "end" }, c));
    const cols = data.letters.map((c, j) => svg("text", { x: left + j * cell + cell / 2, y: top + n * cell + 11, class: "ind-tick", "text-anchor": "middle" }, c));
    const [s0, s1] = data.second, [f0, f1] = data.first;
    const across = (row) => svg("line", { x1: left, x2: left + n * cell, y1: top + row * cell, y2: top + row * cell, class: "gpt-split" });
    const down = (col) => svg("line", { x1: left + col * cell, x2: left + col * cell, y1: top, y2: top + n * cell, class: "ind-first" });
    map.replaceChildren(svg("svg", { viewBox: `0 0 ${size} ${height}`, width: size, height, role: "img",
      "aria-label": `${data.heads[state.head]}: ${L.query} × ${L.key}` },
      frame, cells, rows, cols, across(s0), across(Math.min(s1, n)), down(f0), down(f1 + 1)));
  }

  onWidthChange(plot, () => { drawPlot(); drawMap(); });
  buttons();
  draw(false);
}
