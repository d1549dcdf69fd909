// The toy model of attnkit/toy.py, ported rule for rule so a reader's own sentence can run in
// the browser. The lexicon and the matrices are not written here: they come from toy.json,
// which the build writes from attnkit.toy. tests/test_widgets.py checks that this file gives
// the same tokens and weights as Python (to 1e-9) for a set of sentences.

const SKIPPED = /^[\p{P}\p{Z}\p{Mn}\p{Me}\p{Cf}\p{Cc}\s]$/u;   // toy._skipped
const LETTER = /^[A-Za-z]$/;
const DIGIT = /^[0-9]$/;

export class ToyInputError extends Error {
  constructor(kind, details = {}) {
    super(kind);
    this.kind = kind;          // "empty" or "tooLong"
    this.details = details;
  }
}

/** toy._LATIN_WORD at code point i: [A-Za-z]+(?:['’][A-Za-z]+)*|[0-9]+ ; returns the end or -1. */
function latinEnd(chars, i) {
  if (DIGIT.test(chars[i])) {
    let j = i;
    while (j < chars.length && DIGIT.test(chars[j])) j++;
    return j;
  }
  if (!LETTER.test(chars[i])) return -1;
  let j = i;
  while (j < chars.length && LETTER.test(chars[j])) j++;
  while (j + 1 < chars.length && (chars[j] === "'" || chars[j] === "’") && LETTER.test(chars[j + 1])) {
    j++;
    while (j < chars.length && LETTER.test(chars[j])) j++;
  }
  return j;
}

/** toy.tokenize: the same tokens as Python, or a ToyInputError. */
export function tokenize(text, model) {
  const lexicon = model.lexicon;
  const chars = Array.from(String(text));          // code points, like Python's str
  const longest = Math.max(...Object.keys(lexicon).map((w) => Array.from(w).length));
  const tokens = [];
  let i = 0;
  while (i < chars.length) {
    if (SKIPPED.test(chars[i])) { i++; continue; }
    const end = latinEnd(chars, i);
    if (end > i) {
      const token = chars.slice(i, end).join("").replace(/’/g, "'");
      tokens.push(model.lang === "en" ? token.toLowerCase() : token);
      i = end;
      continue;
    }
    let match = chars[i], size = 1;
    if (model.lang === "zh") {
      for (let s = Math.min(longest, chars.length - i); s > 1; s--) {
        const word = chars.slice(i, i + s).join("");
        if (Object.hasOwn(lexicon, word)) { match = word; size = s; break; }
      }
    }
    tokens.push(match);
    i += size;
  }
  if (tokens.length === 0) throw new ToyInputError("empty");
  if (tokens.length > model.max_tokens) {
    throw new ToyInputError("tooLong", { max: model.max_tokens, n: tokens.length });
  }
  return tokens;
}

/** toy.embed: (n, d_model), a 1 for each listed feature of a known word, zeros otherwise. */
export function embed(tokens, model) {
  const d = model.features.length;
  return tokens.map((token) => {
    const row = new Array(d).fill(0);
    for (const f of (Object.hasOwn(model.lexicon, token) ? model.lexicon[token] : [])) row[f] = 1;
    return row;
  });
}

function matmul(a, b) {                          // (n, m) @ (m, p) -> (n, p)
  return a.map((row) => b[0].map((_, c) => row.reduce((sum, x, r) => sum + x * b[r][c], 0)));
}

function softmaxRow(row) {                       // attnkit.softmax: subtract the max first
  const max = Math.max(...row);
  const e = row.map((x) => Math.exp(x - max));
  const total = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / total);
}

/** toy.attention_step on x with one step's matrices from toy.json. */
export function attentionStep(x, { w_q, w_k, w_v }) {
  const q = matmul(x, w_q);                      // (n, d_k)
  const k = matmul(x, w_k);                      // (n, d_k)
  const v = matmul(x, w_v);                      // (n, d_v)
  const scale = 1 / Math.sqrt(q[0].length);
  const scores = q.map((qi) => k.map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0) * scale));  // (n, n)
  const weights = scores.map(softmaxRow);        // (n, n)
  const out = matmul(weights, v);                // (n, d_v)
  const next = x.map((row, i) => row.map((value, c) => value + out[i][c]));
  return { weights, out, next };
}

/** toy.attend: tokens, known flags and both steps' weights and outputs. */
export function attend(text, model) {
  const tokens = tokenize(text, model);
  const known = tokens.map((token) => Object.hasOwn(model.lexicon, token));
  let h = embed(tokens, model);
  const steps = [];
  for (const matrices of model.steps) {
    const step = attentionStep(h, matrices);
    steps.push({ weights: step.weights, out: step.out });
    h = step.next;
  }
  return { tokens, known, steps };
}
