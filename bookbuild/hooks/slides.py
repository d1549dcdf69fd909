"""Each chapter's deck (chN/slides.md) laid out for reveal.js: template, slides, checks. (bookbuild/slides.py)"""

from bookbuild.slides import on_page_content, on_page_markdown  # noqa: F401
