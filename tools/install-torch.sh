#!/usr/bin/env bash
# Optional: PyTorch, a reference in the tests only, installed from a CPU wheel in pip's local find-links
# folder (as on our CI machines); elsewhere `pip install torch` could download several GB, so we say so.
set -uo pipefail
python="$1"
"$python" -c "import torch" 2>/dev/null && exit 0
wheel=$(ls "${PIP_FIND_LINKS:-/nonexistent}"/torch-*cpu*.whl 2>/dev/null | head -n 1)
if [ -z "$wheel" ]; then
  echo "No local PyTorch CPU wheel: the PyTorch reference tests will be skipped (pip install torch to run them)."
  exit 0
fi
version=$(basename "$wheel" | cut -d- -f2)
echo "Installing PyTorch $version (local CPU wheel) for the reference tests"
"$python" -m pip install --quiet "torch==$version" || echo "PyTorch install failed: the PyTorch reference tests will be skipped."
