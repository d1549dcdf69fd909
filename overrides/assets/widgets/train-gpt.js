// Widget: train-gpt. Trains the tiny GPT of chapter 8 live, in the reader's browser.
// <div class="attn-widget screen-only" data-widget="train-gpt" data-python></div>
//
// Python is the tab's one Python (./python.js: the playground's Web Worker with Pyodide, NumPy
// and the site's own attnkit), shared with the listings, the exercises and the playground. The code it runs, every label and every number it compares with come
// from data/widgets/train-gpt.json (bookbuild/widgets.py); the training itself is
// attnkit.live_training.live_reset / live_run, the same Trainer the build uses, so the same seed gives
// the same losses. This file only draws. Tests: tests/test_train_gpt.py.
import { el, fill, liveRegion, loadData, onWidthChange, svg, uid } from "./common.js";
import * as python from "./python.js";

export async function mount(root) {
  const data = await loadData("train-gpt");
  const L = data.labels;
  const n = data.letters.length;
  const state = {
    started: false, ready: false, running: false, busy: false, generation: 0, runs: 0,
    seed: data.seed, lr: data.lr, step: 0, losses: [], weights: data.before, error: null,
  };

  // ---- controls -----------------------------------------------------------------------------
  const startButton = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "start" }, L.start);
  const resetButton = el("button", { type: "button", class: "attn-button", "data-action": "reset" }, L.reset);
  const seedId = uid("gpt-seed");
  const seedInput = el("input", { id: seedId, type: "number", min: 0, max: 9999, step: 1, value: data.seed, class: "gpt-seed", inputmode: "numeric" });
  const lrId = uid("gpt-lr");
  const lrSelect = el("select", { id: lrId, class: "gpt-lr" },
    data.lrs.map((lr) => el("option", { value: lr, selected: lr === data.lr }, String(lr))));
  const status = el("p", { class: "gpt-status", "data-state": "idle" }, L.idle);
  const check = el("p", { class: "attn-hint gpt-check" });
  const live = liveRegion();
  const plot = el("div", { class: "gpt-plot" });
  const maps = el("div", { class: "gpt-maps" });
  const mapsTitle = el("p", { class: "attn-label gpt-maps-title" });

  root.classList.add("gpt-widget");
  root.append(
    el("div", { class: "attn-widget__controls" },
      startButton, resetButton,
      el("label", { for: seedId, class: "gpt-field" }, L.seed, seedInput),
      el("label", { for: lrId, class: "gpt-field" }, L.lr, lrSelect)),
    el("p", { class: "attn-hint" }, L.changeResets),
    status, check, plot, mapsTitle, maps, el("p", { class: "attn-hint gpt-maps-legend" }, L.mapsLegend), live);

  startButton.addEventListener("click", press);
  resetButton.addEventListener("click", () => reset());
  seedInput.addEventListener("change", () => {
    const seed = Math.round(Number(seedInput.value));
    state.seed = Number.isFinite(seed) ? Math.min(9999, Math.max(0, seed)) : data.seed;
    seedInput.value = state.seed;
    reset();
  });
  lrSelect.addEventListener("change", () => { state.lr = Number(lrSelect.value); reset(); });

  // ---- the worker ---------------------------------------------------------------------------
  function ensureWorker() {
    if (state.started) return;
    state.started = true;
    if (!python.isReady()) {
      setStatus("loading", L.loading, true);       // the load takes seconds: say so, and say when it ends
      root.setAttribute("aria-busy", "true");
    }
    python.warm().then((m) => onMessage(m), (error) => onMessage({ type: "failed", text: error.message }));
  }

  // Each run's messages carry this widget's own id ("generation:run"): the output of a run that a
  // reset made old is told apart from the current one.
  function send(kind, vars) {
    state.busy = true;
    state.runs += 1;
    const id = `${state.generation}:${state.runs}`;
    python.run(fill(data.code[kind], vars), (m) => onMessage({ ...m, id })).catch((error) => {
      state.busy = false;
      state.started = false;
      state.ready = false;
      fail(L.failed, error.message);                 // stopped elsewhere, or Python failed: "Try again" starts it again
    });
  }

  function sendReset() {
    send("reset", { seed: state.seed, lr: state.lr, example: `[${data.example.join(", ")}]` });
  }

  function onMessage(message) {
    if (message.type === "ready") {
      state.ready = true;
      root.removeAttribute("aria-busy");
      if (state.running) setStatus("running", fill(L.started, { steps: data.steps }), true);
      sendReset();
      return;
    }
    if (message.type === "failed") {
      state.started = false;                         // "Try again" asks python.js again (it starts a new worker)
      state.ready = false;
      return fail(L.failed, message.text);
    }
    if (!message.id) return;
    const current = message.id.startsWith(`${state.generation}:`);
    if (message.type === "gpt" && current) {
      if (message.data.step === 0) state.losses = [];
      state.losses.push(...message.data.losses);
      state.step = message.data.step;
      state.weights = message.data.weights;
      draw();
    } else if (message.type === "error" && current) {
      fail(L.error, message.data.text.trim().split("\n").pop());
    } else if (message.type === "stderr" && current) {
      console.warn(message.text);
    } else if (message.type === "done") {
      state.busy = false;
      if (!current) { if (state.ready) sendReset(); return; }     // a reset arrived mid-run
      if (!state.running && status.dataset.state === "pausing") paused();   // the steps in hand are done
      next();
    }
  }

  function next() {
    if (!root.isConnected) { state.running = false; return; }   // the reader left the page: free the tab's Python
    if (state.error || !state.ready || state.busy) return;
    if (state.running && state.step < data.steps) {
      send("run", { k: Math.min(data.chunk, data.steps - state.step) });
    } else if (state.running) {
      state.running = false;
      buttons();
      setStatus("done", fill(L.done, { steps: state.step, loss: lossText(state.losses.at(-1)) }), true);
    }
  }

  // ---- actions ------------------------------------------------------------------------------
  // One button, whose label says what pressing it does (Start, Pause, Resume, Train again, Try
  // again): it is never disabled, so the keyboard focus stays on it when training ends or fails.
  // (No aria-pressed: a toggle button keeps one label, WAI-ARIA APG.)
  function press() {
    if (state.running) return pause();
    if (state.error || state.step >= data.steps) reset();
    start();
  }

  function start() {
    state.running = true;
    buttons();
    if (!state.started) return ensureWorker();      // "ready" sends the reset, whose "done" starts the steps
    setStatus("running", runningText(), true);
    next();
  }

  function pause() {
    state.running = false;
    buttons();
    // Steps already sent to Python still arrive: the status names the step training stops at.
    if (state.busy) setStatus("pausing", fill(L.pausing, { step: state.step }), true);
    else paused();
  }

  function paused() {
    setStatus("paused", fill(L.paused, { step: state.step, loss: lossText(state.losses.at(-1)) }), true);
  }

  function reset() {
    state.running = false;
    state.generation += 1;
    state.step = 0;
    state.losses = [];
    state.error = null;
    state.weights = state.seed === data.seed ? data.before : null;
    buttons();
    setStatus("idle", L.idle, true);
    if (state.ready && !state.busy) sendReset();   // if busy, the "done" of the old run sends it
    draw();
  }

  function fail(template, error) {
    state.running = false;
    state.error = String(error);
    root.removeAttribute("aria-busy");
    buttons();
    setStatus("failed", fill(template, { error: state.error }), true);
  }

  function buttons() {
    startButton.textContent = state.running ? L.pause
      : state.error ? L.retry
      : state.step >= data.steps ? L.again
      : state.step > 0 ? L.resume : L.start;
  }

  function setStatus(kind, text, announce = false) {
    status.dataset.state = kind;
    status.textContent = text;
    if (announce) live.textContent = text;
  }

  function lossText(x) {
    return x === undefined ? "–" : x.toFixed(4);
  }

  function runningText() {
    return fill(L.running, { step: state.step, steps: data.steps, loss: lossText(state.losses.at(-1)) });
  }

  // ---- drawing ------------------------------------------------------------------------------
  function draw() {
    root.dataset.step = String(state.step);
    root.dataset.losses = JSON.stringify(state.losses);
    if (state.running && state.step > 0) setStatus("running", runningText());
    const announceEvery = 40;
    if (state.running && state.step > 0 && state.step % announceEvery === 0) live.textContent = runningText();
    drawPlot();
    drawMaps();
    drawCheck();
  }

  function drawCheck() {
    const same = state.seed === data.seed && state.lr === data.lr;
    if (!state.losses.length) { check.textContent = ""; return; }
    if (!same) { check.textContent = L.otherSettings; return; }
    const bad = state.losses.findIndex((x, i) => Math.abs(x - data.reference[i]) > data.tolerance);
    check.dataset.matches = String(bad < 0);
    check.textContent = bad < 0
      ? fill(L.matches, { tol: data.tolerance })
      : fill(L.differs, { step: bad + 1, a: state.losses[bad].toFixed(6), b: data.reference[bad].toFixed(6) });
  }

  // The chart is drawn in CSS pixels: its width follows the widget's (a ResizeObserver redraws
  // it), so its labels are 13 px on a phone as on a desktop, never scaled down with the picture.
  const H = 220, PAD = { l: 50, r: 12, t: 10, b: 40 };
  let W = 420;
  const yMin = Math.log10(1e-3), yMax = Math.log10(4);
  const xOf = (step) => PAD.l + (step / data.steps) * (W - PAD.l - PAD.r);
  const yOf = (loss) => {
    const y = Math.min(yMax, Math.max(yMin, Math.log10(Math.max(loss, 1e-12))));
    return PAD.t + (yMax - y) / (yMax - yMin) * (H - PAD.t - PAD.b);
  };
  const path = (losses) => losses.map((x, i) => `${i ? "L" : "M"}${xOf(i + 1).toFixed(1)},${yOf(x).toFixed(1)}`).join("");

  function drawPlot() {
    W = Math.round(Math.min(560, Math.max(240, plot.clientWidth || 420)));
    const ticks = [1e-3, 1e-2, 1e-1, 1].flatMap((v) => [
      svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(v), y2: yOf(v), class: "gpt-grid" }),
      svg("text", { x: PAD.l - 6, y: yOf(v) + 4, class: "gpt-axis", "text-anchor": "end" }, String(v)),
    ]);
    const xticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * data.steps)).map((s) =>
      svg("text", { x: xOf(s), y: H - PAD.b + 17, class: "gpt-axis", "text-anchor": s === data.steps ? "end" : "middle" }, String(s)));
    const same = state.seed === data.seed && state.lr === data.lr;
    const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
      "aria-label": `${L.loss} / ${L.step}` },
      ticks, xticks,
      svg("line", { x1: PAD.l, x2: W - PAD.r, y1: yOf(data.guess), y2: yOf(data.guess), class: "gpt-guess" }),
      svg("path", { d: path(data.reference), class: "gpt-reference" }),
      state.losses.length ? svg("path", { d: path(state.losses), class: "gpt-live" }) : null,
      svg("text", { x: (PAD.l + W - PAD.r) / 2, y: H - 4, class: "gpt-axis", "text-anchor": "middle" }, L.step),
      svg("text", { x: 13, y: (PAD.t + H - PAD.b) / 2, class: "gpt-axis", "text-anchor": "middle",
        transform: `rotate(-90 13 ${(PAD.t + H - PAD.b) / 2})` }, L.loss));
    // What each line is, in words a screen reader reads too (the picture's own label is short).
    const legend = el("ul", { class: "gpt-legend" },
      el("li", { class: "gpt-legend__reference" }, fill(L.reference, { seed: data.seed, lr: data.lr })),
      el("li", { class: "gpt-legend__live", hidden: !state.losses.length }, same ? L.live : `${L.live} (${L.seed} ${state.seed}, ${L.lr} ${state.lr})`),
      el("li", { class: "gpt-legend__guess" }, fill(L.guess, { v: data.vocab, loss: data.guess.toFixed(2) })));
    plot.replaceChildren(picture, legend);
  }

  function drawMaps() {
    mapsTitle.textContent = fill(L.mapsTitle, { example: data.letters.join(""), step: state.step });
    if (!state.weights) { maps.replaceChildren(); return; }
    // Drawn at 1 unit = 1 CSS px (the maps wrap onto two lines on a phone rather than shrink).
    const cell = 17, left = 20, top = 4;
    const size = left + n * cell + 4, height = top + n * cell + 20;
    maps.replaceChildren(...state.weights.map((w, h) => {
      const cells = [];
      for (let i = 0; i < n; i++) {
        for (let j = 0; j <= i; j++) {
          cells.push(svg("rect", { x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1,
            class: "gpt-cell", "fill-opacity": Math.max(0.04, w[i][j]).toFixed(3) }));
        }
      }
      const rows = data.letters.map((c, i) => svg("text", { x: left - 5, y: top + i * cell + 13, class: "gpt-tick", "text-anchor": "end" }, c));
      const cols = data.letters.map((c, j) => svg("text", { x: left + j * cell + cell / 2, y: top + n * cell + 15, class: "gpt-tick", "text-anchor": "middle" }, c));
      const split = top + (data.half - 1) * cell - 0.5;
      const line = svg("line", { x1: left, x2: left + n * cell, y1: split, y2: split, class: "gpt-split" });
      const title = fill(L.head, { n: h + 1 });
      return el("figure", { class: "gpt-map", "data-head": h },
        svg("svg", { viewBox: `0 0 ${size} ${height}`, width: size, height, role: "img", "aria-label": `${title}: ${L.query} × ${L.key}` }, cells, rows, cols, line),
        el("figcaption", {}, title));
    }));
  }

  onWidthChange(plot, drawPlot);
  draw();
}
