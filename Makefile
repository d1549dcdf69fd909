# Seeing Attention · 看见注意力
#   make serve   set everything up, then serve the book at http://127.0.0.1:8000 (live reload);
#                LANG=en or LANG=zh previews one language, PORT=8001 another port
#   make check   the fast tests: everything that needs no built site and no browser (< 30 s)
#   make test    set everything up, build both languages and the PDFs, run every test
#   make build   write the site: Chinese at site/, English at site/en/ (built in parallel)
#   make pdf     build, then print the whole book to site/pdf/ (one PDF per language)
#   make publish the deployable site/ (both languages + PDFs), as CI deploys it to GitHub Pages;
#                SITE_URL=https://<user>.github.io/<repo>/ sets its public address
#   make bench   print build, reload and test times, page weights, the tiny GPT's training speed and chapter 10's
#                attention against transformers with the chapter's build cost (figures, not assertions)
#   make clean   remove the site and the build caches (keeps downloaded files: .cache/pyodide)
#   make distclean  also remove downloads, .venv and node_modules

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup sysdeps serve build check pdf publish test bench clean distclean

setup: sysdeps $(VENV)/.installed node_modules/.installed .cache/pyodide/.verified

# Pyodide + the official numpy wheel for the playground, fetched from npm and PyPI and checked
# against the sha256 pins in tools/pyodide-manifest.json (cached in .cache/, never committed).
.cache/pyodide/.verified: tools/vendor_pyodide.py bookbuild/vendor_pyodide.py tools/pyodide-manifest.json $(VENV)/.installed
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
	$(BIN)/python tools/build.py

# `make serve LANG=en` serves only English (LANG is also the locale variable: only zh/en count).
PORT ?= 8000
serve: setup
	$(BIN)/python tools/serve.py --port $(PORT) $(if $(filter zh en,$(LANG)),--lang $(LANG))

check: setup
	$(BIN)/python -m pytest -m "not site and not browser and not pdf and not slow and not build and not serve" -q

# One PDF per language (tools/pdf.py prints each language's print page in headless Chromium).
pdf: build
	$(BIN)/python tools/pdf.py

publish: pdf

# One pytest worker per core (pytest-xdist). worksteal hands each worker a contiguous run of
# tests (so a file's browser, server and trained-model fixtures mostly start once) and lets an
# idle worker take over half of another's queue (the four axe scans, the build tests).
# --durations: the 25 slowest tests close the log, for whoever shortens CI next.
test: pdf
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=25

# Scripts that print figures. tools/bench.py works in a temporary copy (cold builds, serve, the
# tests); the others measure the site that `build` just wrote.
bench: build
	$(BIN)/python tools/bench.py
	$(BIN)/python tools/bench_playground.py --site site
	$(BIN)/python tools/bench_exercises.py --site site
	$(BIN)/python tools/bench_listings.py --site site
	$(BIN)/python tools/bench_tinygpt.py --site site
	$(BIN)/python tools/bench_induction.py --site site
	$(BIN)/python tools/bench_text.py --site site
	$(BIN)/python tools/bench_pages.py --site site
	$(BIN)/python tools/bench_modern.py

# Build caches are content-keyed (CONTRIBUTING.md lists them); clean keeps the downloads.
clean:
	rm -rf site .site.building test-artifacts
	if [ -d .cache ]; then find .cache -mindepth 1 -maxdepth 1 ! -name pyodide -exec rm -rf {} +; fi

distclean: clean
	rm -rf .cache $(VENV) node_modules
