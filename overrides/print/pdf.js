/* Seeing Attention: what runs in the print page before it becomes the PDFs. tools/pdf.py calls
   each function below in headless Chromium (page.evaluate: the whole file, then the one function),
   beside overrides/print/pdf.css; the site never serves this file (bookbuild/vendor.py). */
/* exported ready, eager, student, key, prepare, broken, setNumbers */

// A new element of a class, with children (nodes or text).
function element(tag, className, ...children) {
  const el = document.createElement(tag);
  el.className = className;
  el.append(...children);
  return el;
}

// True when the page is ready to print: math typeset, figures decoded, fonts loaded.
function ready() {
  return [...document.querySelectorAll('.arithmatex')].every((el) => el.querySelector('.katex'))
    && [...document.images].every((img) => img.complete) && document.fonts.status === 'loaded';
}

// Print-only figures are loading="lazy" (never fetched on screen): fetch them for print.
function eager() {
  document.querySelectorAll('img[loading="lazy"]').forEach((img) => { img.loading = 'eager'; });
}

// The student edition: no answer, no reference solution. A folded question keeps its question
// (the summary) and gets ruled lines; an exercise's printed form (bookbuild/exercise_pages.py: the
// starting code, then the solution in a fold) loses the fold and gets ruled room for as many
// lines as the solution has, and a few more. `words`: the worksheets' labels. Returns what it changed.
function student(words) {
  document.documentElement.dataset.edition = 'student';
  const book = document.querySelector('#print-site-page');
  const ruled = (lines, label) => element('div', 'worksheet-room', element('p', 'worksheet-room__label', label),
    ...Array.from({length: lines}, () => element('div', 'worksheet-room__line')));
  let questions = 0, exercises = 0, solutions = 0;
  for (const form of book.querySelectorAll('[data-widget="exercise"] + .print-only')) {
    const solution = form.querySelector('details');
    const lines = solution ? solution.querySelector('pre').innerText.trim().split('\n').length : 8;
    if (solution) solution.remove();
    form.classList.add('worksheet');
    form.append(ruled(Math.max(8, lines + 3), words.code));
    exercises += 1;
  }
  for (const d of book.querySelectorAll('details.question')) {
    const question = element('p', 'worksheet-question__text', ...d.querySelector(':scope > summary').childNodes);
    d.replaceWith(element('div', 'worksheet-question', question, ruled(3, words.answer)));
    questions += 1;
  }
  // any other reference solution (a success fold) leaves too
  for (const d of book.querySelectorAll('details.success')) { d.remove(); solutions += 1; }
  return {questions, exercises, solutions};
}

// The teacher's key: each page keeps its title and, in order, its questions, folded or checked (with their answers)
// and its exercises (the task before the widget, the printed form with its reference solution),
// each run under the heading it sits under; pages and chapters left empty go, and so do their
// entries in the contents. Returns what it kept.
function key() {
  document.documentElement.dataset.edition = 'key';
  const book = document.querySelector('#print-site-page');
  let questions = 0, exercises = 0;
  for (const page of book.querySelectorAll('section.print-page[heading-number]:not(.md-section)')) {
    const title = page.querySelector(':scope > h1');
    const kept = [];
    let heading = null, shown = null;
    for (const el of page.querySelectorAll('h2, h3, details.question, .attn-question, [data-widget="exercise"]')) {
      if (el.matches('h2, h3')) { heading = el; continue; }
      if (heading && heading !== shown) { kept.push(heading); shown = heading; }
      if (el.matches('details.question, .attn-question')) { kept.push(el); questions += 1; continue; }   // folded or checked
      const task = [];
      for (let p = el.previousElementSibling; p && !p.matches('h1, h2, h3, h4'); p = p.previousElementSibling) {
        if (!p.matches('.screen-only, [data-widget]')) task.unshift(p);
      }
      kept.push(...task, ...[el.nextElementSibling].filter((form) => form && form.matches('.print-only')));
      exercises += 1;
    }
    if (kept.length) page.replaceChildren(...[title, ...kept].filter(Boolean));
    else page.remove();
  }
  book.querySelectorAll('section.print-page.md-section').forEach((chapter) =>
    chapter.querySelector('section.print-page[heading-number]') || chapter.remove());
  for (const a of [...document.querySelectorAll('#print-page-toc a[href]')]) {   // the page's own URL + #id
    const id = decodeURIComponent(new URL(a.href, location.href).hash.slice(1));
    if (id && !document.getElementById(id)) a.closest('li').remove();
  }
  document.querySelectorAll('#print-page-toc ul').forEach((list) => list.querySelector('li') || list.remove());
  return {questions, exercises};
}

