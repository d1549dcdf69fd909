// The playground's code editor: CodeMirror 6 with Python, bundled by bookbuild/playground.py with esbuild.
// Tab indents; Escape, then Tab, leaves the editor (CodeMirror's tab-focus mode).
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { python } from "@codemirror/lang-python";

// createEditor(parent, { doc, onRun, label }) -> { get(), set(text), focus() }
export function createEditor(parent, { doc = "", onRun = () => {}, label = "Python" } = {}) {
  const run = () => { onRun(); return true; };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
        history(), indentOnInput(), bracketMatching(),
        python(), syntaxHighlighting(classHighlighter),
        EditorState.tabSize.of(4),
        keymap.of([
          { key: "Mod-Enter", run, preventDefault: true },
          { key: "Shift-Enter", run, preventDefault: true },
          indentWithTab, ...defaultKeymap, ...historyKeymap,
        ]),
        // tabindex: focusable anyway; saying so shows axe (scrollable-region-focusable) it is reachable
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
      ],
    }),
  });
  return {
    get: () => view.state.doc.toString(),
    set: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
    view,
  };
}
