"""Lab notebooks: how their kernels run, their cache, copy buttons, alt texts and nothing from a CDN. (bookbuild/labs.py)"""

from bookbuild.labs import on_config, on_page_content, on_post_page, on_post_build  # noqa: F401
