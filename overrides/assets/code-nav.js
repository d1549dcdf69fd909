// Seeing Attention: Material puts each code block's copy button in a <nav class="md-code__nav">
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
