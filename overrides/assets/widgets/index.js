// Seeing Attention: the widget loader.
// Every <div data-widget="name"> on a page gets the module ./name.js, which exports
// mount(element, context). Material's instant navigation swaps the page content without
// reloading scripts, so we mount again on every page it emits through `document$`.
import { dataUrl, lang, t } from "./common.js";

const NAMES = new Set(["click-a-word", "switch-scene", "heads", "four-steps", "positions", "your-sentence"]);

async function mountOne(element) {
  const name = element.dataset.widget;
  element.dataset.mounted = "loading";
  try {
    if (!NAMES.has(name)) throw new Error(`unknown widget "${name}"`);
    const module = await import(`./${name}.js`);
    element.replaceChildren();
    await module.mount(element, { lang: lang(), dataUrl });
    element.dataset.mounted = "yes";
  } catch (error) {
    element.dataset.mounted = "failed";
    const note = document.createElement("p");
    note.className = "attn-widget__error";
    note.textContent = t("loadFailed") + " (" + error.message + ")";
    element.replaceChildren(note);
    console.error(error);
  }
}

function mountAll() {
  for (const element of document.querySelectorAll("[data-widget]:not([data-mounted])")) {
    mountOne(element);
  }
}

if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
  window.document$.subscribe(mountAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountAll);
} else {
  mountAll();
}
