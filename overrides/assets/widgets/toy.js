// The toy model of attnkit/toy.py, ported rule for rule so a reader's own sentence can run in
// the browser. The lexicon and the matrices are not written here: they come from toy.json,
// which the build writes from attnkit.toy. tests/test_widgets.py checks that this file gives
// the same tokens and weights as Python (to 1e-9) for a set of sentences.
//
// Two tokenizers. portTokenize is attnkit.toy.tokenize, character for character. tokenize, the
// one the widget uses, finds the words with the browser's own word segmenter (Intl.Segmenter,
// granularity "word"), so that a word the toy does not know ("café", "上海", "שלום") stays one
// word and an emoji stays one picture (👩‍👩‍👧 is five code points, one grapheme cluster), where
// the port would cut both into characters. The lexicon still decides: a lexicon word made of
// several segments (追|着 -> 追着) is one token, and a segment made only of lexicon words
// (它很 -> 它, 很) is split into them, so every sentence of the book gets Python's tokens.

const SKIPPED = /^[\p{P}\p{Z}\p{Mn}\p{Me}\p{Cf}\p{Cc}\s]$/u;   // toy._skipped
const LETTER_OR_DIGIT = /^[A-Za-z0-9]$/;
const LETTER = /^[A-Za-z]$/;

export class ToyInputError extends Error {
  constructor(kind, details = {}) {
    super(kind);
    this.kind = kind;          // "empty" or "tooLong"
    this.details = details;
  }
}

/** toy._LATIN_WORD at code point i: [A-Za-z0-9]+(?:['’][A-Za-z]+)* ; returns the end or -1. */
function latinEnd(chars, i) {
  if (!LETTER_OR_DIGIT.test(chars[i])) return -1;
  let j = i;
  while (j < chars.length && LETTER_OR_DIGIT.test(chars[j])) j++;
  while (j + 1 < chars.length && (chars[j] === "'" || chars[j] === "’") && LETTER.test(chars[j + 1])) {
    j++;
    while (j < chars.length && LETTER.test(chars[j])) j++;
  }
  return j;
}

function longestWord(lexicon) {
  return Math.max(...Object.keys(lexicon).map((w) => Array.from(w).length));
}

function checked(tokens, model) {
  if (tokens.length === 0) throw new ToyInputError("empty");
  if (tokens.length > model.max_tokens) {
    throw new ToyInputError("tooLong", { max: model.max_tokens, n: tokens.length });
  }
  return tokens;
}

/** The toy's rule on a run of characters: skip spaces and punctuation; a Latin word is one
 * token (lower-cased in English); in Chinese the longest lexicon word; else one character. */
function portTokens(text, model) {
  const lexicon = model.lexicon;
  const chars = Array.from(String(text));          // code points, like Python's str
  const longest = longestWord(lexicon);
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
  return tokens;
}

/** toy.tokenize: the same tokens as Python, or a ToyInputError. */
export function portTokenize(text, model) {
  return checked(portTokens(text, model), model);
}

/** The tokens of one segment the segmenter calls a word: itself if the lexicon knows it; the
 * lexicon words it is made of, if it is made only of them; else the whole segment, unknown. */
function wordTokens(segment, model) {
  const word = model.lang === "en" ? segment.replace(/’/g, "'").toLowerCase() : segment.replace(/’/g, "'");
  if (Object.hasOwn(model.lexicon, word)) return [word];
  const parts = portTokens(segment, model);
  if (parts.length && parts.every((p) => Object.hasOwn(model.lexicon, p))) return parts;
  return [word];
}

/** The widget's tokenizer: words found by the platform's segmenter (see the top of this file),
 * looked up in the toy's lexicon. Without Intl.Segmenter it is portTokenize. */
export function tokenize(text, model, Segmenter = globalThis.Intl && Intl.Segmenter) {
  if (typeof Segmenter !== "function") return portTokenize(text, model);
  const segments = [...new Segmenter(model.lang, { granularity: "word" }).segment(String(text))];
  const longest = longestWord(model.lexicon);
  const tokens = [];
  for (let k = 0; k < segments.length;) {
    const { segment, isWordLike } = segments[k];
    if (!isWordLike) {
      // spaces and punctuation are dropped; anything else (an emoji, a symbol) is one token, whole
      if (!Array.from(segment).every((c) => SKIPPED.test(c))) tokens.push(segment);
      k += 1;
      continue;
    }
    // Chinese: the longest lexicon word that is a run of whole word segments (追|着 -> 追着)
    let taken = 0;
    if (model.lang === "zh") {
      let text = segment;
      for (let m = 1; k + m < segments.length && segments[k + m].isWordLike; m++) {
        text += segments[k + m].segment;
        if (Array.from(text).length > longest) break;
        if (Object.hasOwn(model.lexicon, text)) taken = m + 1;
      }
    }
    if (taken) {
      tokens.push(segments.slice(k, k + taken).map((s) => s.segment).join(""));
      k += taken;
    } else {
      tokens.push(...wordTokens(segment, model));
      k += 1;
    }
  }
  return checked(tokens, model);
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

/** toy.attend: tokens, known flags and both steps' weights and outputs. ``text`` may be a list
 * of tokens, as in Python; ``split`` is the tokenizer for a string (tokenize or portTokenize). */
export function attend(text, model, split = tokenize) {
  const tokens = Array.isArray(text) ? text : split(text, model);
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
