"""The build glue of the book: the modules whose handlers bookbuild/hooks.py registers with MkDocs (see CONTRIBUTING.md)."""
