// Shared helpers for the widgets: language, UI strings, data loading, DOM building.
// Numbers are never computed here: they come from JSON that attnkit wrote during the build.

export function lang() {
  return (document.documentElement.lang || "zh").startsWith("en") ? "en" : "zh";
}

const STRINGS = {
  zh: {
    loadFailed: "这个互动图没能加载",
    pickWord: "点一个词，看它把注意力分给谁",
    speaker: "发言的词",
    listened: "它在听谁",
    showNumbers: "显示精确百分比",
    mixedFrom: "新含义由这些词的值（V）混合而成",
    attendsTo: "{word} 把注意力分给：",
    weightOf: "{word}：{pct}",
    scene: "场景",
    focusWord: "盯住的词：{word}",
    allHeads: "四个头并排",
    oneHead: "一次看一个头",
    head: "头",
    headTitle: "第 {n} 个头：{name}",
    spreadEvenly: "均匀分散（每个词不超过 {max}）",
    step: "第 {n} 步",
    prev: "上一步",
    next: "下一步",
    stepNames: ["点积打分", "除以 √dₖ", "softmax 换算成份额", "按份额加权求和"],
    query: "查询词",
    scale: "缩放：得分除以",
    temperature: "温度",
    sharper: "更尖锐",
    flatter: "更平均",
    sumIs: "份额合计 {pct}",
    position: "位置",
    positionA: "位置 A",
    positionB: "位置 B",
    dimension: "维度",
    dimensionOf: "维度 {j}（{fn}）",
    distance: "距离",
    similarity: "A 和 B 的位置编码点积",
    samePairs: "距离同为 {d} 的其他位置对，点积都一样：",
    peValue: "PE[{p}, {j}] = {fn}({p} / 10000^({two_i}/{d})) = {v}",
    yourSentence: "输入你自己的句子",
    run: "计算注意力",
    example: "例句",
    empty: "请先输入一句话。",
    tooLong: "句子太长了：最多 {max} 个词元，你输入了 {n} 个。",
    tooLongChars: "输入太长了：最多 {max} 个字符。",
    noKnown: "玩具模型一个词也不认识，没法打分。试试例句里的词。",
    unknownWords: "玩具模型不认识这些词，把它们当作没有任何特征的词：{words}。",
    tokens: "词元",
    roundNames: ["第 1 轮：找线索", "第 2 轮：找所指"],
    rounds: "开会轮次",
    newMeaning: "这一轮混合给“{word}”带来的特征（注意力输出）：",
    mixesNothing: "这一轮的混合几乎没给“{word}”带来什么：它分到份额的那些词，这一轮的值（V）里几乎什么都没有。",
    evenShare: "“{word}”给这 {n} 个词的份额都一样，各 {pct}：这一轮它的查询（Q）和每个词的键（K）打出的分数都相同，而 softmax 把相同的分数换算成相同的份额。",
    noClue: "这句话里没有线索词（玩具模型认识的线索词有：{clues}）。第 1 轮里代词要找的就是线索词，这里没有，它对每个词打的分数就都一样；第 2 轮谁也没带上“{needA}”或“{needB}”的需求，所有查询都是 0，分数也都一样。分数相同，softmax 就给每个词相同的份额。",
    unknownMark: "（不认识）",
    concat: "每个头各交一份纪要：每个头给每个词混出 {d} 个数；{h} 份并排拼起来，这 {n} 个词每个都带着 {total} 个数，交给下一层。这个玩具模型为了好读，没有把每个词的 {d} 个数切分给各个头；真实模型会切开，每个头只拿一段，拼回来正好是原来的长度。",
  },
  en: {
    loadFailed: "This interactive figure could not load",
    pickWord: "Pick a word to see where its attention goes",
    speaker: "the word speaking",
    listened: "whom it listens to",
    showNumbers: "Show exact percentages",
    mixedFrom: "Its new meaning is mixed from these words' values (V)",
    attendsTo: "{word} gives its attention to:",
    weightOf: "{word}: {pct}",
    scene: "Scene",
    focusWord: "Watching: {word}",
    allHeads: "All four heads",
    oneHead: "One head at a time",
    head: "Head",
    headTitle: "Head {n}: {name}",
    spreadEvenly: "spread evenly (no word above {max})",
    step: "Step {n}",
    prev: "Previous step",
    next: "Next step",
    stepNames: ["dot-product scores", "divide by √dₖ", "softmax into shares", "weighted sum of values"],
    query: "Query word",
    scale: "Scale: scores divided by",
    temperature: "temperature",
    sharper: "sharper",
    flatter: "flatter",
    sumIs: "shares add up to {pct}",
    position: "position",
    positionA: "Position A",
    positionB: "Position B",
    dimension: "Dimension",
    dimensionOf: "Dimension {j} ({fn})",
    distance: "distance",
    similarity: "dot product of the encodings of A and B",
    samePairs: "Other pairs at the same distance {d} give the same dot product:",
    peValue: "PE[{p}, {j}] = {fn}({p} / 10000^({two_i}/{d})) = {v}",
    yourSentence: "Type your own sentence",
    run: "Compute attention",
    example: "Examples",
    empty: "Type a sentence first.",
    tooLong: "That is too long: at most {max} tokens, and yours has {n}.",
    tooLongChars: "That is too long: at most {max} characters.",
    noKnown: "The toy model knows none of these words, so it has nothing to score. Try words from the examples.",
    unknownWords: "The toy model does not know these words and treats them as words with no features: {words}.",
    tokens: "tokens",
    roundNames: ["Round 1: find the clue", "Round 2: find what it refers to"],
    rounds: "Meeting round",
    newMeaning: "What this round's mix brings to \u201c{word}\u201d (the attention output):",
    mixesNothing: "This round's mix brings \u201c{word}\u201d almost nothing: the words it listens to carry almost nothing in their values (V) this round.",
    evenShare: "\u201c{word}\u201d gives all {n} words the same share, {pct} each: this round its query (Q) scores every word's key (K) the same, and softmax turns equal scores into equal shares.",
    noClue: "Your sentence has no clue word (the toy knows these: {clues}). In round 1 a pronoun asks for a clue, so with none here it scores every word the same; in round 2 no word carries a need (\u201c{needA}\u201d or \u201c{needB}\u201d), so every query is zero and every score is the same. Equal scores are what softmax turns into equal shares.",
    unknownMark: " (unknown)",
    concat: "Each head hands in its minutes: every head mixes {d} numbers for each word; laid side by side, the {h} sets give each of the {n} words {total} numbers to take to the next layer. To stay readable, this toy model does not split each word's {d} numbers among the heads; a real model cuts them into pieces, one per head, so that side by side they are exactly as long as before.",
  },
};

