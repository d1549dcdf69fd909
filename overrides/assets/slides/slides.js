// Seeing Attention: a chapter's slides (bookbuild/slides.py, overrides/slides.html).
//
//   chN/slides/                the deck: reveal.js on a screen at least WIDE px wide (a projector, a
//                              laptop); on a narrower one (a phone) the slides are a plain page that
//                              scrolls, as a handout: reveal would shrink a 1280-px slide to a third.
//                              #/3 is the third slide.
//   chN/slides/?presenter      the presenter view: this slide and the next (the deck itself, in two
//                              frames), the speaker notes, a timer and a clock. It follows the deck
//                              and drives it: both talk over a BroadcastChannel named by the deck's
//                              path. Open it with S, or the toolbar's link.
//   chN/slides/?print-pdf      reveal's print layout: one slide per page (print, or save as PDF);
//                              &showNotes=separate-page adds the notes, each on a page of its own.
//   chN/slides/?receiver#/3    a frame of the presenter view: the deck at slide 3, nothing else.
//
// A classic script (reveal.js's UMD build sets window.Reveal), so the deck also runs from file://,
// where a browser refuses module scripts. Every word it shows comes from the page (the template's
// data attributes: docs/labels.yml, slides:).
(function () {
  "use strict";
  const WIDE = 640;                      // px: narrower than this, the slides are a plain page
  const params = new URLSearchParams(location.search);
  const receiver = params.has("receiver");
  const presenter = params.has("presenter");
  const printing = /print-pdf/i.test(location.search);
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const root = document.querySelector(".deck");   // the slides (a <div> in <main>)
  const tools = document.querySelector(".deck-tools");
  const slides = Array.from(root.querySelectorAll(".slides > section"));
  let channel = null;
  try {
    channel = new BroadcastChannel("attn-slides:" + location.pathname);
  } catch (error) {
    channel = null;                      // no channel (some file:// pages): the presenter view cannot follow
  }

  const slideFromHash = () => {
    const n = parseInt((location.hash.match(/^#\/(\d+)/) || [])[1], 10);
    return Number.isFinite(n) ? Math.min(Math.max(n, 1), slides.length) : 1;
  };

  if (presenter) {
    startPresenter();
    return;
  }
  document.documentElement.classList.toggle("is-receiver", receiver);
  document.documentElement.classList.toggle("is-printing", printing);

  // --- the deck ---------------------------------------------------------------------------
  let deck = null;
  let plain = false;

  function options() {
    return {
      hash: true, hashOneBasedIndex: true, respondToHashChanges: true, history: false,
      width: 1280, height: 720, margin: 0.04, minScale: 0.2, maxScale: 2.0, center: false,
      viewDistance: 99, mobileViewDistance: 99,   // every slide laid out (hidden, not display: none): a few dozen at most
      controls: false, help: false, progress: !receiver, slideNumber: receiver ? false : "c/t",
      keyboard: !receiver, touch: !receiver, overview: !receiver,
      transition: reduced || receiver ? "none" : "fade", transitionSpeed: "fast", backgroundTransition: "none",
      scrollActivationWidth: null,        // below WIDE this script shows a plain page instead
      pdfSeparateFragments: false, pdfMaxPagesPerSlide: 1,
    };
  }

  function openPresenter() {
    const url = location.pathname + "?presenter" + location.hash;
    const opened = window.open(url, "attn-presenter:" + location.pathname, "width=1200,height=760");
    if (!opened) location.href = url;    // a blocked pop-up: open it here instead
  }

  function startReveal() {
    root.classList.add("reveal");
    root.classList.remove("deck-plain");
    document.documentElement.classList.remove("is-plain");
    deck = new Reveal(root, options());
    deck.initialize().then(() => {
      if (!receiver) {
        deck.addKeyBinding({ keyCode: 83, key: "S", description: tools.querySelector(".deck-tools__presenter").textContent },
                           openPresenter);
      }
      tell();
    });
    deck.on("slidechanged", tell);
  }

  function startPlain() {
    plain = true;
    root.classList.remove("reveal");
    root.classList.add("deck-plain");
    document.documentElement.classList.add("is-plain");
  }

  function tell() {                      // the presenter view follows the deck
    if (channel && deck && !receiver) channel.postMessage({ type: "at", slide: deck.getIndices().h + 1 });
  }

  if (channel && !receiver) {
    channel.onmessage = (event) => {
      const message = event.data || {};
      if (message.type === "go" && Number.isInteger(message.slide)) {
        if (deck && deck.getIndices().h + 1 !== message.slide) deck.slide(message.slide - 1);
        else if (plain) location.hash = "#/" + message.slide;
      } else if (message.type === "where") {
        tell();
      }
    };
  }

  const narrow = () => !printing && !receiver && window.innerWidth < WIDE;
  if (narrow()) startPlain();
  else startReveal();

  // A window that crosses WIDE changes layout: reveal leaves (destroy) or comes back.
  window.addEventListener("resize", () => {
    if (narrow() && deck) {
      const at = deck.getIndices().h + 1;
      deck.destroy();
      deck = null;
      startPlain();
      const target = slides[at - 1];
      if (target && at > 1) target.scrollIntoView();
    } else if (!narrow() && plain) {
      plain = false;
      startReveal();
    }
  });

  // the toolbar (not in the presenter's frames, not on paper)
  tools.querySelector(".deck-tools__prev").addEventListener("click", () => deck ? deck.prev() : null);
  tools.querySelector(".deck-tools__next").addEventListener("click", () => deck ? deck.next() : null);
  tools.querySelector(".deck-tools__presenter").addEventListener("click", (event) => {
    event.preventDefault();
    openPresenter();
  });
  // the bar rests out of sight while the mouse does: a projected slide shows nothing else
  let resting = 0;
  const wake = () => {
    tools.classList.remove("is-resting");
    clearTimeout(resting);
    if (!plain) resting = setTimeout(() => tools.classList.add("is-resting"), 2500);
  };
  ["mousemove", "pointerdown", "touchstart", "focusin"].forEach((type) => document.addEventListener(type, wake, { passive: true }));
  wake();
  if (printing) {
    const hint = document.querySelector(".deck-print-hint");
    hint.hidden = false;
    hint.querySelector("button").addEventListener("click", () => window.print());
  }

  // --- the presenter view -------------------------------------------------------------------
  function startPresenter() {
    document.documentElement.classList.add("is-presenter");
    const view = document.querySelector(".presenter");
    view.hidden = false;
    root.hidden = true;
    tools.hidden = true;
    const [current, upcoming] = view.querySelectorAll("iframe");
    const end = view.querySelector(".presenter__end");
    const notes = view.querySelector(".presenter__notes-body");
    const count = view.querySelector(".presenter__count");
    const countText = tools.dataset.count;
    const total = slides.length;
    let at = 0;

    function show(n, send) {
      n = Math.min(Math.max(n, 1), total);
      if (n === at) return;
      at = n;
      current.src = location.pathname + "?receiver#/" + n;
      if (n < total) {
        upcoming.hidden = false;
        end.hidden = true;
        upcoming.src = location.pathname + "?receiver#/" + (n + 1);
      } else {
        upcoming.hidden = true;
        end.hidden = false;
      }
      const aside = slides[n - 1].querySelector("aside.notes");
      notes.replaceChildren(...(aside ? Array.from(aside.childNodes, (node) => node.cloneNode(true)) : []));
      count.textContent = countText.replace("{n}", n).replace("{total}", total);
      history.replaceState(null, "", "?presenter#/" + n);
      if (send && channel) channel.postMessage({ type: "go", slide: n });
    }

    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("button")) return;
      const keys = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, n: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1, p: -1 };
      if (event.key in keys) show(at + keys[event.key], true);
      else if (event.key === "Home") show(1, true);
      else if (event.key === "End") show(total, true);
      else return;
      event.preventDefault();
    });
    view.querySelector(".presenter__next").addEventListener("click", () => show(at + 1, true));
    view.querySelector(".presenter__prev").addEventListener("click", () => show(at - 1, true));
    if (channel) {
      channel.onmessage = (event) => {
        const message = event.data || {};
        if (message.type === "at" && Number.isInteger(message.slide)) show(message.slide, false);
      };
      channel.postMessage({ type: "where" });       // an open deck answers with its slide
    }
    show(slideFromHash(), false);

    // the timer: from the moment the view opens; pause, resume, reset
    const elapsed = view.querySelector(".presenter__elapsed");
    const pause = view.querySelector(".presenter__pause");
    const now = view.querySelector(".presenter__now");
    let started = Date.now();
    let stoppedAt = null;
    const pad = (x) => String(x).padStart(2, "0");
    function tick() {
      const seconds = Math.floor(((stoppedAt || Date.now()) - started) / 1000);
      const h = Math.floor(seconds / 3600);
      const m = Math.floor(seconds / 60) % 60;
      elapsed.textContent = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(seconds % 60);
      elapsed.dateTime = "PT" + seconds + "S";
      now.textContent = new Date().toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    }
    pause.addEventListener("click", () => {
      if (stoppedAt) {
        started += Date.now() - stoppedAt;
        stoppedAt = null;
        pause.textContent = view.dataset.pause;
      } else {
        stoppedAt = Date.now();
        pause.textContent = view.dataset.resume;
      }
      tick();
    });
    view.querySelector(".presenter__reset").addEventListener("click", () => {
      started = Date.now();
      if (stoppedAt) stoppedAt = started;
      tick();
    });
    tick();
    setInterval(tick, 1000);
  }
})();
