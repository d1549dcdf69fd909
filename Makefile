# Seeing Attention · 看见注意力
#   make serve   set everything up, then serve the book at http://127.0.0.1:8000 (live reload)
#   make test    set everything up, build both languages and the PDFs, run every test
#   make build   write the site: Chinese at site/, English at site/en/
#   make pdf     build, then print the whole book to site/pdf/ (one PDF per language)
#   make publish the deployable site/ (both languages + PDFs), as CI deploys it to GitHub Pages;
#                SITE_URL=https://<user>.github.io/<repo>/ sets its public address
#   make bench   print build times, page weights and the tiny GPT's training speed (figures, not assertions)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup sysdeps serve build pdf publish test bench clean

setup: sysdeps $(VENV)/.installed node_modules/.installed .cache/pyodide/.verified

# Pyodide + the official numpy wheel for the playground, fetched from npm and PyPI and checked
# against the sha256 pins in tools/pyodide-manifest.json (cached in .cache/, never committed).
.cache/pyodide/.verified: tools/vendor_pyodide.py tools/pyodide-manifest.json $(VENV)/.installed
	$(BIN)/python tools/vendor_pyodide.py
	touch $@

# Debian packages: Chromium (browser tests, PDF) and Noto CJK (Chinese glyphs in figures).
sysdeps:
	@bash tools/sysdeps.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@bash tools/install-torch.sh $(BIN)/python
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

build: setup
	$(BIN)/mkdocs build --strict -f mkdocs.yml
	$(BIN)/mkdocs build --strict -f mkdocs.en.yml

serve: setup
	$(BIN)/mkdocs serve -f mkdocs.yml -a 127.0.0.1:8000

# One PDF per language (tools/pdf.py prints each language's print page in headless Chromium).
pdf: build
	$(BIN)/python tools/pdf.py

publish: pdf

test: pdf
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python tools/bench.py
	$(BIN)/python tools/bench_playground.py
	$(BIN)/python tools/bench_tinygpt.py

clean:
	rm -rf site .cache test-artifacts
