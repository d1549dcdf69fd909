"""The offline PDF: build facts for its cover, its link in the nav, the print page's input. (bookbuild/offline_pdf.py)"""

from bookbuild.offline_pdf import on_config, on_nav, on_page_content, on_post_build  # noqa: F401
