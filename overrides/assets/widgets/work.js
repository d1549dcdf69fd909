// The reader's own work: what this browser remembers of it (localStorage, never sent anywhere),
// how it is forgotten, and how it is handed in (downloaded as files). Shared by exercise.js,
// question.js and exercise-progress.js.
//
//   attn-exercise:<id>         "solved" once the exercise passed
//   attn-exercise-draft:<id>   the reader's code (absent while it is the starting code)
//   attn-exercise-tried:<id>   "yes" once a check ran the reader's code (graded courses open the hints then)
//   attn-question:<id>         {"answer": what the reader gave, "right": true/false}
//
// "Download my code" saves <id>.py; "Download all my work" saves one zip of every draft, <id>.py
// each, which `python -m attnkit.grade` reads as it is (attnkit/grade.py). Tests: tests/test_handin.py.
import { el } from "./common.js";

export const KEYS = {
  solved: (id) => `attn-exercise:${id}`,
  draft: (id) => `attn-exercise-draft:${id}`,
  tried: (id) => `attn-exercise-tried:${id}`,
  answer: (id) => `attn-question:${id}`,
};

export const ZIP_NAME = "seeing-attention-my-work.zip";

export function stored(key) {
  try { return window.localStorage.getItem(key); } catch { return null; }
}

export function store(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch { /* storage off (private mode): the page still works, it only forgets */ }
}

/** The reader's answer to a question ({answer, right}), or null. */
export function storedAnswer(id) {
  try {
    const value = JSON.parse(stored(KEYS.answer(id)) || "null");
    return value && typeof value === "object" && typeof value.answer === "string" ? value : null;
  } catch { return null; }
}

/** Forget everything this browser remembers of these exercises and questions. */
export function forget(exerciseIds, questionIds) {
  for (const id of exerciseIds) for (const k of ["solved", "draft", "tried"]) store(KEYS[k](id), null);
  for (const id of questionIds) store(KEYS.answer(id), null);
}

/** Every exercise with a draft in this browser, in the book's reading order: [{id, name, text}]. */
export function drafts(exercises) {
  const found = [];
  for (const id of Object.keys(exercises)) {
    const text = stored(KEYS.draft(id));
    if (text !== null) found.push({ id, name: `${id}.py`, text });
  }
  return found;
}

/** Save ``data`` (a string or bytes) as a file called ``name`` (the browser's download). */
export function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function downloadCode(id, text) {
  download(`${id}.py`, text.endsWith("\n") ? text : text + "\n", "text/x-python;charset=utf-8");
}

/** Download every draft as one zip; returns how many files it holds (0: nothing was saved). */
export function downloadAll(exercises) {
  const files = drafts(exercises).map((f) => ({ name: f.name, text: f.text.endsWith("\n") ? f.text : f.text + "\n" }));
  if (files.length) download(ZIP_NAME, zip(files), "application/zip");
  return files.length;
}

// ---- a zip file (stored, not compressed: a class's code is a few kilobytes) ----------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of ``files`` ([{name, text}], UTF-8, stored) as bytes; names flagged UTF-8. */
export function zip(files, when = new Date()) {
  const encoder = new TextEncoder();
  const time = (when.getHours() << 11) | (when.getMinutes() << 5) | (when.getSeconds() >> 1);
  const date = ((Math.max(when.getFullYear(), 1980) - 1980) << 9) | ((when.getMonth() + 1) << 5) | when.getDate();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.name);
    const body = encoder.encode(file.text);
    const crc = crc32(body);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);             // version needed to extract: 2.0
    local.setUint16(6, 0x0800, true);         // the name is UTF-8
    local.setUint16(8, 0, true);              // stored
    local.setUint16(10, time, true);
    local.setUint16(12, date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, body.length, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, 0, true);
    central.setUint16(12, time, true);
    central.setUint16(14, date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, body.length, true);
    central.setUint32(24, body.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);      // where its local header starts (the rest stays 0)
    locals.push(new Uint8Array(local.buffer), name, body);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + body.length;
  }
  const size = centrals.reduce((n, part) => n + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}
