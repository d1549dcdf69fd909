// Widget 6: your own sentence. The reader's text runs through the toy model's rules (toy.js,
// a tested port of attnkit/toy.py; its words are found by the browser's word segmenter) and is
// shown in the same view as the book's sentences.
// <div data-widget="your-sentence">
import { el, loadData, t, uid } from "./common.js";
import { ToyInputError, attend } from "./toy.js";
import { attentionView } from "./view.js";

const MAX_CHARS = 2000;   // longer pastes are refused before tokenizing (the toy takes one short sentence)

const HONEST = {
  zh: "说句实话：这是一个玩具模型。它只认识一小张词表里的几十个词，每个词只有十个写好名字的特征，Q、K、V 的矩阵是我们按规则手写的，不是训练出来的。它能演示注意力怎样打分、换算、混合，但不会真正理解你的句子：词表外的词一律当作没有任何特征，只能分到平均的注意力。",
  en: "An honest note: this is a toy model. It knows a few dozen words from a small list, each word has ten named features, and its Q, K, V matrices were written by hand as rules, not learned. It shows how attention scores, converts and mixes, but it does not understand your sentence: a word outside its list counts as a word with no features and can only receive an even share of attention.",
};

const EXAMPLES = {
  zh: ["小狗追着球跑，因为它饿了。", "小猫穿过马路，因为它太累了。", "水果摊的苹果又甜又脆。"],
  en: ["The dog chased the ball because it was hungry.", "The cat didn't cross the road because it was too wide.", "Apple showed a new phone at the launch event."],
};

export async function mount(root, { lang }) {
  const model = await loadData("toy");
  // The clue words: those with a need (a word that fits only something alive, or only a thing).
  const needs = ["needs_animate", "needs_thing"].map((f) => model.features.indexOf(f));
  const needNames = needs.map((f) => model.feature_names[f]);
  const clues = Object.keys(model.lexicon).filter((word) => model.lexicon[word].some((f) => needs.includes(f)));
  const inputId = uid("sentence");
  const input = el("input", { id: inputId, type: "text", class: "attn-input", dir: "auto", autocomplete: "off", spellcheck: "false", value: EXAMPLES[lang][0] });
  const run = el("button", { type: "submit", class: "attn-button attn-button--primary" }, t("run"));
  const form = el("form", { class: "attn-form", onsubmit: (event) => { event.preventDefault(); compute(); } },
    el("label", { for: inputId, class: "attn-label" }, t("yourSentence")), el("div", { class: "attn-form__row" }, input, run));
  const examples = el("div", { class: "attn-examples" }, el("span", { class: "attn-label" }, t("example")),
    EXAMPLES[lang].map((text) => el("button", { type: "button", class: "attn-chip", dir: "auto", onclick: () => { input.value = text; compute(); } }, text)));
  const message = el("p", { class: "attn-message", role: "status", "aria-live": "polite" });
  const result = el("div", { class: "attn-result" });
  root.append(form, examples, message, result, el("p", { class: "attn-hint attn-honest" }, HONEST[lang]));
  let view = null;

  function show(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  function compute() {
    const text = input.value;
    if (text.length > MAX_CHARS) { show(t("tooLongChars", { max: MAX_CHARS })); result.replaceChildren(); view = null; return; }
    let r;
    try {
      r = attend(text, model);
    } catch (error) {
      if (!(error instanceof ToyInputError)) throw error;
      show(error.kind === "empty" ? t("empty") : t("tooLong", error.details));
      result.replaceChildren();
      view = null;
      return;
    }
    const unknown = [...new Set(r.tokens.filter((_, i) => !r.known[i]))];
    const list = (words) => words.join(lang === "zh" ? "、" : ", ");
    const notes = [];
    if (!r.known.some(Boolean)) notes.push(t("noKnown"));
    else {
      if (unknown.length) notes.push(t("unknownWords", { words: list(unknown) }));
      if (!r.tokens.some((token) => clues.includes(token))) notes.push(t("noClue", { clues: list(clues), needA: needNames[0], needB: needNames[1] }));
    }
    show(notes.join(lang === "zh" ? "" : " "));
    const focus = Math.max(0, r.tokens.findIndex((tok) => tok === (lang === "zh" ? "它" : "it")));
    const sentence = { text, tokens: r.tokens, known: r.known, focus, step: 2, steps: r.steps };
    if (view) view.setSentence(sentence, true);
    else {
      view = attentionView({ sentence, featureNames: model.feature_names });
      result.replaceChildren(view.element);
    }
  }
  compute();
}
