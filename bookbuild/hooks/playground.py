"""The playground page: Pyodide, attnkit and the listings in the reader's browser, offline. (bookbuild/playground.py)"""

from bookbuild.playground import on_config, on_files, on_page_markdown  # noqa: F401
