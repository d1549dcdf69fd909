// Widget 2: switch the scene. The same word in two or more sentences; its weights change live.
// <div data-widget="switch-scene" data-sentences="apple-fruit apple-launch">
import { choiceGroup, el, loadData, loadPart, t } from "./common.js";
import { attentionView } from "./view.js";

const SCENES = {
  zh: { "apple-fruit": "水果摊", "apple-launch": "发布会", "cat-ball-fun": "它很好玩", "cat-ball-hungry": "它饿了",
        "apple-fruit-zh": "水果摊", "apple-launch-zh": "发布会" },
  en: { "apple-fruit": "fruit stall", "apple-launch": "product launch", "cat-ball-fun": "it was shiny", "cat-ball-hungry": "it was hungry",
        "animal-street-tired": "too tired", "animal-street-wide": "too wide",
        "kitten-ball-hungry": "it was hungry", "kitten-ball-shiny": "it was shiny",
        "apple-fruit-en": "fruit stall", "apple-launch-en": "product launch" },
};

export async function mount(root, { lang }) {
  const ids = (root.dataset.sentences || "apple-fruit apple-launch").split(/\s+/);
  const [data, ...parts] = await Promise.all([loadData("toy"), ...ids.map((id) => loadPart("toy", id))]);
  const sentences = parts.map((part) => part.item);
  const text = el("p", { class: "attn-sentence", dir: "auto" }, sentences[0].text);
  const view = attentionView({ sentence: sentences[0], featureNames: data.feature_names });
  const scenes = choiceGroup({
    labels: ids.map((id) => SCENES[lang][id] || id), label: t("scene"), className: "attn-scenes",
    onSelect: (i) => { text.textContent = sentences[i].text; view.setSentence(sentences[i], true); },
  });
  root.append(el("div", { class: "attn-widget__controls" }, el("span", { class: "attn-label" }, t("scene")), scenes.element), text, view.element);
}
