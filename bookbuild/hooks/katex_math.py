"""Math rendered at build time by KaTeX; its stylesheet and fonts cut to what the book uses. (bookbuild/katex_math.py)"""

from bookbuild.katex_math import on_config, on_page_content, on_post_build, on_shutdown  # noqa: F401
