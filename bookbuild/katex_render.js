// Renders TeX to KaTeX HTML for bookbuild/katex_math.py: one process per build, fed batches.
// stdin: one JSON line per batch, [{"tex": "...", "display": true}, ...]
// stdout: one JSON line per batch, [{"html": "..."} or {"error": "..."}, ...] in the same order.
"use strict";
const katex = require("katex");
const readline = require("readline");

const OPTIONS = JSON.parse(process.argv[2] || "{}");

function render({ tex, display }) {
  const warnings = [];
  try {
    const html = katex.renderToString(tex, {
      ...OPTIONS,
      displayMode: display,
      throwOnError: true,
      strict: (code, message) => { warnings.push(`${code}: ${message}`); return "ignore"; },
    });
    return warnings.length ? { html, warnings } : { html };
  } catch (error) {
    return { error: String(error && error.message || error) };
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  process.stdout.write(JSON.stringify(JSON.parse(line).map(render)) + "\n");
});
