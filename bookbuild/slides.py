"""Slides for every chapter, built from the book's own sources by the book's own pipeline.

A deck, ``docs/<lang>/chN/slides.md``, is a page of the book's Markdown (macros, figures, listings,
KaTeX); a line ``---`` between blank lines starts a slide, which has one heading and speaker notes
(``<aside class="notes" markdown>``). This hook gives a deck its template, overrides/slides.html (for
reveal.js, vendored by bookbuild/vendor.py), keeps it out of the nav and the search, cuts its HTML into
``<section>`` slides, checks each (a broken rule stops the build with the slide's number) and takes off
what belongs to a book page. overrides/assets/slides/slides.js runs the deck, the presenter view
(``?presenter``) and printing. Checks: tests/test_slides.py.
"""

from __future__ import annotations

import html as htmllib
import re
import unicodedata

from mkdocs.exceptions import PluginError

from .bookcache import load_yaml
from . import course

DECK = re.compile(r"^ch(\d+)/slides\.md$")

LABELS = load_yaml(course.DOCS / "labels.yml")["slides"]


def chapter_of(src_uri: str) -> str:
    found = DECK.match(src_uri)
    if not found:
        raise PluginError(f"slides: {src_uri} is not a deck (decks are chN/slides.md)")
    return f"ch{found.group(1)}"


IMAGE_LINE = re.compile(r"^(?P<indent>[ \t]*)!\[(?P<alt>[^\n]*)\]\((?P<path>[^)\s]*figures/(?P<id>[a-z0-9-]+)\.svg)\)[ \t]*$", re.M)


def figure_markdown(env, lang: str, fig_id: str, chapter: str) -> str:
    """A figure as the book shows it: the image with the alt text of the page that embeds it and
    its caption, both rendered there (their numbers computed as on that page). The chapter's own
    pages are searched first, then every page of the nav (the tour's figures)."""
    pages = course.chapter_pages(chapter) + [p for p in course.nav_pages() if not p.startswith(f"{chapter}/")]
    for page in pages:
        if page.endswith(".py") or f"figures/{fig_id}.svg" not in course.source(lang, page):
            continue
        text = course.rendered(env, lang, page)
        match = next((m for m in IMAGE_LINE.finditer(text) if m["id"] == fig_id), None)
        if match is None:
            continue
        lines = [f"![{match['alt']}](../figures/{fig_id}.svg)"]
        rest, indent = text[match.end():].lstrip("\n").splitlines(), match["indent"]
        if rest and rest[0].strip() == "/// caption":
            for line in rest:
                lines.append(line[len(indent):] if line.startswith(indent) else line.strip())
                if len(lines) > 2 and line.strip() == "///":
                    break
        return "\n".join(lines) + "\n"
    raise PluginError(f"slides: no page of the {lang} book shows the figure {fig_id!r} "
                      "(a deck shows the book's figures, with the alt text and caption of the page that has them)")


def practice_markdown(lang: str, from_page: str, chapter: str) -> str:
    """The chapter's coding exercises and the questions that check its objectives, as links."""
    from .exercise_pages import load_all, reading_order

    lab = LABELS[lang]
    exercises = [course.exercise_ref(lang, from_page, i)["link"] for i in reading_order(lang)
                 if load_all()[i][0].split("/")[1] == chapter]
    questions = [course.check_link(lang, from_page, o["check"]) for o in course.objectives(chapter) if "question" in o["check"]]
    lines = [lab[key].format(links=lab["and"].join(links))
             for key, links in (("practice_exercises", exercises), ("practice_questions", questions)) if links]
    return "\n".join(lines) + "\n"


def register_macros(env) -> None:
    """The decks' macros: ``figure(id)`` (with the alt text and caption of the page that shows it),
    ``deck_title()``, ``deck_objectives()``, ``deck_practice()``, ``deck_time()``."""
    course.page_macros(env, {
        "figure": lambda lang, page, fig_id: figure_markdown(env, lang, fig_id, chapter_of(page)),
        "deck_title": lambda lang, page: course.title(lang, chapter_of(page) + "/index.md"),
        "deck_objectives": lambda lang, page: "".join(f"{n}. {item[lang].rstrip()}\n" for n, item
                                                      in enumerate(course.objectives(chapter_of(page)), 1)),
        "deck_practice": lambda lang, page: practice_markdown(lang, page, chapter_of(page)),
        "deck_time": lambda lang, page: LABELS[lang]["time"].format(t=course.about_time(lang, chapter_of(page))),
    })


