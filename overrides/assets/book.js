// Seeing Attention: render math with the site's own KaTeX after every (instant) page load.
document$.subscribe(() => {
  renderMathInElement(document.body, {
    delimiters: [
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: false,
  });
});
