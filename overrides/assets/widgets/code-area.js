// The book's code editor: a plain <textarea> (no library: a few hundred bytes, works with every
// screen reader, phone keyboard and browser zoom), used by the coding exercises (exercise.js) and
// by a listing's "edit and run" (listing.js).
//
//   const code = codeArea({ id, "aria-describedby": helpId }, { value, onRun, onInput });
//
// Keys: Tab indents four spaces; Escape then Tab leaves the editor (so the keyboard never gets
// stuck in it); Ctrl/Cmd+Enter calls onRun. It grows with its text (at least minRows rows).
import { el } from "./common.js";

export function codeArea(attrs, { value = "", onRun = () => {}, onInput = () => {}, minRows = 6 } = {}) {
  const code = el("textarea", {
    class: "ex-code", spellcheck: "false", autocapitalize: "off", autocomplete: "off",
    autocorrect: "off", wrap: "off", ...attrs,
  });
  code.value = value;
  const fit = () => { code.rows = Math.max(minRows, code.value.split("\n").length + 1); };
  fit();
  let escaped = false;
  code.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { escaped = true; return; }
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); onRun(); return; }
    if (event.key === "Tab" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !escaped) {
      event.preventDefault();
      const { selectionStart: a, selectionEnd: b, value: text } = code;
      code.value = text.slice(0, a) + "    " + text.slice(b);
      code.selectionStart = code.selectionEnd = a + 4;
      code.dispatchEvent(new Event("input"));
      return;
    }
    escaped = false;
  });
  code.addEventListener("input", () => { fit(); onInput(code.value); });
  /** Put new text in (reset), fitting the height to it. */
  code.setText = (text) => { code.value = text; fit(); };
  return code;
}
