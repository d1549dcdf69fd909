// Widget (10.1): the KV-cache calculator.
// Pick a model, a context length and a number format: the bytes its KV cache takes per token and
// for the whole context, as built and as if it kept every head's keys and values (MHA) or one
// key/value head (MQA). The numbers per token per layer come from attnkit.kv_bytes
// (data/widgets/kv-calculator.json, written by bookbuild/widgets.py); this module only multiplies
// them by the bytes of a number and the tokens each layer keeps. tests/test_kv_widget.py checks
// every product against attnkit.
import { choiceGroup, el, fill, lang, liveRegion, loadData, uid } from "./common.js";

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** Bytes with a binary unit and three significant digits: attnkit.serving.binary_size, the same text. */
export function binarySize(bytes) {
  let unit = 0, value = bytes;
  while (unit < UNITS.length - 1 && value >= 1023.5) { value /= 1024; unit += 1; }
  if (unit === 0) return `${bytes} B`;
  const digits = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** "128K" for 131072 tokens, "1M" for 1048576. */
function short(n) {
  return n >= 1048576 ? `${n / 1048576}M` : `${n / 1024}K`;
}

/** The cache of one sequence of `context` tokens: numbers per token per layer x bytes x tokens kept. */
export function cacheBytes(model, variant, context, itemsize) {
  const full = variant.windowed ? model.layers - model.slidingLayers : model.layers;
  const sliding = variant.windowed ? model.slidingLayers : 0;
  const kept = full * context + sliding * Math.min(context, model.window);
  return variant.perLayer * itemsize * kept;
}

/** Bytes per token while every layer still keeps it. */
export function perTokenBytes(model, variant, itemsize) {
  return variant.perLayer * itemsize * model.layers;
}

export async function mount(root) {
  const data = await loadData("kv-calculator");
  const L = data.labels;
  const state = {
    model: data.models.findIndex((m) => m.id === (root.dataset.model || data.default.model)),
    context: data.contexts.indexOf(Number(root.dataset.context || data.default.context)),
    dtype: data.dtypes.findIndex((d) => d.id === (root.dataset.dtype || data.default.dtype)),
  };

  const modelId = uid("kv-model");
  const select = el("select", { id: modelId, class: "kv-select", onchange: () => { state.model = select.selectedIndex; draw(); } },
    data.models.map((m) => el("option", { value: m.id }, m.name)));
  select.selectedIndex = state.model;

  const ctxId = uid("kv-context");
  const ctxOut = el("output", { for: ctxId, class: "attn-slider__value", "data-role": "context" });
  const range = el("input", {
    id: ctxId, type: "range", min: 0, max: data.contexts.length - 1, step: 1, value: state.context,
    oninput: () => { state.context = Number(range.value); draw(); },
  });

  const dtypes = choiceGroup({
    labels: data.dtypes.map((d) => d.id), selected: state.dtype, label: L.dtype, className: "kv-dtypes",
    onSelect: (i) => { state.dtype = i; draw(); },
  });

  const table = el("table", { class: "attn-table kv-table" });
  const note = el("p", { class: "attn-hint", "data-role": "beyond" });
  const source = el("p", { class: "attn-hint kv-source" });
  const live = liveRegion();
  root.append(el("div", { class: "attn-widget__body" },
    el("div", { class: "attn-slider" }, el("label", { for: modelId }, L.model), select),
    el("div", { class: "attn-slider" }, el("label", { for: ctxId }, L.context), range, ctxOut),
    el("div", { class: "attn-slider" }, el("span", { class: "attn-label", "aria-hidden": "true" }, L.dtype), dtypes.element),
    el("div", { class: "attn-scroll" }, table), note, source, live));

  function draw() {
    const model = data.models[state.model];
    const context = data.contexts[state.context];
    const dtype = data.dtypes[state.dtype];
    range.setAttribute("aria-valuetext", fill(L.tokens, { n: context, k: short(context) }));
    ctxOut.textContent = fill(L.tokens, { n: context, k: short(context) });
    const own = cacheBytes(model, model.variants[0], context, dtype.bytes);
    const rows = model.variants.map((v) => ({ v, whole: cacheBytes(model, v, context, dtype.bytes), token: perTokenBytes(model, v, dtype.bytes) }));
    const largest = Math.max(...rows.map((r) => r.whole));
    table.replaceChildren(
      el("caption", {}, fill(L.caption, { model: model.name, n: context, dtype: dtype.id })),
      el("thead", {}, el("tr", {}, [L.variant, L.perToken, L.whole, L.times].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows.map(({ v, whole, token }) => el("tr", { "data-variant": v.id },
        el("th", { scope: "row", class: "kv-variant" }, v.label),
        el("td", { class: "attn-num", "data-role": "per-token", "data-bytes": token }, binarySize(token)),
        el("td", { class: "attn-num kv-whole", "data-role": "whole", "data-bytes": whole },
          el("span", { class: "attn-bar", style: `--w: ${(whole / largest).toFixed(4)}`, "aria-hidden": "true" }),
          binarySize(whole)),
        el("td", { class: "attn-num", "data-role": "times" }, `×${(whole / own).toFixed(whole / own < 10 ? 2 : 1)}`)))),
    );
    note.textContent = context > model.context ? fill(L.beyond, { n: model.context }) : "";
    source.replaceChildren(L.source, el("a", { href: model.source, rel: "noopener" }, model.source.replace(/^https:\/\//, "")));
    const sep = lang() === "zh" ? "；" : "; ";
    live.textContent = fill(L.announce, {
      model: model.name, n: context, dtype: dtype.id,
      parts: rows.map(({ v, whole }) => `${v.label} ${binarySize(whole)}`).join(sep),
    });
  }
  draw();
}
