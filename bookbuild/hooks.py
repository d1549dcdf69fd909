"""The book's MkDocs hooks (the macros are bookbuild/macros.py): each event's handlers run after
every plugin's, in the order written here (MkDocs' ``CombinedEvent``), except three that set a
priority of their own: ``offline_pdf.on_page_content`` (-100) hands print-site each page's final
HTML, ``search.on_page_content`` (-200) indexes it, ``csp.on_post_build`` (-100) hashes every
page's final scripts. tests/test_build.py checks the order, and that every handler is named here.
"""

from mkdocs.plugins import CombinedEvent

from bookbuild import (a11y, course, csp, figures, glossary, i18n, katex_math, labs, listings, nav_titles,
                       offline_pdf, playground, print_only, search, slides, templates, trim_and_minify, vendor, widgets)

on_config = CombinedEvent(i18n.on_config, course.on_config, playground.on_config, listings.on_config,
                          offline_pdf.on_config, labs.on_config, katex_math.on_config, search.on_config, csp.on_config)
on_files = CombinedEvent(figures.on_files, vendor.on_files, widgets.on_files, playground.on_files)
on_nav = CombinedEvent(nav_titles.on_nav, offline_pdf.on_nav)
on_env = CombinedEvent(templates.on_env, nav_titles.on_env)
# listings after the macros (a plugin) and the playground's links; a deck's HTML cut into slides
# after every other change; trim_and_minify before csp hashes the scripts
on_page_markdown = CombinedEvent(playground.on_page_markdown, listings.on_page_markdown, slides.on_page_markdown)
on_page_content = CombinedEvent(i18n.on_page_content, labs.on_page_content, glossary.on_page_content,
                                katex_math.on_page_content, print_only.on_page_content, a11y.on_page_content,
                                slides.on_page_content, offline_pdf.on_page_content, search.on_page_content)
on_page_context = CombinedEvent(search.on_page_context)
on_post_page = CombinedEvent(course.on_post_page, labs.on_post_page, a11y.on_post_page, trim_and_minify.on_post_page,
                             csp.on_post_page)
on_post_template = CombinedEvent(a11y.on_post_template, trim_and_minify.on_post_template)
on_post_build = CombinedEvent(offline_pdf.on_post_build, labs.on_post_build, katex_math.on_post_build,
                              search.on_post_build, trim_and_minify.on_post_build, csp.on_post_build)
on_shutdown = CombinedEvent(katex_math.on_shutdown)
