// Seeing Attention: two fixes to Material's code blocks.
// (1) Material puts each code block's copy button in a <nav class="md-code__nav">
// (content.code.copy), so a chapter page had a dozen navigation landmarks with no name, which
// axe's best-practice rule landmark-unique reports and which fill a screen reader's list of
// landmarks with copy buttons. A copy button is not navigation: each such <nav> becomes a plain
// group (role="none" is allowed on <nav>, ARIA in HTML). Material adds them after the page loads
// and again on every instant navigation, so new ones are caught as they appear.
// Tests: tests/test_axe.py (landmark-unique on every page).
(function () {
  function plain(root) {
    for (const nav of root.querySelectorAll("nav.md-code__nav:not([role])")) nav.setAttribute("role", "none");
  }
  plain(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches("nav.md-code__nav:not([role])")) node.setAttribute("role", "none");
        else plain(node);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
})();

// (2) Material makes a code block that scrolls sideways focusable (tabindex="0") only where the pointer
// can hover, matchMedia("(hover)"), and takes the attribute away elsewhere: on a phone's touch
// screen a reader with a keyboard, a switch or a screen reader's keys could not reach a listing
// wider than the screen (WCAG 2.1.1, axe's scrollable-region-focusable, on half the chapter pages).
// Where there is no hover, each such block gets tabindex="0" while it is wider than its box, and
// gets it back when Material removes it. Tests: tests/test_touch.py (375 px, touch emulation).
(function () {
  if (matchMedia("(hover)").matches) return;   // Material does it
  const MARK = "touchFocusable";
  function update(code) {
    const wide = code.scrollWidth > code.clientWidth + 1;
    if (wide && !code.hasAttribute("tabindex")) {
      code.setAttribute("tabindex", "0");
      code.dataset[MARK] = "yes";
    } else if (!wide && code.dataset[MARK] === "yes") {
      code.removeAttribute("tabindex");
      delete code.dataset[MARK];
    }
  }
  const sizes = new ResizeObserver((entries) => { for (const entry of entries) update(entry.target); });
  function watch(root) {
    for (const code of root.querySelectorAll("pre > code")) {
      sizes.observe(code);
      update(code);
    }
  }
  watch(document);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") {
        if (record.target.matches("pre > code")) update(record.target);
        continue;
      }
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches("pre > code")) { sizes.observe(node); update(node); } else watch(node);
      }
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex"] });
})();
