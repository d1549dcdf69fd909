"""The build glue of the book: the modules behind the MkDocs hooks in bookbuild/hooks/ (see CONTRIBUTING.md)."""
