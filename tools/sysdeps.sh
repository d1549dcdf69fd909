#!/usr/bin/env bash
# The Debian packages the book needs, installed when we can (root + apt):
#   tools/sysdeps.sh docs   Noto CJK (Chinese glyphs in the figures)
#   tools/sysdeps.sh test   also Chromium (browser tests, the PDFs), qpdf and poppler-utils (PDFs and their tests)
set -euo pipefail
missing=()
# grep -c, not -q: -q stops reading early, fc-list dies of SIGPIPE and pipefail reports a miss.
fc-list 2>/dev/null | grep -c "Noto Sans CJK SC" >/dev/null || missing+=(fonts-noto-cjk)
if [ "${1:-test}" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)                 # tools/pdf.py: object streams (a third of a PDF)
  command -v pdffonts >/dev/null 2>&1 || missing+=(poppler-utils)   # PDF tests: pdftotext, pdffonts, pdfimages
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null   # with recommends: what the tests were run with
  fc-cache -f >/dev/null 2>&1 || true
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Install them (Debian/Ubuntu: sudo apt-get install ${missing[*]}), then run make again." >&2
  exit 1
fi
