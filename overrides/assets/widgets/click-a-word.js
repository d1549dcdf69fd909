// Widget 1: click a word. <div data-widget="click-a-word" data-sentence="cat-ball-fun">
import { loadData } from "./common.js";
import { attentionView } from "./view.js";

export async function mount(root) {
  const data = await loadData("toy");
  const sentence = data.sentences[root.dataset.sentence || "cat-ball-fun"];
  if (!sentence) throw new Error(`no sentence "${root.dataset.sentence}"`);
  root.append(attentionView({ sentence, featureNames: data.feature_names }).element);
}