/** A UI string in the page's language, with {name} placeholders filled in. */
/** "label: text" with the page language's colon: full-width "：" in Chinese, ": " in English. */
export function labelled(label, text) {
  return lang() === "zh" ? `${label}：${text}` : `${label}: ${text}`;
}

/** Items as the page language lists them: "a，b" in Chinese, "a, b" in English. */
export function listed(items) {
  return items.join(lang() === "zh" ? "，" : ", ");
}

/** Fill "{name}" slots in a label: fill("Step {n}", {n: 3}) -> "Step 3" (unknown slots stay). */
export function fill(text, vars = {}) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function t(key, vars = {}) {
  const table = STRINGS[lang()];
  const text = key in table ? table[key] : STRINGS.en[key];
  if (typeof text !== "string") return text;
  return fill(text, vars);
}

/** URL of a data file written by bookbuild/widgets.py, relative to this module (works from a sub-path). */
export function dataUrl(name) {
  return new URL(`../../data/widgets/${name}.json`, import.meta.url).href;
}

const cache = new Map();

/** Fetch a widget data file once per page load. */
export function loadData(name) {
  if (!cache.has(name)) {
    cache.set(name, fetch(dataUrl(name)).then((response) => {
      if (!response.ok) throw new Error(`${name}.json: HTTP ${response.status}`);
      return response.json();
    }));
  }
  return cache.get(name);
}

/** Link the stylesheet at ``href`` once per document; resolves when it has loaded (at once if it
 * already had), rejects if it cannot load. Used by the widget loader (a widget's own stylesheet)
 * and the playground (playground.css). */
export function stylesheet(href) {
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (link && link.sheet) return Promise.resolve();
  if (!link) {
    link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
  return new Promise((resolve, reject) => {
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => reject(new Error(`${href} did not load`)), { once: true });
  });
}

/** One item of a data file the build also writes item by item (bookbuild/widgets.py PARTS:
 * data/widgets/<name>/<id>.json): {item}. What every item shows is in loadData(`${name}/shared`). */
export function loadPart(name, id) {
  return loadData(`${name}/${id}`).catch(() => { throw new Error(`no ${name} "${id}"`); });
}

/** Build an HTML element: el("button", {class: "x", onclick: f}, "text", child). Text is never parsed as HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an SVG element the same way. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

/** 0.4567 -> "45.7%"; a positive share too small to show is "<0.1%", never "0.0%" (formatting only). */
export function pct(x, digits = 1) {
  const smallest = 10 ** -digits;
  if (x > 0 && 100 * x < smallest / 2) return `<${smallest.toFixed(digits)}%`;
  return `${(100 * x).toFixed(digits)}%`;
}

/** A number with fixed decimals, with a real minus sign. */
export function num(x, digits = 3) {
  return x.toFixed(digits).replace(/^-/, "−");
}

let counter = 0;
/** A page-unique id for aria-labelledby / for= links. */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * A group of buttons where exactly one is selected: click, tap, Enter/Space, arrow keys,
 * Home/End. Roving tabindex: Tab enters the group once, arrows move within it.
 */
export function choiceGroup({ labels, selected = 0, label, onSelect, className = "" }) {
  const group = el("div", { class: `attn-choices ${className}`.trim(), role: "radiogroup", "aria-label": label });
  const buttons = labels.map((text, i) => el("button", {
    type: "button", class: "attn-choice", role: "radio", "data-index": i,
    onclick: () => select(i, true),
  }, text));
  group.append(...buttons);
  function select(i, fromUser = false, focus = false) {
    selected = i;
    buttons.forEach((b, j) => {
      b.setAttribute("aria-checked", String(j === i));
      b.tabIndex = j === i ? 0 : -1;
    });
    if (focus) buttons[i].focus();
    if (fromUser) onSelect(i);
  }
  group.addEventListener("keydown", (event) => {
    const n = buttons.length;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next = null;
    if (event.key in moves) next = (selected + moves[event.key] + n) % n;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = n - 1;
    if (next !== null) {
      event.preventDefault();
      select(next, true, true);
    }
  });
  select(selected);
  return { element: group, buttons, select: (i) => select(i, false) };
}

/** A polite live region that screen readers announce when its text changes. */
export function liveRegion() {
  return el("p", { class: "attn-sr-only", "aria-live": "polite" });
}

// Call ``draw`` again whenever ``element`` changes width (a plot drawn to its box's width: the
// curves of train-gpt and induction-replay). Nothing where ResizeObserver is missing.
export function onWidthChange(element, draw) {
  if (typeof ResizeObserver !== "function") return;
  let drawnWidth = 0;
  new ResizeObserver(() => {
    const width = element.clientWidth;
    if (width && Math.abs(width - drawnWidth) >= 1) { drawnWidth = width; draw(); }
  }).observe(element);
}
