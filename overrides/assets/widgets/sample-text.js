// Widget: sample-text. The reader's prompt, continued by chapter 12's tiny GPT, in plain JavaScript.
// <div class="attn-widget screen-only" data-widget="sample-text"></div>
//
// The model is attnkit.realtext's, trained when the book was built: data/widgets/sample-text.json
// holds its vocabulary, shapes and labels; its weights (float32, little-endian, in the order of
// "layout") are data/widgets/sample-text.bin, fetched only when the reader first presses "Sample".
// forward() is attnkit.tinygpt.forward for one sequence, nextDistribution() and draw() are
// attnkit.sampling's, and Mulberry32 is attnkit.sampling.Mulberry32: the same seed writes the same
// text as attnkit.sampling.generate (tests/test_sample_text.py checks it in Chromium). No Python.
import { el, fill, liveRegion, loadData, uid } from "./common.js";

const DATA_BIN = new URL("../../data/widgets/sample-text.bin", import.meta.url).href;
let weights = null;     // one fetch per page load: {name: Float32Array}

async function loadWeights(data) {
  if (!weights) {
    weights = fetch(DATA_BIN).then(async (response) => {
      if (!response.ok) throw new Error(`sample-text.bin: HTTP ${response.status}`);
      const all = new Float32Array(await response.arrayBuffer());
      const out = {};
      let at = 0;
      for (const [name, shape] of data.layout) {
        const size = shape.reduce((a, b) => a * b, 1);
        out[name] = all.subarray(at, at + size);
        at += size;
      }
      if (at !== all.length) throw new Error(`sample-text.bin: ${all.length} numbers, expected ${at}`);
      return out;
    });
    weights.catch(() => { weights = null; });     // a later press tries again
  }
  return weights;
}

// ---- the model: attnkit.tinygpt.forward for one sequence, the last position's logits ----------
function layerNorm(x, g, b) {                     // x: (d,) -> (d,); eps as attnkit.layers.EPS
  const d = x.length;
  let mean = 0;
  for (let i = 0; i < d; i++) mean += x[i];
  mean /= d;
  let v = 0;
  for (let i = 0; i < d; i++) v += (x[i] - mean) ** 2;
  const rstd = 1 / Math.sqrt(v / d + 1e-5);
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) y[i] = g[i] * ((x[i] - mean) * rstd) + b[i];
  return y;
}

function matVec(x, w, rows, cols, offset = 0) {   // x (rows,) @ w[offset: offset + rows*cols] as (rows, cols)
  const y = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const xi = x[i];
    const base = offset + i * cols;
    for (let j = 0; j < cols; j++) y[j] += xi * w[base + j];
  }
  return y;
}

export function forward(W, cfg, ids) {
  const { d_model: d, n_heads: H, n_layers: L, vocab_size: V } = cfg;
  const dh = d / H;
  const n = ids.length;
  let x = ids.map((id, i) => {                    // x_0 = wte[id] + wpe[i]: (n, d)
    const row = new Float64Array(d);
    for (let j = 0; j < d; j++) row[j] = W.wte[id * d + j] + W.wpe[i * d + j];
    return row;
  });
  for (let l = 0; l < L; l++) {
    const p = (name) => W[`h${l}.${name}`];
    const a = x.map((row) => layerNorm(row, p("ln_1.g"), p("ln_1.b")));
    const out = x.map(() => new Float64Array(d));
    for (let h = 0; h < H; h++) {
      const off = h * d * dh;
      const q = a.map((row) => matVec(row, p("attn.w_q"), d, dh, off));
      const k = a.map((row) => matVec(row, p("attn.w_k"), d, dh, off));
      const v = a.map((row) => matVec(row, p("attn.w_v"), d, dh, off));
      for (let i = 0; i < n; i++) {
        const s = new Float64Array(i + 1);       // causal: keys 0..i
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          let dot = 0;
          for (let c = 0; c < dh; c++) dot += q[i][c] * k[j][c];
          s[j] = dot / Math.sqrt(dh);
          if (s[j] > max) max = s[j];
        }
        let sum = 0;
        for (let j = 0; j <= i; j++) { s[j] = Math.exp(s[j] - max); sum += s[j]; }
        const z = new Float64Array(dh);
        for (let j = 0; j <= i; j++) for (let c = 0; c < dh; c++) z[c] += (s[j] / sum) * v[j][c];
        const o = matVec(z, p("attn.w_o"), dh, d, h * dh * d);
        for (let c = 0; c < d; c++) out[i][c] += o[c];
      }
    }
    x = x.map((row, i) => row.map((value, c) => value + out[i][c]));
    x = x.map((row) => {
      const m = layerNorm(row, p("ln_2.g"), p("ln_2.b"));
      const hidden = matVec(m, p("mlp.w_1"), d, 4 * d);
      for (let c = 0; c < 4 * d; c++) hidden[c] = Math.max(hidden[c] + p("mlp.b_1")[c], 0);
      const y = matVec(hidden, p("mlp.w_2"), 4 * d, d);
      return row.map((value, c) => value + y[c] + p("mlp.b_2")[c]);
    });
  }
  const last = layerNorm(x[n - 1], W["ln_f.g"], W["ln_f.b"]);
  return matVec(last, W.w_u, d, V);               // (V,)
}

