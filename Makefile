# Seeing Attention · 看见注意力
#   make serve   set up what the book needs, then serve it at http://127.0.0.1:8000 (live reload);
#                LANG=en or LANG=zh previews one language, PORT=8001 another port
#   make test    set up everything (the book, the test and reference packages, Chromium), build
#                both languages and the PDFs, run every test
#   make check   the fast tests: everything that needs no built site and no browser (94 s on 2 cores, load 4)
#   make data    compute the figures and the widgets' data (training runs included) into the caches
#   make build   write the site: Chinese at site/, English at site/en/ (built in parallel, after data)
#   make pdf     build, then print the whole book to site/pdf/ (per language: the student edition
#                and the teacher's key)
#   make publish the deployable site/ (both languages + PDFs, without the print pages and second
#                copies: tools/publish.py, which checks it), as CI deploys it to GitHub Pages;
#                SITE_URL=https://<user>.github.io/<repo>/ (required) is its public address
#   make bench   print build, reload and test times, page weights, the tiny GPT's training speed and chapter 10's
#                attention against transformers with the chapter's build cost (figures, not assertions)
#   make upgrade refresh the locks (requirements/*.txt, package-lock.json) to the newest releases, then run every test
#   make clean   remove the site and the build caches (keeps downloaded files: .cache/pyodide)
#   make distclean  also remove downloads, .venv and node_modules
#
# Every setup installs exactly what the locks hold: requirements/docs.txt (the book) or
# requirements/test.txt (the book, the tests and the reference implementations), with their hashes,
# and package-lock.json (`npm ci`). pyproject.toml keeps ranges, for people who `pip install attnkit`.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup setup-docs serve data build check pdf publish test bench upgrade clean distclean

# The book: Python packages of the docs lock, the npm packages that build the site, Pyodide, the CJK fonts.
setup-docs: $(VENV)/.docs node_modules/.docs .cache/pyodide/.verified
	@bash tools/sysdeps.sh docs
# Everything: also the test lock, PyTorch (a reference in the tests), axe-core and Lighthouse, Chromium, poppler.
setup: setup-docs $(VENV)/.test node_modules/.test
	@bash tools/sysdeps.sh test

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The docs lock is a subset of the test lock (same versions): a venv set up for the tests has it.
$(VENV)/.docs: requirements/docs.txt $(VENV)/bin/python
	if [ $(VENV)/.test -nt requirements/docs.txt ]; then :; else \
	  $(PIP) --require-hashes --no-deps -r requirements/docs.txt && \
	  $(PIP) --no-deps --no-build-isolation -e . ; fi
	touch $@

$(VENV)/.test: requirements/test.txt $(VENV)/bin/python
	$(PIP) --require-hashes --no-deps -r requirements/test.txt
	$(PIP) --no-deps --no-build-isolation -e .
	@bash tools/install-torch.sh $(BIN)/python
	touch $@ $(VENV)/.docs

# npm ci empties node_modules first, so its stamps go with it.
node_modules/.docs: package.json package-lock.json
	if [ node_modules/.test -nt package-lock.json ]; then :; else npm ci --omit=dev --no-audit --no-fund --ignore-scripts; fi
	touch $@

node_modules/.test: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@ node_modules/.docs

# Pyodide + the official numpy wheel for the playground, fetched from npm and PyPI and checked
# against the sha256 pins in tools/pyodide-manifest.json (cached in .cache/, never committed).
.cache/pyodide/.verified: bookbuild/vendor_pyodide.py tools/pyodide-manifest.json $(VENV)/.docs
	$(BIN)/python -m bookbuild.vendor_pyodide
	touch $@

# `make serve LANG=en` serves only English (LANG is also the locale variable: only zh/en count).
PORT ?= 8000
serve: setup-docs
	$(BIN)/python tools/serve.py --port $(PORT) $(if $(filter zh en,$(LANG)),--lang $(LANG))

data: setup-docs
	$(BIN)/python -m bookbuild.data

build: setup-docs
	$(BIN)/python tools/build.py

check: setup
	$(BIN)/python -m pytest -n auto -m "not site and not browser and not pdf and not slow and not build and not serve" -q

# Two PDFs per language, the student edition and the teacher's key (tools/pdf.py prints each
# language's print page in headless Chromium).
pdf: setup build
	$(BIN)/python tools/pdf.py

# The public address goes into the sitemap, the canonical links and the print cover: a build
# without it would ship the preview address (http://127.0.0.1:8000/).
publish:
	@if [ -z "$(SITE_URL)" ]; then echo "make publish: set SITE_URL to the address the site will be served from," \
	  "e.g. make publish SITE_URL=https://<user>.github.io/<repo>/ (make build writes a local preview)" >&2; exit 2; fi
	$(MAKE) pdf SITE_URL=$(SITE_URL)
	$(BIN)/python tools/publish.py

# One pytest worker per core (pytest-xdist). worksteal hands each worker a contiguous run of
# tests (so a file's browser, server and trained-model fixtures mostly start once) and lets an
# idle worker take over half of another's queue (the four axe scans, the build tests).
# --durations: the 25 slowest tests close the log, for whoever shortens CI next.
test: pdf
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=25

# Scripts that print figures (bench/README.md). bench/bench.py works in a temporary copy (cold
# builds, serve, the tests); the others measure the site that `build` just wrote.
bench: setup build
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/bench_playground.py --site site
	$(BIN)/python bench/bench_exercises.py --site site
	$(BIN)/python bench/bench_listings.py --site site
	$(BIN)/python bench/bench_tinygpt.py --site site
	$(BIN)/python bench/bench_induction.py --site site
	$(BIN)/python bench/bench_text.py --site site
	$(BIN)/python bench/bench_pages.py --site site
	$(BIN)/python bench/bench_slides.py --site site
	$(BIN)/python bench/bench_modern.py

# The newest releases within pyproject.toml's ranges (and package.json's), written to the locks
# with their hashes by uv (for every platform, Python 3.11.5 on), installed, then every test.
# CONTRIBUTING.md says when to run it; commit the locks only when `make test` passed.
upgrade: $(VENV)/bin/python
	$(PIP) uv
	$(BIN)/uv pip compile --quiet --upgrade --universal --generate-hashes pyproject.toml requirements/lock.in \
	  --extra test -o requirements/test.txt
	$(BIN)/uv pip compile --quiet --universal --generate-hashes pyproject.toml requirements/lock.in \
	  --extra docs -c requirements/test.txt -o requirements/docs.txt
	npm update --package-lock-only --ignore-scripts --no-audit --no-fund
	$(MAKE) test

# Build caches are content-keyed (CONTRIBUTING.md lists them); clean keeps the downloads.
clean:
	rm -rf site .site.building test-artifacts
	if [ -d .cache ]; then find .cache -mindepth 1 -maxdepth 1 ! -name pyodide -exec rm -rf {} +; fi

distclean: clean
	rm -rf .cache $(VENV) node_modules
