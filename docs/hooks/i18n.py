"""Build glue for the two languages.

* The English config inherits ``site_url`` from mkdocs.yml; its pages live under ``en/``.
* ``mkdocs serve`` (Chinese config) also builds the English book into ``<site>/en/`` after
  each build, so one server at http://127.0.0.1:8000 shows both languages with live reload.
"""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.i18n")
ROOT = Path(__file__).resolve().parents[2]
_command = "build"


def on_startup(command, dirty):
    global _command
    _command = command


def on_config(config):
    if config.theme["language"] == "en" and config.site_url and not config.site_url.endswith("/en/"):
        config.site_url = config.site_url.rstrip("/") + "/en/"
    return config


def on_post_build(config):
    if _command != "serve" or config.theme["language"] != "zh":
        return
    target = Path(config.site_dir) / "en"
    cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.en.yml"), "-d", str(target)]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        log.error("The English book failed to build:\n%s", result.stderr[-4000:])
    else:
        log.info("English book built into %s", target)


# Chinese sources keep one sentence per line (for readable diffs). A browser turns each line
# break into a space, which Chinese typesetting does not want: drop line breaks that follow a
# CJK character or CJK punctuation, outside <pre> blocks.
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_BREAK_AFTER_CJK = re.compile(rf"(?<=[{_CJK}])\n\s*(?=\S)")
_PRE = re.compile(r"(<pre\b.*?</pre>)", re.S)


def join_cjk_lines(html: str) -> str:
    """'句子一。\\n句子二。' -> '句子一。句子二。', leaving <pre> blocks alone."""
    parts = _PRE.split(html)
    return "".join(p if p.startswith("<pre") else _BREAK_AFTER_CJK.sub("", p) for p in parts)


def on_page_content(html, page, config, files):
    if config.theme["language"] == "zh":
        return join_cjk_lines(html)
    return html