// ---- decoding: attnkit.sampling ------------------------------------------------------------
function order(p) {                               // ids from most to least likely; ties: smaller id first
  return [...p.keys()].sort((a, b) => p[b] - p[a] || a - b);
}

function renormalised(p, keep) {
  const kept = new Float64Array(p.length);
  let sum = 0;
  for (const i of keep) { kept[i] = p[i]; }
  for (let i = 0; i < p.length; i++) sum += kept[i];
  return kept.map((x) => x / sum);
}

export function nextDistribution(logits, temperature, topK, topP) {
  let max = -Infinity;
  for (const x of logits) if (x > max) max = x;
  let p = logits.map((x) => Math.exp((x - max) / temperature));
  let sum = 0;
  for (const x of p) sum += x;
  p = p.map((x) => x / sum);
  if (topK !== null && topK < p.length) p = renormalised(p, order(p).slice(0, topK));
  if (topP < 1) {
    const ids = order(p);
    const total = [];
    let run = 0;
    for (const i of ids) { run += p[i]; total.push(run); }
    const target = topP * total[total.length - 1] - 1e-12;
    let kept = total.findIndex((t) => t >= target);
    kept = kept < 0 ? ids.length : kept + 1;
    p = renormalised(p, ids.slice(0, kept));
  }
  return p;
}

export function draw(p, u) {
  let run = 0;
  const total = p.map((x) => (run += x));
  const target = u * total[total.length - 1];
  const i = total.findIndex((t) => t > target);
  return i < 0 ? p.length - 1 : i;
}

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generate(W, cfg, prompt, nNew, { temperature = 1, topK = null, topP = 1, seed = 0 } = {}) {
  const seq = [...prompt];
  const random = mulberry32(seed);
  const added = [];
  for (let s = 0; s < nNew; s++) {
    const logits = forward(W, cfg, seq.slice(-cfg.n_ctx));
    const token = draw(nextDistribution(logits, temperature, topK, topP), random());
    seq.push(token);
    added.push(token);
  }
  return added;
}

