// Widget 3: heads. One sentence, four heads (four pairs of glasses), side by side or one at a time.
// <div data-widget="heads">
import { choiceGroup, el, labelled, lang, liveRegion, loadData, pct, t } from "./common.js";

// The heads' titles are headings one level below the section the widget sits in (h3 under an
// h2, ...), so the page's outline has no gap (Lighthouse's heading-order; screen readers' heading list).
function headingTag(root) {
  let level = 1;
  for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    if (h.closest("[data-widget]")) continue;
    if (!(h.compareDocumentPosition(root) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
    level = Number(h.tagName[1]);
  }
  return `h${Math.min(level + 1, 6)}`;
}

export async function mount(root) {
  const data = await loadData("heads");
  const heading = headingTag(root);
  const H = data.weights.length;
  const state = { i: data.focus, mode: 0, head: 0 };
  const live = liveRegion();
  const mode = choiceGroup({
    labels: [t("allHeads"), t("oneHead")], label: t("head"), className: "attn-mode",
    onSelect: (m) => { state.mode = m; draw(); },
  });
  const headPick = choiceGroup({
    labels: data.names.map((name, h) => `${h + 1}`), label: t("head"), className: "attn-headpick",
    onSelect: (h) => { state.head = h; draw(); },
  });
  headPick.buttons.forEach((b, h) => b.setAttribute("aria-label", t("headTitle", { n: h + 1, name: data.names[h] })));
  const words = choiceGroup({
    labels: data.tokens, selected: state.i, label: t("pickWord"), className: "attn-tokens",
    onSelect: (i) => { state.i = i; draw(); },
  });
  const grid = el("div", { class: "attn-heads" });
  root.append(
    el("div", { class: "attn-widget__controls" }, mode.element, headPick.element),
    el("p", { class: "attn-label" }, t("pickWord")), words.element, grid,
    el("p", { class: "attn-hint" }, t("concat", { n: data.tokens.length, h: H, d: data.head_shape[1], total: data.concat_shape[1] })),
    live);

  function table(h) {
    const w = data.weights[h][state.i];
    const rows = data.tokens.map((tok, j) => el("li", { class: "attn-headrow", "data-to": j, "data-weight": w[j] },
      el("span", { class: "attn-headrow__tok", dir: "auto" }, tok),
      el("span", { class: "attn-bar", style: `--w:${w[j]}` }),
      el("span", { class: "attn-num" }, pct(w[j]))));
    // a named group, not a <section> (a landmark): the print page holds two of these widgets, and
    // landmarks with the same names there failed axe's landmark-unique
    return el("div", { class: "attn-head", role: "group", "data-head": h, "aria-label": t("headTitle", { n: h + 1, name: data.names[h] }) },
      el(heading, { class: "attn-head__title" }, t("headTitle", { n: h + 1, name: data.names[h] })), el("ol", {}, rows));
  }

  function draw() {
    headPick.element.hidden = state.mode === 0;
    const shown = state.mode === 0 ? [...Array(H).keys()] : [state.head];
    grid.classList.toggle("is-single", state.mode === 1);
    grid.replaceChildren(...shown.map(table));
    const word = data.tokens[state.i];
    live.textContent = shown.map((h) => {
      const w = data.weights[h][state.i];
      const top = data.top[h][state.i];           // -1: the row is spread evenly (decided at build time)
      const where = top < 0 ? t("spreadEvenly", { max: pct(Math.max(...w)) }) : `${data.tokens[top]} ${pct(w[top])}`;
      return labelled(t("headTitle", { n: h + 1, name: data.names[h] }), `${word} → ${where}`);
    }).join(lang() === "zh" ? "；" : "; ");
  }
  draw();
}
