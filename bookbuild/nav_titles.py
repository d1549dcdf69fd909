"""The nav is written once, in mkdocs.yml, for both languages; its titles come from the pages.

A section's title is the H1 of its index page (its first entry, ``chN/index.md``; in mkdocs.yml its key is
a placeholder, its folder), set in ``on_env``, when every page is read and none rendered. The home page's
and the PDF link's titles are :data:`TITLES`.
"""

from __future__ import annotations

import posixpath

from mkdocs.exceptions import PluginError
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page

TITLES = {"zh": {"home": "首页", "pdf": "下载 PDF"}, "en": {"home": "Home", "pdf": "Download PDF"}}
_sections: list[tuple[Section, Page]] = []   # this build's sections and their index pages (set in on_nav)


def sections(items) -> list[Section]:
    """Every section of the nav, depth first."""
    return [found for item in items if isinstance(item, Section) for found in (item, *sections(item.children))]


def index_page(section: Section) -> Page:
    """The section's first entry, which must be ``<folder>/index.md`` (its title is the section's)."""
    first = section.children[0] if section.children else None
    if not (isinstance(first, Page) and posixpath.basename(first.file.src_uri) == "index.md"):
        found = first.file.src_uri if isinstance(first, Page) else repr(first)
        raise PluginError(f"nav_titles: the nav section '{section.title}' in mkdocs.yml must begin with its index page "
                          f"(<folder>/index.md, whose H1 is the section's title), not {found}")
    return first


def on_nav(nav, config, files):
    for page in nav.pages:
        if page.is_homepage:
            page.title = TITLES[config.theme["language"]]["home"]
    _sections[:] = [(section, index_page(section)) for section in sections(nav.items)]
    return nav


def on_env(env, config, files):
    for section, index in _sections:
        section.title = index.title
    return env