// ---- the page --------------------------------------------------------------------------------
export async function mount(root) {
  const data = await loadData("sample-text");
  const L = data.labels;
  const index = new Map(data.vocab.map((ch, i) => [ch, i]));
  root.classList.add("sample-widget");

  const field = (labelText, input) => el("label", { class: "gpt-field" }, labelText, input);
  const promptId = uid("sample-prompt");
  const prompt = el("input", { id: promptId, type: "text", class: "sample-prompt", value: data.prompt,
                               maxlength: data.max_prompt, spellcheck: "false", autocomplete: "off" });
  const temperature = el("input", { type: "number", min: data.limits.temperature[0], max: data.limits.temperature[1],
                                    step: 0.1, value: data.defaults.temperature, class: "sample-number", inputmode: "decimal" });
  const topK = el("input", { type: "number", min: 1, max: data.cfg.vocab_size, step: 1, value: data.defaults.top_k,
                             class: "sample-number", inputmode: "numeric" });
  const topP = el("input", { type: "number", min: 0.05, max: 1, step: 0.05, value: data.defaults.top_p,
                             class: "sample-number", inputmode: "decimal" });
  const seed = el("input", { type: "number", min: 0, max: 9999, step: 1, value: data.defaults.seed,
                             class: "sample-number", inputmode: "numeric" });
  const button = el("button", { type: "button", class: "attn-button attn-button--primary", "data-action": "sample" }, L.sample);
  const status = el("p", { class: "gpt-status", role: "status", "aria-live": "polite" }, L.idle);
  const output = el("p", { class: "sample-output", lang: data.lang });
  const said = liveRegion();                      // the whole text, announced once it is written

  root.append(
    el("div", { class: "sample-prompt-row" }, el("label", { for: promptId }, L.prompt), prompt),
    el("div", { class: "attn-widget__controls" },
      field(L.temperature, temperature), field(L.topK, topK), field(L.topP, topP), field(L.seed, seed), button),
    el("p", { class: "attn-hint" }, L.hint),
    status, output, said);

  function settings() {
    const T = Number(temperature.value);
    const k = Math.round(Number(topK.value));
    const p = Number(topP.value);
    const s = Math.round(Number(seed.value));
    if (!(T >= data.limits.temperature[0] && T <= data.limits.temperature[1])) return { error: fill(L.badTemperature, { min: data.limits.temperature[0], max: data.limits.temperature[1] }) };
    if (!(k >= 1 && k <= data.cfg.vocab_size)) return { error: fill(L.badTopK, { max: data.cfg.vocab_size }) };
    if (!(p > 0 && p <= 1)) return { error: L.badTopP };
    if (!(s >= 0 && s <= 9999)) return { error: L.badSeed };
    return { temperature: T, topK: k, topP: p, seed: s };
  }

  let busy = false;
  async function sample() {
    if (busy) return;                              // one sample at a time
    busy = true;
    try { await write(); } finally { busy = false; }
  }

  async function write() {
    const text = prompt.value;
    if (!text) { status.textContent = L.empty; output.textContent = ""; return; }
    const unknown = [...new Set([...text].filter((ch) => !index.has(ch)))];
    if (unknown.length) {
      status.textContent = fill(L.unknown, { chars: unknown.slice(0, 8).map((c) => `“${c}”`).join(" ") });
      status.dataset.state = "failed";
      output.textContent = "";
      return;
    }
    const s = settings();
    if (s.error) { status.textContent = s.error; status.dataset.state = "failed"; return; }
    status.dataset.state = "loading";
    status.textContent = L.loading;
    let W;
    try {
      W = await loadWeights(data);
    } catch (error) {
      status.dataset.state = "failed";
      status.textContent = fill(L.failed, { error: error.message });
      return;
    }
    const started = performance.now();
    const seq = [...text].map((ch) => index.get(ch));
    const random = mulberry32(s.seed);
    const written = el("span", { class: "sample-new" });
    output.replaceChildren(el("span", { class: "sample-given" }, text), written);
    status.textContent = L.writing;
    // generate(), one character per task: the page stays responsive, and the text grows as it is written
    for (let step = 0; step < data.length; step++) {
      const logits = forward(W, data.cfg, seq.slice(-data.cfg.n_ctx));
      const token = draw(nextDistribution(logits, s.temperature, s.topK, s.topP), random());
      seq.push(token);
      written.textContent += data.vocab[token];
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    root.dataset.sampled = written.textContent;
    said.textContent = text + written.textContent;
    status.dataset.state = "done";
    status.textContent = fill(L.done, { n: data.length, ms: Math.round(performance.now() - started) });
  }

  button.addEventListener("click", sample);
  prompt.addEventListener("keydown", (event) => { if (event.key === "Enter") sample(); });
}