def on_page_markdown(markdown, page, config, files):
    if DECK.match(page.file.src_uri):
        if page.parent is not None:
            raise PluginError(f"slides: {page.file.src_uri} is in the nav; decks stay out of it (mkdocs.yml: not_in_nav)")
        page.meta["template"] = "slides.html"
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        page.meta["deck"] = {"chapter": chapter_of(page.file.src_uri), "labels": LABELS[config.theme["language"]],
                             "book": config.site_name, "index": "../"}
    return markdown


HEADERLINK = re.compile(r'<a class="headerlink" href="[^"]*" title="[^"]*">&para;</a>')
LISTING_PAIR = re.compile(r'(<div class="highlight"><pre>.*?</pre></div>)\s*(<div class="highlight"><pre>.*?</pre></div>)', re.S)
TAG = re.compile(r"<[^>]+>")
# A slide is 1280 × 720 px (assets/slides/slides.js); below its heading a listing has about this much room.
LISTING_ROOM = (1130, 430)     # px: width, height
MONO = (0.6, 1.4)              # a monospace character's width and a line's height, per px of font size
CODE_LINE_ANCHOR = re.compile(r'<a id="__codelineno-[\d-]+" name="__codelineno-[\d-]+" href="#__codelineno-[\d-]+"></a>')
HEADING_TAG = re.compile(r"<h([12])\b")
NOTES = re.compile(r'<aside class="notes">')
FORBIDDEN = {"data-widget=": "an interactive widget (slides run no widget: show its figure with {{ figure(...) }})",
             'class="print-only': "a print-only block",
             "<details": "a fold (a slide shows everything it has)"}


def sections(html: str, where: str) -> list[str]:
    """The slides of a deck's HTML (cut at each <hr />), each checked: one heading, its notes,
    nothing that needs a book page."""
    slides = [part.strip() for part in re.split(r"<hr\s*/?>", html)]
    problems = []
    for n, slide in enumerate(slides, 1):
        heads = HEADING_TAG.findall(slide)
        if len(heads) != 1 or not HEADING_TAG.match(slide):
            problems.append(f"slide {n} must begin with its one heading (# or ##), found {len(heads)}")
        if len(NOTES.findall(slide)) != 1:
            problems.append(f'slide {n} needs one <aside class="notes" markdown> with the speaker notes')
        for mark, what in FORBIDDEN.items():
            if mark in slide:
                problems.append(f"slide {n} holds {what}")
    if problems:
        raise PluginError(f"slides: {where}: " + "; ".join(problems))
    return slides


def listing_layout(code: str, output: str) -> tuple[str, float]:
    """How a listing's code and output share a slide: side by side when their lines fit next to each
    other, else one above the other; and the largest font size (px, at most 16) at which they fit.

    >>> listing_layout("x = 1\\nprint(x)", "1")
    ('side', 16.0)
    >>> listing_layout("\\n".join(["y" * 90] * 10), "z" * 60)
    ('stacked', 16.0)
    """
    def columns(line):            # a Chinese character takes two columns of a monospace font
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)

    code_lines, out_lines = (text.rstrip("\n").split("\n") for text in (code, output))
    wide = max(map(columns, code_lines)) + max(map(columns, out_lines)) + 6        # the gap and the padding
    side = wide * MONO[0] * 15 <= LISTING_ROOM[0]
    cols = wide if side else max(map(columns, code_lines + out_lines)) + 3
    rows = max(len(code_lines), len(out_lines)) if side else len(code_lines) + len(out_lines) + 2
    size = min(16.0, LISTING_ROOM[0] / (cols * MONO[0]), LISTING_ROOM[1] / (rows * MONO[1]))
    return ("side" if side else "stacked"), round(size, 1)


def lay_out_listing(match) -> str:
    layout, size = listing_layout(*(htmllib.unescape(TAG.sub("", block)) for block in match.groups()))
    return f'<div class="slide-listing slide-listing--{layout}" style="font-size: {size}px">{match[1]}{match[2]}</div>'


def on_page_content(html, page, config, files):
    if not DECK.match(page.file.src_uri):
        return html
    html = HEADERLINK.sub("", html)
    html = CODE_LINE_ANCHOR.sub("", html)
    html = LISTING_PAIR.sub(lay_out_listing, html).replace("<pre>", '<pre tabindex="0">')   # a code block that scrolls on a phone
    slides = sections(html, f"docs/{config.theme['language']}/{page.file.src_uri}")
    # the body carries the slide's margins: reveal's print layout sets a section's own padding to 0
    return "\n".join(f'<section data-slide="{n}"><div class="slide-body">\n{slide}\n</div></section>'
                     for n, slide in enumerate(slides, 1))