// Folds opened, links and contents made ready for the PDF. `maxName`: the longest name a PDF may
// hold, in bytes (tools/pdf.py MAX_NAME). Returns the contents' anchors and the links that leak.
function prepare(maxName) {
  document.querySelectorAll('details').forEach((d) => d.setAttribute('open', ''));
  // Links inside the book become links inside the PDF: same-page anchors are made plain '#id'
  // (a PDF viewer cannot follow a link back to the local server that printed it).
  const here = location.origin + location.pathname;
  const leaks = [];
  for (const a of document.querySelectorAll('#print-site-page a[href]')) {
    const url = new URL(a.getAttribute('href'), location.href);
    if (url.origin !== location.origin) continue;
    if (url.origin + url.pathname === here && url.hash) a.setAttribute('href', url.hash);
    else if (!a.closest('.screen-only')) leaks.push(a.getAttribute('href'));
  }
  // Chromium names a link's destination in the PDF by the target's id, percent-encoded; a PDF
  // name is at most 127 bytes (PDF 1.7, Annex C), and 41 ids of the Chinese book (a heading's id
  // holds its words: ch10-sharing-kv-每个词元… is 178 bytes encoded) were longer: poppler reports
  // each as a syntax error and a reader that keeps to the limit may not follow the link. Such a
  // target gets a short id (pdf-1, pdf-2, ...) and its links follow. encodeURIComponent escapes
  // at least what Chromium does; tools/pdf.py checks the names in the PDF.
  const targets = new Map();
  for (const a of document.querySelectorAll('#print-site-page a[href^="#"]')) {
    const id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (encodeURIComponent(id).length > maxName) (targets.get(id) || targets.set(id, []).get(id)).push(a);
  }
  let renamed = 0;
  for (const [id, links] of targets) {
    const target = document.getElementById(id);
    if (!target) continue;
    do renamed += 1; while (document.getElementById(`pdf-${renamed}`));
    target.id = `pdf-${renamed}`;
    links.forEach((a) => a.setAttribute('href', `#${target.id}`));
  }
  // A heading that does not print (inside .screen-only: the playground's instructions) is not
  // listed in the contents.
  for (const a of [...document.querySelectorAll('#print-page-toc a[href^="#"]')]) {
    const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    if (target && target.getClientRects().length === 0) a.closest('li').remove();
  }
  // A chapter whose first page is its own index page (same title): print that title once,
  // and list it once in the contents (the chapter entry leads to it).
  for (const chapter of document.querySelectorAll('#print-site-page section.md-section')) {
    const heading = chapter.querySelector(':scope > h1');
    const first = chapter.querySelector(':scope > section.print-page');
    const firstTitle = first && first.querySelector(':scope > h1');
    const text = (h) => { const c = h.cloneNode(true); c.querySelectorAll('.headerlink').forEach((x) => x.remove()); return c.textContent.trim(); };
    if (!heading || !firstTitle || text(heading) !== text(firstTitle)) continue;
    heading.remove();
    for (const a of document.querySelectorAll('#print-page-toc a')) {
      if (new URL(a.href, location.href).hash === '#' + first.id) a.closest('li').remove();
    }
  }
  // Contents entries: title, dotted leader, page number (filled in after the first pass).
  const entries = [...document.querySelectorAll('#print-page-toc a[href^="#"]')];
  for (const a of entries.filter((a) => !a.querySelector('.toc-title'))) {
    a.append(element('span', 'toc-title', ...a.childNodes), element('span', 'toc-leader'), element('span', 'toc-page'));
  }
  return {anchors: entries.map((a) => decodeURIComponent(a.getAttribute('href').slice(1))), leaks};
}

// What did not render: figures that did not load, formulas KaTeX could not typeset.
function broken() {
  return [
    ...[...document.images].filter((img) => img.complete && img.naturalWidth === 0)
      .map((img) => 'figure did not load: ' + img.getAttribute('src')),
    ...[...document.querySelectorAll('.katex-error')].map((el) => 'KaTeX error: ' + el.textContent)];
}

// The contents' page numbers: `numbers` is {anchor: page}, read from the last print.
function setNumbers(numbers) {
  document.querySelectorAll('#print-page-toc a[href^="#"]').forEach((a) => {
    const n = numbers[decodeURIComponent(a.getAttribute('href').slice(1))];
    a.querySelector('.toc-page').textContent = n === undefined ? '' : String(n);
  });
}
