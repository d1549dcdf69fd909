"""Build glue for the two languages.

* The English config inherits ``site_url`` from mkdocs.yml; its pages live under ``en/``.
* Each heading's permalink has its tooltip in the book's language.

(Chinese line breaks are joined by cjk_lines.py.)

tools/build.py builds both languages in parallel and tools/serve.py serves both at one address
(``make serve``); each language is built by its own process.
"""

from __future__ import annotations


# The link beside each heading (the toc extension's permalink): its tooltip, in the book's
# language. The extension's default, "Permanent link", showed on every heading of the Chinese book.
PERMALINK_TITLE = {"zh": "本节的链接", "en": "Link to this section"}


def on_config(config):
    if config.theme["language"] == "en" and config.site_url and not config.site_url.endswith("/en/"):
        config.site_url = config.site_url.rstrip("/") + "/en/"
    if "toc" in config.mdx_configs:
        config.mdx_configs["toc"]["permalink_title"] = PERMALINK_TITLE[config.theme["language"]]
    return config
