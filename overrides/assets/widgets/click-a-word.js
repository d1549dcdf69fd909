// Widget 1: click a word. <div data-widget="click-a-word" data-sentence="cat-ball-fun">
import { loadData, loadPart } from "./common.js";
import { attentionView } from "./view.js";

export async function mount(root) {
  const [data, part] = await Promise.all([loadData("toy"), loadPart("toy", root.dataset.sentence || "cat-ball-fun")]);
  const sentence = part.item;
  root.append(attentionView({ sentence, featureNames: data.feature_names }).element);
}
