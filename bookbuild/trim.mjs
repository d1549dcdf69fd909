// trim_and_minify.py's worker: JSON jobs on stdin, results in order on stdout. "css": purged by PurgeCSS
// against `tokens` (classes starting with `prefixes` stay; with `variables`, unread custom properties go,
// except `keep`) and minified; "css-min", "js-min": minified by esbuild.
import { PurgeCSS } from "purgecss";
import { transform } from "esbuild";

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const job of JSON.parse(input)) {
  let text = job.text;
  if (job.kind === "css") {
    const [purged] = await new PurgeCSS().purge({
      content: [{ raw: job.tokens.join(" "), extension: "txt" }],
      css: [{ raw: text }],
      defaultExtractor: (content) => content.split(" "),
      safelist: { standard: job.prefixes.map((p) => new RegExp(`^${escape(p)}`)), variables: job.keep },
      variables: job.variables,   // @font-face and @keyframes all stay: PurgeCSS reads only font-family
    });
    text = purged.css;
  }
  const loader = job.kind === "js-min" ? "js" : "css";
  const minified = await transform(text, { loader, minify: true, charset: "utf8", legalComments: "none" });
  results.push(minified.code);
}
process.stdout.write(JSON.stringify(results));
